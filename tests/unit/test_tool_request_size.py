"""The ToolCallingAgent's first request, as the extension sends it (page tools, the user tools it
ships bound to the page as a turn binds them, a model that takes no images), counted with a
real tokenizer (o200k): at most 3,000 tokens with the full tool set, 1,800 with the compact one
(issue 37), ask_user (the hand-back, issue 39) included. The budget is TabAgent's own: a
developer's tools in their py/user_tools are not counted against it (`python -m tabagent
--list-tools` shows what theirs cost). An example (convert_units) is not listed. And what makes it so: a schema as the model is shown it has no docstring
line breaks, no empty "required", and the size knobs of the reading tools (max_results...) named
in the description rather than listed, still taken when a model sends them; the panel's Tools
view shows that same schema."""

import json
import shutil
from pathlib import Path

import pytest

from tabagent.app.json_entry_points import list_tools_json
from tabagent.app.consent import CalledByHand
from tabagent.app.page_tools import page_tools
from tabagent.app.turns import Turns
from tabagent.app.user_tool_page import with_page
from tabagent.app.user_tools import load_user_tools
from tabagent.testing import ScriptedModel
from tabagent.tools import tool

from tests.helpers.five_step_task import TASK, PageBridge, article
from tests.helpers.real_tokens import count_request

TARGETS = {"full": (131_072, 3000), "compact": (4096, 1800)}
USER_TOOLS = Path(__file__).resolve().parents[2] / "py" / "user_tools"
SHIPPED = ("convert_units.py",)  # the tool files of py/user_tools that TabAgent ships


def shipped_tools(folder: Path) -> list:
    """The user tools TabAgent ships, loaded from a copy of their files alone."""
    for name in SHIPPED:
        shutil.copy(USER_TOOLS / name, folder / name)
    tools, problems = load_user_tools(folder)
    assert tools and not problems, problems
    return tools


async def first_request(window: int, tools: list, agent: str = "tool_calling") -> dict:
    model, page = ScriptedModel(["Done."]), PageBridge(article(1)[0])
    settings = {"agent": agent, "context_window": window, "base_url": "http://127.0.0.1:9/v1"}
    await Turns().run({"conversation_id": "size", "task": TASK, "settings": settings}, lambda e: None,
                      model=model, page=page, tools=with_page(tools, page))
    return model.calls[0]


@pytest.mark.parametrize("tool_set", sorted(TARGETS))
async def test_the_first_request_fits_the_target(tool_set, tmp_path):
    window, target = TARGETS[tool_set]
    sent = await first_request(window, shipped_tools(tmp_path))
    assert (len(sent["tools"]) > 20) == (tool_set == "full")  # the set the window chose
    assert count_request(sent["messages"], sent["tools"]) <= target
    assert not [t["function"]["name"] for t in sent["tools"] if t["function"]["parameters"].get("required") == []]
    assert "convert_units" not in {t["function"]["name"] for t in sent["tools"]}  # an example: through more_tools


@pytest.mark.parametrize("tool_set", sorted(TARGETS))
async def test_the_code_agent_s_first_request_fits_the_target(tool_set, tmp_path):
    """The CodeAgent lists its tools in the system prompt (as calls: test_real_model_habits.py):
    2,061 tokens with the full set and 672 with the compact one as Python stubs, 2,028 and 609
    as the list."""
    window, target = TARGETS[tool_set]
    sent = await first_request(window, shipped_tools(tmp_path), agent="code")
    assert sent["tools"] is None
    assert count_request(sent["messages"], None) <= target


def reader(name: str):
    class Bridge:
        calls = []

        async def run_page_tool(self, tool, args, tab_id=None, expect_url=None):
            self.calls.append(args)
            return {"ok": True, "url": "https://example.org/", "result": {"matches": []}}

    return {t.name: t for t in page_tools(Bridge(), CalledByHand())}[name], Bridge.calls


async def test_a_size_knob_is_named_in_the_description_and_still_taken():
    find, calls = reader("find_in_page")
    shown = find.to_openai()["function"]
    assert "max_results" not in shown["parameters"]["properties"]
    assert "max_results=20" in shown["description"] and "query" in shown["parameters"]["properties"]
    await find(query="price", max_results=3)
    assert calls[-1]["max_results"] == 3
    assert "max_results: int = 20" in find.python_signature()  # the CodeAgent's stub keeps it


def test_a_docstring_is_sent_without_its_line_breaks_and_without_an_empty_required():
    @tool
    def look(word: str = "") -> str:
        """Looks a word up in the
        user's dictionary.

        A second paragraph.
        """
        return word

    shown = look.to_openai()["function"]
    assert shown["description"] == "Looks a word up in the user's dictionary.\n\nA second paragraph."
    assert "required" not in shown["parameters"]


def test_the_tools_view_shows_what_the_model_is_sent():
    listed = {t["name"]: t for t in json.loads(list_tools_json())["tools"]}
    for name, sent in {t.name: t.to_openai()["function"] for t in page_tools(PageBridge(""), CalledByHand())}.items():
        assert (listed[name]["description"], listed[name]["parameters"]) == (sent["description"], sent["parameters"])
