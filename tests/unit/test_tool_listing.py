"""Each request lists the tools once (issue 37): in `tools` when they go natively, in the prompt
when the model takes text calls; a compact set for a small window or by the setting, the rest
reachable through more_tools; no screenshot for a model that cannot see; examples on request;
the model's notes kept in every request."""

import json

from tabagent.code_agent import CodeAgent
from tabagent.context_keeper import ContextKeeper
from tabagent.memory import Memory
from tabagent.vision import Vision
from tabagent.testing import ScriptedModel
from tabagent.tool_calling_agent import ToolCallingAgent
from tabagent.tools import tool
from tabagent.app.consent import CalledByHand
from tabagent.app.page_tools import page_tools
from tabagent.app.turns import Turns
from tabagent.app.user_tools import load_user_tools
from tabagent.app.wire import SETTINGS

from tests.helpers.five_step_task import PageBridge, article


@tool
def lookup(word: str) -> str:
    """Looks a word up in the user's own dictionary. It knows every word the user added.

    Args:
        word: the word to look up.
    """
    return word


def page(sees=False):
    return page_tools(PageBridge(article(1)[0]), CalledByHand(), vision=Vision.fixed(sees))


def names(tools) -> list[str]:
    return [t["function"]["name"] for t in tools]


async def first_request(agent_class, tools, window, model=None, **options):
    model = model or ScriptedModel(["Done."])
    agent = agent_class(model, tools, context=ContextKeeper.fixed(window), **options)
    await agent.run("What does it say?")  # not "the page": an answer unread would be held (reply_checks.py)
    return model.calls[0], agent


async def test_native_tools_are_listed_once_in_tools_never_again_in_the_prompt():
    sent, _ = await first_request(ToolCallingAgent, [*page(), lookup], 131_072)
    system = sent["messages"][0]["content"]
    assert "read_page" in names(sent["tools"]) and "lookup" in names(sent["tools"])
    assert len(names(sent["tools"])) == len(set(names(sent["tools"])))
    for schema in sent["tools"]:
        assert schema["function"]["name"] not in system.replace("final_answer", "")
    assert "Looks a word up" not in system and '"properties"' not in system


async def test_a_model_without_native_tools_is_taught_them_in_the_prompt():
    model = ScriptedModel(["Done."])
    model.takes_tools = False  # Chrome's built-in model, or an endpoint that refuses tools
    sent, _ = await first_request(ToolCallingAgent, [*page(), lookup], 131_072, model)
    system = sent["messages"][0]["content"]
    assert sent["tools"] is None
    assert "- lookup: Looks a word up" in system and '"word"' in system and "- read_page:" in system


async def test_a_small_window_gets_the_compact_set_and_more_tools_reaches_the_rest():
    calls = [{"tool_calls": [{"name": "more_tools", "arguments": {}}]},
             {"tool_calls": [{"name": "more_tools", "arguments": {"names": ["extract_tables"]}}]},
             "Done."]
    model = ScriptedModel(calls)
    sent, agent = await first_request(ToolCallingAgent, [*page(), lookup], 4096, model, vision=Vision.fixed(False))
    listed = names(sent["tools"])
    assert set(listed) == {"read_page", "find_in_page", "list_controls", "click", "type_text", "press_key",
                           "navigate", "note", "lookup", "more_tools", "final_answer"}
    described = {t["function"]["name"]: t["function"]["description"] for t in sent["tools"]}
    assert all(". " not in d.rstrip(".") for n, d in described.items() if n != "lookup")  # one sentence
    # The user's own (and an MCP server's) tool goes as the user was shown it, whole.
    assert described["lookup"] == "Looks a word up in the user's own dictionary. It knows every word the user added."
    listing = model.calls[1]["messages"][-1]["content"]
    assert "- extract_tables:" in listing and "- list_links:" in listing and "- read_page:" not in listing
    assert "screenshot" not in listing  # this model cannot see
    assert "extract_tables" in names(model.calls[2]["tools"])


