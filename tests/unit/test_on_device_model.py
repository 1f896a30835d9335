"""The on-device model's Python side (py/tabagent/app/on_device_model.py): an OpenAIModel whose
host hands the request to the extension's bridge. The bridge here plays back server-sent events
in the shape llama.cpp's server streams them (tools/server: a role delta, a tool call's name and
then its arguments in pieces, finish_reason "tool_calls"), which is what wllama 3, built on that
server's code, hands the extension: the mechanics only, not a model."""

from __future__ import annotations

import json

import pytest

from tabagent.app.on_device_model import BASE_URL, OnDeviceModelError, on_device_model
from tabagent.app.turns import build_model, context_keeper
from tabagent.providers import ONDEVICE, PROVIDERS


def events(*chunks) -> list[str]:
    return [f"data: {json.dumps(chunk)}\n\n" for chunk in chunks] + ["data: [DONE]\n\n"]


def delta(**fields):
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": fields, "finish_reason": None}]}


def finish(reason):
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]}


TOOL_CALL = events(
    delta(role="assistant", content=None),
    delta(tool_calls=[{"index": 0, "id": "call_1", "type": "function", "function": {"name": "read_page", "arguments": ""}}]),
    delta(tool_calls=[{"index": 0, "function": {"arguments": '{"page": '}}]),
    delta(tool_calls=[{"index": 0, "function": {"arguments": "1}"}}]),
    finish("tool_calls"),
)


class Bridge:
    def __init__(self, pieces=(), window=8192, fail=None):
        self.pieces, self._window, self.fail = list(pieces), window, fail
        self.bodies, self.aborted = [], []

    async def complete(self, request_id, body_json):
        if self.fail:
            raise RuntimeError(f"Error: {self.fail}")
        self.bodies.append(json.loads(body_json))
        return iter(self.pieces)

    async def window(self):
        return self._window

    def abort(self, request_id):
        self.aborted.append(request_id)


def test_the_provider_is_first_and_needs_no_url_or_key():
    assert next(iter(PROVIDERS)) == ONDEVICE
    assert PROVIDERS[ONDEVICE]["on_device"] and not PROVIDERS[ONDEVICE]["needs_key"]


async def test_a_tool_call_streamed_by_llama_cpp_is_read_as_a_call():
    bridge = Bridge(TOOL_CALL)
    model = on_device_model(bridge, {"model": "smollm2", "max_output_tokens": 64})
    tools = [{"type": "function", "function": {"name": "read_page", "parameters": {"type": "object"}}}]
    reply = await model.generate([{"role": "user", "content": "Read it"}], tools=tools)
    assert [(c.name, json.loads(c.arguments)) for c in reply.tool_calls] == [("read_page", {"page": 1})]
    sent = bridge.bodies[0]
    assert sent["tools"] == tools and sent["max_tokens"] == 64 and sent["messages"][-1]["content"] == "Read it"


async def test_text_streams_as_tokens():
    bridge = Bridge(events(delta(role="assistant", content="Sea otters "), delta(content="hold hands."), finish("stop")))
    pieces = []
    reply = await on_device_model(bridge, {"model": "m"}).generate([{"role": "user", "content": "?"}], on_token=pieces.append)
    assert reply.content == "Sea otters hold hands." and "".join(pieces) == reply.content


async def test_a_model_that_cannot_load_is_said_in_words_and_not_retried():
    bridge = Bridge(fail="no on-device model is chosen: pick or download one in TabAgent's settings.")
    with pytest.raises(OnDeviceModelError, match="pick or download one") as caught:
        await on_device_model(bridge, {"model": "m"}).generate([{"role": "user", "content": "?"}])
    assert caught.value.attempts == 1


async def test_the_window_is_the_one_the_model_was_loaded_with():
    model = on_device_model(Bridge(window=4096), {"model": "m"})
    window = await context_keeper(model, {"provider": ONDEVICE, "context_window": 32768}, None).known_window()
    assert (window.tokens, window.source) == (4096, "the model file")


async def test_the_host_answers_nothing_but_the_model():
    model = on_device_model(Bridge(), {"model": "m"})
    with pytest.raises(OnDeviceModelError):
        await model.host.request("GET", "https://example.org/", {})
    assert model.url == BASE_URL + "/chat/completions"


def test_outside_the_extension_it_says_so():
    with pytest.raises(ValueError, match="only inside the extension"):
        build_model({"provider": ONDEVICE}, None)


def turn_request(agent: str) -> dict:
    return {"conversation_id": "c1", "task": "What is this page about?", "memory": None,
            "settings": {"provider": ONDEVICE, "model": "smollm2", "agent": agent, "max_steps": 2}}


async def test_a_turn_on_device_lists_the_compact_tool_set_for_the_files_small_window():
    from tabagent.app.turns import Turns
    from tabagent.tool_set import CORE
    from tests.helpers.five_step_task import PageBridge

    bridge = Bridge(events(delta(role="assistant", content="It is about a bridge."), finish("stop")), window=8192)
    events_seen = []
    result = await Turns().run(turn_request("tool_calling"), events_seen.append, device_model=bridge,
                               page=PageBridge("# The bridge\n\nIt opened in 1875."))
    assert result["status"] == "ok"
    listed = {tool["function"]["name"] for tool in bridge.bodies[0]["tools"]}
    assert listed <= {*CORE, "more_tools"} and "read_page" in listed and len(listed) < 15


async def test_a_code_agent_runs_on_device_too():
    from tabagent.app.turns import Turns

    reply = 'Thought: answer.\n```python\nfinal_answer("It is about a bridge.")\n```'
    bridge = Bridge(events(delta(role="assistant", content=reply), finish("stop")))
    events_seen = []
    await Turns().run(turn_request("code"), events_seen.append, device_model=bridge)
    assert "tools" not in bridge.bodies[0] and bridge.bodies[0]["messages"][0]["role"] == "system"
