"""A turn described as data: the surface-facing entry point of the agent."""

from __future__ import annotations

import asyncio
import json

import pytest

from tabagent.testing import ScriptedModel
from tabagent.memory import Memory
from tabagent.app.turns import Turns, build_agent
from tabagent.app.wire import LIMITS, SETTINGS, settings_from_wire
from tabagent.providers import LOCAL_TIMEOUT, REMOTE_TIMEOUT
from tabagent.code_agent import CodeAgent
from tabagent.tool_calling_agent import ToolCallingAgent


def request(**overrides):
    base = {"conversation_id": "c1", "task": "Say hi", "memory": None,
            "settings": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "agent": "tool_calling"}}
    base.update(overrides)
    return base


async def test_a_turn_streams_events_and_returns_memory():
    events = []
    result = await Turns().run(request(), events.append, model=ScriptedModel(["Hi there"]))
    assert result["status"] == "ok"
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "step_start" and kinds[-2:] == ["final_answer", "done"]
    assert events[-2]["data"]["answer"] == "Hi there"
    assert json.loads(result["memory"])["steps"][0]["task"] == "Say hi"
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


async def test_the_next_turn_continues_the_conversation_and_its_sequence():
    first_events, second_events = [], []
    first = await Turns().run(request(), first_events.append, model=ScriptedModel(["One"]))
    model = ScriptedModel(["Two"])
    await Turns().run(request(task="And again?", memory=first["memory"]), second_events.append, model=model)
    assert second_events[0]["seq"] == first_events[-1]["seq"] + 1
    tasks = [m["content"] for m in model.calls[0]["messages"] if m["role"] == "user"]
    assert tasks == ["Say hi", "And again?"]


def test_agent_kind_comes_from_settings():
    code = build_agent(request(settings={"base_url": "http://x/v1", "agent": "code"}), print)
    calling = build_agent(request(), print)
    assert isinstance(code, CodeAgent) and isinstance(calling, ToolCallingAgent)


async def test_a_missing_model_is_told_as_events_not_raised():
    events = []
    result = await Turns().run(request(settings={}), events.append)
    assert result["status"] == "error"
    assert [e["kind"] for e in events] == ["error", "done"]
    assert "settings" in events[0]["data"]["message"]


async def test_a_memory_step_with_a_field_this_version_does_not_know_is_told_in_words():
    """A file from a newer version (or an edited one) must not fail the turn with no words."""
    first = await Turns().run(request(), [].append, model=ScriptedModel(["One"]))
    memory = json.loads(first["memory"])
    memory["steps"][1]["confidence"] = 0.9
    events, model = [], ScriptedModel(["Two"])
    result = await Turns().run(request(task="And again?", memory=json.dumps(memory)), events.append, model=model)
    assert result == {"status": "error", "memory": json.dumps(memory)}  # kept, as it was
    assert [e["kind"] for e in events] == ["error", "done"] and model.calls == []
    assert events[0]["data"]["kind"] == "memory"
    assert "Step 2 of this conversation's memory has fields this version of TabAgent does not know (confidence)" in events[0]["data"]["message"]
    assert events[0]["seq"] == memory["seq"] + 1  # the conversation's numbering goes on


async def test_stop_cancels_the_running_turn():
    turns, events = Turns(), []

    class SlowModel(ScriptedModel):
        async def generate(self, *args, **kwargs):
            await asyncio.sleep(30)

    task = asyncio.ensure_future(turns.run(request(), events.append, model=SlowModel([])))
    await asyncio.sleep(0.05)
    assert turns.stop("c1")
    result = await asyncio.wait_for(task, 2)
    assert result["status"] == "cancelled"
    assert events[-1]["data"]["status"] == "cancelled"
    assert not turns.stop("c1")  # no longer running
    Memory.from_json(result["memory"])


async def test_a_team_from_the_settings_nests_three_levels():
    team = [{"name": "researcher", "description": "Finds things out.", "agent": "tool_calling",
             "team": [{"name": "reader", "description": "Reads carefully.", "agent": "tool_calling"}]}]
    model = ScriptedModel([
        {"tool_calls": [{"name": "researcher", "arguments": {"task": "look"}}]},
        {"tool_calls": [{"name": "reader", "arguments": {"task": "read"}}]},
        "read it",
        "found it",
        "All done",
    ])
    events = []
    result = await Turns().run(request(settings={"base_url": "http://x/v1", "agent": "tool_calling", "team": team}),
                               events.append, model=model)
    assert result["status"] == "ok"
    depth_of = {e["agent"]: e["depth"] for e in events if e["kind"] == "step_start"}
    assert depth_of == {"TabAgent": 0, "researcher": 1, "reader": 2}
    assert events[-2]["data"]["answer"] == "All done"