async def test_the_setting_chooses_the_set_whatever_the_window():
    assert SETTINGS["tool_set"] == "auto"
    full, _ = await first_request(ToolCallingAgent, page(), 8192, tool_set="full")
    compact, _ = await first_request(ToolCallingAgent, page(), 131_072, tool_set="compact")
    auto, _ = await first_request(ToolCallingAgent, page(), 131_072)
    assert "extract_tables" in names(full["tools"])
    # Only what is offered on demand (read_download) is left to more_tools in the full set.
    assert "read_download" not in names(full["tools"]) and "more_tools" in names(full["tools"])
    assert "extract_tables" not in names(compact["tools"]) and "more_tools" in names(compact["tools"])
    assert names(auto["tools"]) == names(full["tools"])


async def test_the_setting_reaches_the_agent_through_a_turn():
    model = ScriptedModel(["Done."])
    request = {"conversation_id": "c", "task": "Hi", "settings": {
        "agent": "tool_calling", "base_url": "http://x", "context_window": 131_072, "tool_set": "compact"}}
    await Turns().run(request, lambda e: None, model=model, page=PageBridge("# A\n\nText."))
    assert "more_tools" in names(model.calls[0]["tools"]) and "list_links" not in names(model.calls[0]["tools"])


async def test_screenshot_is_offered_only_to_a_model_that_sees():
    blind, _ = await first_request(ToolCallingAgent, page(sees=False), 131_072, vision=Vision.fixed(False))
    seeing, _ = await first_request(ToolCallingAgent, page(sees=True), 131_072, vision=Vision.fixed(True))
    assert "screenshot" not in names(blind["tools"]) and "screenshot" in names(seeing["tools"])


async def test_an_example_tool_is_not_in_every_request_but_is_reachable():
    tools, problems = load_user_tools()
    assert not problems and "convert_units" in [t.name for t in tools]
    calls = [{"tool_calls": [{"name": "more_tools", "arguments": {}}]},
             {"tool_calls": [{"name": "convert_units", "arguments": {"value": 1, "from_unit": "km", "to_unit": "m"}}]},
             "Done."]
    model = ScriptedModel(calls)
    await first_request(ToolCallingAgent, tools, 131_072, model)
    assert "convert_units" not in names(model.calls[0]["tools"])
    assert "- convert_units:" in model.calls[1]["messages"][-1]["content"]
    assert model.calls[2]["messages"][-1]["content"] == "1000.0"  # unlisted, still callable


async def test_the_code_agent_lists_the_compact_set_in_a_small_window():
    model = ScriptedModel(["Done."])
    sent, _ = await first_request(CodeAgent, [*page(), lookup], 4096, model)
    system = sent["messages"][0]["content"]
    assert "- read_page(" in system and "- lookup(" in system and "- more_tools(" in system
    assert "- extract_tables(" not in system and "- screenshot(" not in system


async def test_notes_stay_in_every_request_after_compaction_and_with_the_conversation():
    long_result = "Results of the long computation. " * 400

    @tool
    def compute(part: int) -> str:
        """Computes.

        Args:
            part: which part
        """
        return long_result

    replies = [{"tool_calls": [{"name": "note", "arguments": {"text": "The bridge opened in 1911."}}]},
               *({"tool_calls": [{"name": "compute", "arguments": {"part": part}}]} for part in (1, 2, 3)),
               "Done."]
    model = ScriptedModel(replies)
    agent = ToolCallingAgent(model, [compute], context=ContextKeeper.fixed(4096))
    await agent.run("Find the year.")
    last = model.calls[-1]["messages"]
    assert not any("1911" in json.dumps(m.get("tool_calls") or "") for m in last[1:])  # the call itself is gone
    assert "- The bridge opened in 1911." in last[0]["content"]
    assert Memory.from_json(agent.memory.to_json()).notes == ["The bridge opened in 1911."]


async def test_page_tools_can_be_switched_off():
    assert SETTINGS["page_tools"] is True
    for on in (True, False):
        model = ScriptedModel(["Done."])
        request = {"conversation_id": f"c-{on}", "task": "What is 2 + 2?", "settings": {
            "agent": "tool_calling", "base_url": "http://x", "context_window": 131_072, "page_tools": on}}
        await Turns().run(request, lambda e: None, model=model, page=PageBridge("# A\n\nText."))
        listed = names(model.calls[0]["tools"])
        assert ("read_page" in listed and "click" in listed) is on
        assert on or set(listed) == {"note", "final_answer"}
