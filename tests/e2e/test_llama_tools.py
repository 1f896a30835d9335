"""Tools with llama.cpp's server as it is (tests/helpers/llama_server.py: SmolLM2-135M-Instruct).

llama-cpp-python's server, run here, takes `tools` without a chat_format or --jinja: its
default chat handler hands them to the model's own Jinja template (llama_chat_format.py,
Jinja2ChatFormatter) and answers 200. llama.cpp's C++ llama-server without --jinja refuses
them with a 500 ("tools param requires --jinja flag"); NoJinjaFront answers so in front of
the real server and passes every other request on. The model is tiny: these tests assert on
what is sent and how each answer is taken, never on what the model says.
"""

from __future__ import annotations

import json
import sys

import pytest

from tests.helpers.browser import ROOT
from tests.helpers.llama_server import NO_JINJA_STATUS, LlamaServer, NoJinjaFront, missing
from tests.helpers.panel_backends import ChromiumPanel


pytestmark = pytest.mark.timeout(600)
sys.path.insert(0, str(ROOT / "py"))

from tabagent.errors import ModelError  # noqa: E402
from tabagent.models import OpenAIModel  # noqa: E402
from tabagent.tool_calling_agent import ToolCallingAgent  # noqa: E402


@pytest.fixture(scope="module")
def llama():
    """The real server with an 8,192-token window: the tools listed in the prompt fit."""
    if why := missing():
        pytest.skip(why)
    with LlamaServer(n_ctx=8192) as server:
        yield server


def add(a: int, b: int) -> int:
    """Adds two numbers.

    Args:
        a: one number.
        b: another.
    """
    return a + b


async def a_turn(base_url: str, model_name: str, events: list) -> OpenAIModel:
    model = OpenAIModel(base_url, model=model_name, timeout=300, max_retries=3, extra_body={"max_tokens": 60})
    agent = ToolCallingAgent(model, [add], listeners=[events.append], max_steps=2)
    try:
        await agent.run("What is 2 + 3? Use the add tool.")
    except ModelError:
        pass  # what the tiny model says does not matter here; the requests do
    return model


def exchanges(events) -> list[dict]:
    return [e.data for e in events if e.kind == "model_call"]


def told(events, kind: str) -> list[dict]:
    return [e.data for e in events if e.kind == "error" and e.data["kind"] == kind]


async def test_the_real_server_takes_tools_without_jinja_or_a_chat_format(llama):
    events = []
    model = await a_turn(llama.base_url, llama.model, events)
    first = exchanges(events)[0]
    assert first["status"] == 200 and json.loads(first["request"])["tools"][0]["function"]["name"] == "add"
    assert model.takes_tools and not told(events, "text_calls")


async def test_llama_cpp_refusing_tools_is_asked_once_then_spoken_to_with_text_calls(llama):
    with NoJinjaFront(llama.root) as front:
        events = []
        await a_turn(front.base_url, llama.model, events)
        calls = exchanges(events)
        assert [c["status"] for c in calls][:2] == [NO_JINJA_STATUS, 200]  # not retried: answered at once
        assert all(c["status"] == 200 for c in calls[1:]) and not told(events, "retrying")
        assert "tools param requires --jinja flag" in told(events, "text_calls")[0]["message"]
        sent = [json.loads(c["request"]) for c in calls]
        assert "tools" in sent[0] and not any("tools" in s for s in sent[1:])
        assert '"a": {"type": "integer"' in sent[1]["messages"][0]["content"]  # the schemas, in the prompt
        # The next turn (a new model object, as each turn builds) sends no tools from the start.
        again = []
        await a_turn(front.base_url, llama.model, again)
        assert exchanges(again)[0]["status"] == 200 and not told(again, "text_calls")
        assert "tools" not in json.loads(exchanges(again)[0]["request"])


def test_the_extension_speaks_to_llama_cpp_without_jinja_with_text_calls(browser, llama):
    """One turn in the panel, custom provider, ToolCallingAgent with the page tools."""
    with NoJinjaFront(llama.root) as front:
        panel = ChromiumPanel(browser)
        panel.configure(front.base_url, agent="tool_calling", api_key="", model=llama.model,
                        max_steps=2, context_window=8192, max_output_tokens=60)
        panel.new_conversation()
        panel.send("Say hello in one short sentence.")
        panel.wait_for_status("ok", "max_steps", "error", timeout=400)
        panel.screenshot("llama-text-calls")
        turn = panel.last_turn()
        conversation = max(panel.stored_conversations(), key=lambda c: c.get("updatedAt") or 0)
        events = conversation["turns"][-1]["events"]
    assert turn.get_attribute("data-status") in ("ok", "max_steps"), turn.text
    calls = [e["data"] for e in events if e["kind"] == "model_call"]
    assert [c["status"] for c in calls][:2] == [NO_JINJA_STATUS, 200]
    sent = [json.loads(c["request"]) for c in calls]
    assert "tools" in sent[0] and not any("tools" in s for s in sent[1:])
    notices = [e["data"] for e in events if e["kind"] == "error" and e["data"]["kind"] == "text_calls"]
    assert len(notices) == 1 and "--jinja" in notices[0]["message"]
    assert "--jinja" in turn.text  # the panel tells it beside the answer