async def test_the_builtin_provider_uses_the_browser_model_bridge():
    from tests.helpers.fake_bridge import FakeBridge

    bridge = FakeBridge(["Hello from the device"])
    events = []
    settings = {"provider": "builtin", "agent": "tool_calling"}
    result = await Turns().run(request(settings=settings), events.append, browser_model=bridge)
    assert result["status"] == "ok"
    assert events[-2]["data"]["answer"].strip() == "Hello from the device"


async def test_the_builtin_provider_outside_the_browser_is_a_clear_error():
    events = []
    result = await Turns().run(request(settings={"provider": "builtin"}), events.append)
    assert result["status"] == "error" and "built-in model" in events[0]["data"]["message"]


async def test_user_tools_reach_the_agent_and_broken_ones_are_told(monkeypatch, tmp_path):
    import functools

    from tabagent.app import json_entry_points as json_api, user_tools

    (tmp_path / "good.py").write_text(
        "from tabagent import tool\n\n@tool\ndef shout(text: str) -> str:\n"
        "    \"\"\"Shouts.\n\n    Args:\n        text: what to shout\n    \"\"\"\n    return text.upper()\n")
    (tmp_path / "broken.py").write_text("def oops(:\n    pass\n")
    monkeypatch.setattr(json_api, "load_user_tools", functools.partial(user_tools.load_user_tools, tmp_path))
    model = ScriptedModel([{"tool_calls": [{"name": "shout", "arguments": {"text": "hi"}}]}, "HI it is"])
    emitted = []
    result = json.loads(await json_api.run_turn_json(json.dumps(request()), emit=emitted.append, model=model))
    events = [json.loads(e) for e in emitted]
    assert result["status"] == "ok"
    assert events[0]["kind"] == "error" and events[0]["data"]["kind"] == "user_tools"
    assert "broken.py, line 1" in events[0]["data"]["message"]
    assert [e["data"]["result"] for e in events if e["kind"] == "tool_result"] == ["HI"]

    listed = json.loads(json_api.list_tools_json())
    names = [t["name"] for t in listed["tools"]]
    assert "shout" in names and "read_page" in names and names[-1] == "final_answer"
    shout = next(t for t in listed["tools"] if t["name"] == "shout")
    assert shout["parameters"]["properties"]["text"]["type"] == "string" and "def shout" in shout["signature"]
    assert listed["problems"][0]["line"] == 1


async def test_the_users_system_prompt_is_added_to_the_agents_instructions_never_replacing_them():
    model = ScriptedModel(["Ahoy"])
    settings = {"base_url": "http://x/v1", "agent": "tool_calling", "system_prompt": "Talk like a pirate."}
    await Turns().run(request(settings=settings), lambda e: None, model=model)
    system = model.calls[0]["messages"][0]["content"]
    own = ToolCallingAgent(model, name="TabAgent").system_prompt()
    assert system.startswith(own)
    assert system.index("language the user writes in") < system.index("Talk like a pirate.")


async def test_without_a_system_prompt_the_agent_is_still_asked_to_answer_in_the_users_language():
    model = ScriptedModel(["Hallo"])
    await Turns().run(request(), lambda e: None, model=model)
    assert model.calls[0]["messages"][0]["content"].endswith("Answer in the language the user writes in.")


def test_temperature_and_max_output_tokens_reach_the_request_body():
    settings = {"base_url": "http://x/v1", "model": "m", "temperature": 0.3, "max_output_tokens": 512}
    body = build_agent(request(settings=settings), print).model._request_body([], None)
    assert body["temperature"] == 0.3 and body["max_tokens"] == 512
    plain = build_agent(request(settings={"base_url": "http://x/v1", "model": "m", "temperature": "", "max_output_tokens": None}), print)
    assert "temperature" not in plain.model._request_body([], None) and "max_tokens" not in plain.model._request_body([], None)


def test_the_request_timeout_and_retries_are_the_users_settings_within_their_bounds():
    """They were read from keys nothing sent, so a slow local model could never be given longer."""
    model = build_agent(request(settings={"base_url": "http://x/v1", "request_timeout": 600, "max_retries": 0}), print).model
    assert (model.timeout, model.max_retries) == (600, 0)
    unset = build_agent(request(settings={"base_url": "http://x/v1"}), print).model
    assert (unset.timeout, unset.max_retries) == (REMOTE_TIMEOUT, SETTINGS["max_retries"])
    wild = build_agent(request(settings={"base_url": "http://x/v1", "request_timeout": 0, "max_retries": 1000}), print).model
    assert (wild.timeout, wild.max_retries) == (LIMITS["request_timeout"][0], LIMITS["max_retries"][1])


