"""A reply held to a tool call by the real llama.cpp server (llama-cpp-python, SmolLM2-135M;
tests/helpers/llama_server.py), issue 48.

The server says it can (its /openapi.json lists `grammar` and `response_format` for a chat
request), and takes the hold as response_format {"type": "json_object", "schema"}. A front on
127.0.0.1 answers the turn's first two requests with calls cut off, as a small model writes them;
the third goes to the real server, held, and whatever the tiny model says comes back as a call of
a listed tool, read by TabAgent's own reader and run."""

from __future__ import annotations

import json
import sys
from typing import Literal

import pytest

from tests.helpers.browser import ROOT
from tests.helpers.llama_server import Front

pytestmark = pytest.mark.timeout(600)
sys.path.insert(0, str(ROOT / "py"))

from tabagent import reply_grammar  # noqa: E402
from tabagent.models import OpenAIModel  # noqa: E402
from tabagent.tool_calling_agent import ToolCallingAgent  # noqa: E402
from tabagent.tools import tool  # noqa: E402

CUT_OFF = '<tool_call>\n{"name": "look", "arguments": {"word": "ket'


class GarblingFront(Front):
    """The real server behind a front whose first `garbled` chat replies are a call cut off."""

    def __init__(self, upstream: str, garbled: int = 2):
        super().__init__(upstream)
        self.garbled = garbled

    def answer(self, path: str, body: bytes) -> tuple[int, bytes, str] | bytes:
        self.requests.append(json.loads(body))
        if len(self.requests) <= self.garbled:
            reply = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": CUT_OFF}}]}
            return 200, json.dumps(reply).encode(), "application/json"
        return json.dumps({**self.requests[-1], "stream": False}).encode()


@tool
def look(word: Literal["kettle", "teapot", "toaster"]) -> str:
    """Looks a product up in the shop's catalogue.

    Args:
        word: the product (an enum: a 135M model's free text need not end within the reply's
            token limit; what is held here is the shape of the call)
    """
    return f"{word}: in stock"


async def test_the_real_server_says_it_can_hold_a_reply(llama):
    model = OpenAIModel(llama.base_url, model=llama.model)
    assert await model.reply_constraint() == reply_grammar.JSON_OBJECT


async def test_after_two_calls_cut_off_the_real_server_holds_the_next_reply_to_a_tool_call(llama):
    events = []
    with GarblingFront(llama.root) as front:
        model = OpenAIModel(front.base_url, model=llama.model, timeout=300, stream=False,
                            extra_body={"max_tokens": 80, "temperature": 0})
        agent = ToolCallingAgent(model, [look], listeners=[events.append], max_steps=3)
        await agent.run("Is the kettle in stock? Look it up.")
    held = [r.get("response_format") for r in front.requests]
    assert held[:2] == [None, None]
    assert held[2]["type"] == "json_object"
    assert {o["properties"]["name"]["const"] for o in held[2]["schema"]["anyOf"]} >= {"look", "final_answer"}
    assert [e.data["kind"] for e in events if e.kind == "error"][:1] == ["constrained"]
    # The held reply was read by TabAgent's own reader as a call of a listed tool, and it ran.
    third = [e for e in events if e.kind == "step_start"][2].seq
    ran = [e.data for e in events if e.kind == "tool_result" and e.seq > third]
    assert ran and ran[0]["name"] in ("look", "final_answer") and not ran[0]["is_error"], ran