@pytest.mark.parametrize(("provider", "base_url", "local"), [
    ("llamacpp", "http://localhost:8080/v1", True),
    ("ollama", "http://localhost:11434/v1", True),
    ("lmstudio", "http://localhost:1234/v1", True),
    ("custom", "http://127.0.0.1:8081/v1", True),
    ("custom", "http://localhost:5000/v1", True),
    ("", "http://[::1]:8080/v1", True),
    ("openai", "https://api.openai.com/v1", False),
    ("groq", "https://api.groq.com/openai/v1", False),
    ("custom", "https://models.example.org/v1", False),
    ("custom", "https://127.0.0.1.example.org/v1", False),
    ("custom", "http://127.0.0.1:1234\\@evil.example/v1", False),  # the browser goes to evil.example
])
def test_a_model_on_this_machine_is_waited_for_longer_unless_the_user_said(provider, base_url, local):
    """Issue 48: a 1.5B model's first request on two busy cores takes minutes; 120 s cut it off."""
    settings = {"provider": provider, "base_url": base_url, "model": "m"}
    model = build_agent(request(settings=settings), print).model
    assert model.timeout == (LOCAL_TIMEOUT if local else REMOTE_TIMEOUT) and LOCAL_TIMEOUT > REMOTE_TIMEOUT
    for chosen in (60, 2000):  # the user's own setting wins, shorter or longer, local or not
        assert build_agent(request(settings={**settings, "request_timeout": chosen}), print).model.timeout == chosen
    through_the_wire = settings_from_wire({**settings, "request_timeout": None})  # what the panel sends when unset
    assert build_agent(request(settings=through_the_wire), print).model.timeout == model.timeout


async def test_the_timeout_message_says_what_to_change():
    from tabagent.errors import ModelTimeoutError
    from tabagent.host import RequestTimeout

    class Silent:
        async def request(self, *args, **kwargs):
            raise RequestTimeout()

        def now(self):
            return 0.0

        async def sleep(self, seconds):
            pass

    model = build_agent(request(settings={"provider": "llamacpp", "base_url": "http://localhost:8080/v1", "model": "m",
                                          "max_retries": 0}), print).model
    model.host = Silent()
    with pytest.raises(ModelTimeoutError) as raised:
        await model.generate([{"role": "user", "content": "hi"}])
    assert f"within {LOCAL_TIMEOUT} s" in str(raised.value) and "request_timeout" in str(raised.value)
    assert "Wait this long for the model's answer" in str(raised.value)


def test_the_user_may_give_300_steps_and_a_team_member_no_more():
    """Issue 51: a memory game takes more than 100 clicks. The bound holds for the team too: a
    member's max_steps in imported settings is the user's setting's bound, not whatever it says."""
    team = [{"name": "helper", "description": "Helps.", "agent": "tool_calling", "max_steps": 10_000},
            {"name": "quick", "description": "Quick.", "agent": "tool_calling", "max_steps": "lots"}]
    settings = {"base_url": "http://x/v1", "agent": "tool_calling", "max_steps": 300, "team": team}
    agent = build_agent(request(settings=settings), lambda event: None, model=ScriptedModel([]))
    members = {name: agent.tools[name].agent.max_steps for name in ("helper", "quick")}
    assert (agent.max_steps, members) == (300, {"helper": 300, "quick": SETTINGS["max_steps"]})
    assert build_agent(request(settings={**settings, "max_steps": 301}), lambda event: None,
                       model=ScriptedModel([])).max_steps == LIMITS["max_steps"][1] == 300


async def test_the_first_turn_asks_whether_the_model_sees_and_its_window_at_once():
    """The first turn of a cold start asks the endpoint whether the model sees and how long its
    window is: at once, not one look-up after the other (each a round trip, through the
    browser's fetch in the extension). Every look-up here takes 0.3 s; one that waited for the
    other would never overlap it."""
    import threading
    import time

    from tests.helpers.model_server import ModelServer, Reply, _Handler

    in_flight, most = [0], [0]
    lock = threading.Lock()

    class SlowLookups(_Handler):
        def do_GET(self):
            with lock:
                in_flight[0] += 1
                most[0] = max(most[0], in_flight[0])
            time.sleep(0.3)
            try:
                super().do_GET()
            finally:
                with lock:
                    in_flight[0] -= 1

    with ModelServer() as server:
        server._server.RequestHandlerClass = SlowLookups
        server.script(Reply(text="Hi there"))
        settings = {"base_url": server.base_url, "model": "scripted-model", "agent": "tool_calling"}
        events = []
        result = await Turns().run(request(conversation_id="cold", settings=settings), events.append)
        paths = [lookup["path"] for lookup in server.lookups]
    assert result["status"] == "ok", events
    assert paths.count("/v1/models") == 2 and "/props" in paths  # whether it sees; its window
    assert most[0] >= 2, f"the look-ups ran one after the other: {paths}"
