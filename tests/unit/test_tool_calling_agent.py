"""The loop with a ToolCallingAgent and a scripted model."""

import asyncio
import json

import pytest

from tabagent import ModelReply, ToolCall, ToolCallingAgent, tool
from tabagent.testing import ScriptedModel
from tabagent.errors import AuthError
from tabagent.events import Event
from tests.helpers.sample_tools import add, waits_forever

pytestmark = pytest.mark.timeout(10)


def tool_call(name, arguments, id=None):
    return {"name": name, "arguments": arguments, "id": id}


def final(answer):
    return {"tool_calls": [tool_call("final_answer", {"answer": answer})]}


async def test_think_act_observe_then_final_answer(recorder):
    model = ScriptedModel([
        {"content": "Let me add.", "tool_calls": [tool_call("add", {"a": 2, "b": 3}, "c1")],
         "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}},
        final("5"),
    ])
    agent = ToolCallingAgent(model, [add], listeners=[recorder], conversation_id="conv-1")
    assert await agent.run("What is 2 + 3?") == "5"
    assert recorder.kinds() == ["step_start", "token", "tool_call", "tool_result",
                                "step_start", "tool_call", "tool_result", "final_answer", "done"]
    assert [e.seq for e in recorder.events] == list(range(1, 10))
    assert {(e.conversation_id, e.agent, e.depth) for e in recorder.events} == {("conv-1", "agent", 0)}
    assert [e.step for e in recorder.events] == [1, 1, 1, 1, 2, 2, 2, 2, 2]
    called, tool_result = recorder.of("tool_call")[0], recorder.of("tool_result")[0]
    assert called.data == {"id": "c1", "name": "add", "arguments": {"a": 2, "b": 3}}
    assert tool_result.data == {"id": "c1", "name": "add", "result": "5", "is_error": False}
    assert recorder.of("done")[0].data == {"status": "ok", "steps": 2, "usage": {
        "prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
    # The second model call saw the tool call and its result, as OpenAI expects them.
    messages = model.calls[1]["messages"]
    # The tools go once, in `tools`: the system prompt does not list them again.
    assert messages[0]["role"] == "system" and "Add two integers" not in messages[0]["content"]
    assert [t["function"]["description"] for t in model.calls[1]["tools"] if t["function"]["name"] == "add"] == [
        "Add two integers."]
    assert messages[1:] == [
        {"role": "user", "content": "What is 2 + 3?"},
        {"role": "assistant", "content": "Let me add.", "tool_calls": [{"id": "c1", "type": "function",
         "function": {"name": "add", "arguments": '{"a": 2, "b": 3}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "5"}]
    assert [t["function"]["name"] for t in model.calls[0]["tools"]] == ["add", "note", "final_answer"]


async def test_events_serialise_to_json_and_back(recorder):
    agent = ToolCallingAgent(ScriptedModel([{"tool_calls": [tool_call("add", {"a": 1, "b": 1})]}, final(2)]),
                             [add], listeners=[recorder])
    await agent.run("1+1")
    for event in recorder.events:
        assert Event.from_json(event.to_json()) == event
        assert json.loads(event.to_json())["kind"] == event.kind


async def test_reply_without_action_is_the_answer(recorder):
    agent = ToolCallingAgent(ScriptedModel(["Paris is the capital."]), [add], listeners=[recorder])
    assert await agent.run("Capital of France?") == "Paris is the capital."
    assert recorder.of("final_answer")[0].data == {"answer": "Paris is the capital."}


async def test_parallel_calls_run_concurrently_and_results_keep_their_order(recorder):
    started, release = [], asyncio.Event()

    @tool
    async def slow(name: str, wait: bool) -> str:
        """Wait, maybe.

        Args:
            name: A label.
            wait: Whether to wait for the other call.
        """
        started.append(name)
        if wait:
            await asyncio.wait_for(release.wait(), 2)  # needs the other call running at the same time
        else:
            release.set()
        return name.upper()

    model = ScriptedModel([{"tool_calls": [tool_call("slow", {"name": "first", "wait": True}, "a"),
                                           tool_call("slow", {"name": "second", "wait": False}, "b")]},
                           final("done")])
    agent = ToolCallingAgent(model, [slow], listeners=[recorder])
    assert await agent.run("go") == "done"
    assert started == ["first", "second"]
    tool_messages = [m for m in model.calls[1]["messages"] if m["role"] == "tool"]
    assert tool_messages == [{"role": "tool", "tool_call_id": "a", "content": "FIRST"},
                             {"role": "tool", "tool_call_id": "b", "content": "SECOND"}]


@pytest.mark.parametrize("bad_call, expected", [
    (tool_call("add", '{"a": 2, "b": }'), "the arguments are not valid JSON (Expecting value: line 1 column 15"),
    (tool_call("add", {"a": 2}), "missing required argument 'b'"),
    (tool_call("add", {"a": "two", "b": 3}), "argument 'a' should be integer, got string \"two\""),
    (tool_call("subtract", {"a": 1}), "there is no tool named 'subtract'. Available tools: add, note, final_answer"),
])
async def test_bad_calls_become_observations_and_the_run_continues(recorder, bad_call, expected):
    model = ScriptedModel([{"tool_calls": [bad_call]}, {"tool_calls": [tool_call("add", {"a": 2, "b": 3})]},
                           final("5")])
    agent = ToolCallingAgent(model, [add], listeners=[recorder])
    assert await agent.run("2+3") == "5"
    first_result = recorder.of("tool_result")[0].data
    assert first_result["is_error"] and expected in first_result["result"]
    tool_message = [m for m in model.calls[1]["messages"] if m["role"] == "tool"][0]
    assert expected in tool_message["content"]  # the model is told what was wrong


async def test_failing_tool_is_an_observation(recorder):
    @tool
    def broken() -> str:
        """Always fails."""
        raise RuntimeError("disk on fire")

    agent = ToolCallingAgent(ScriptedModel([{"tool_calls": [tool_call("broken", {})]}, final("gave up")]),
                             [broken], listeners=[recorder])
    assert await agent.run("try") == "gave up"
    assert recorder.of("tool_result")[0].data["result"] == "Error: broken failed: RuntimeError: disk on fire"


async def test_tool_call_written_as_json_text_is_recovered(recorder):
    model = ScriptedModel([
        'I will add them.\n{"name": "add", "arguments": {"a": 4, "b": 5}}',
        '<tool_call>{"name": "final_answer", "arguments": {"answer": "9"}}</tool_call>',
    ])
    agent = ToolCallingAgent(model, [add], listeners=[recorder])
    assert await agent.run("4+5") == "9"
    assert recorder.of("tool_result")[0].data["result"] == "9"
    # Recovered calls are replayed as text plus an observation, not as native tool calls.
    assert model.calls[1]["messages"][-2:] == [
        {"role": "assistant", "content": 'I will add them.\n{"name": "add", "arguments": {"a": 4, "b": 5}}'},
        {"role": "user", "content": "Observation:\nadd returned:\n9"}]


async def test_a_call_in_a_code_block_after_prose_is_told_not_run(recorder):
    """Issue 46: a code block quotes; a call the model wrote in one, after its prose, does not run
    (a page's sample call, quoted so, ran). The model is told where the call must stand."""
    model = ScriptedModel([
        'I will add them.\n```json\n{"name": "add", "arguments": {"a": 4, "b": 5}}\n```',
        '{"name": "add", "arguments": {"a": 4, "b": 5}}',
        '<tool_call>{"name": "final_answer", "arguments": {"answer": "9"}}</tool_call>',
    ])
    assert await ToolCallingAgent(model, [add], listeners=[recorder]).run("4+5") == "9"
    assert [e.data["name"] for e in recorder.of("tool_result")] == ["add", "final_answer"]
    assert "inside quoted text" in model.calls[1]["messages"][-1]["content"]


async def test_max_steps_asks_once_for_a_best_answer(recorder):
    replies = [{"tool_calls": [tool_call("add", {"a": i, "b": 1})]} for i in range(3)]
    model = ScriptedModel(replies + ["Best guess: 3 (I ran out of steps)."])
    agent = ToolCallingAgent(model, [add], max_steps=3, listeners=[recorder])
    assert await agent.run("count") == "Best guess: 3 (I ran out of steps)."
    assert len(model.calls) == 4
    assert "You have used all your steps" in model.calls[3]["messages"][-1]["content"]
    notice = recorder.of("error")[0].data
    assert notice["kind"] == "max_steps" and "ran out of steps (3)" in notice["message"]
    assert recorder.of("done")[0].data["status"] == "max_steps" and agent.status == "max_steps"


async def test_best_answer_given_through_final_answer_call():
    model = ScriptedModel([{"tool_calls": [tool_call("add", {"a": 1, "b": 1})]}, final("2")])
    agent = ToolCallingAgent(model, [add], max_steps=1)
    assert await agent.run("1+1") == "2"


@pytest.mark.parametrize("agent_class", ["ToolCallingAgent", "CodeAgent"])
async def test_best_answer_given_through_a_final_answer_call_written_as_text(agent_class):
    from tabagent import CodeAgent
    model = ScriptedModel([{"tool_calls": [tool_call("add", {"a": 1, "b": 1})]} if agent_class == "ToolCallingAgent"
                           else "```python\nprint(add(1, 1))\n```",
                           '<tool_call>\n{"name": "final_answer", "arguments": {"answer": "2"}}\n</tool_call>'])
    agent = (ToolCallingAgent if agent_class == "ToolCallingAgent" else CodeAgent)(model, [add], max_steps=1)
    assert await agent.run("1+1") == "2"


async def test_empty_reply_is_answered_with_a_nudge():
    model = ScriptedModel(["", "Done."])
    agent = ToolCallingAgent(model, [add])
    assert await agent.run("hi") == "Done."
    assert model.calls[1]["messages"][-1] == {
        "role": "user", "content": "Observation:\nYour reply was empty. Continue the task: call a "
                                   "tool, or give the final answer."}


async def test_model_error_ends_the_run_with_error_events(recorder):
    error = AuthError("401 from https://example.test/v1/chat/completions: check the API key.", status=401)
    agent = ToolCallingAgent(ScriptedModel([error]), [add], listeners=[recorder])
    with pytest.raises(AuthError):
        await agent.run("hi")
    assert recorder.kinds() == ["step_start", "error", "done"]
    assert recorder.of("error")[0].data == {"message": str(error), "kind": "auth"}
    assert recorder.of("done")[0].data["status"] == "error"


async def test_retry_notice_is_an_error_event_with_a_countdown(recorder):
    class FlakyModel(ScriptedModel):
        async def generate(self, messages, tools=None, on_token=None, on_retry=None, on_reasoning=None):
            from tabagent.errors import RateLimitError
            await on_retry(RateLimitError("429 from x: rate limited. Server said: slow down", status=429), 1, 2.5)
            return await super().generate(messages, tools, on_token, on_retry, on_reasoning)

    agent = ToolCallingAgent(FlakyModel(["ok"]), [], listeners=[recorder])
    await agent.run("hi")
    notice = recorder.of("error")[0].data
    assert notice["kind"] == "retrying" and notice["retry_in"] == 2.5 and notice["cause"] == "rate_limited"
    assert notice["status"] == 429 and notice["attempt"] == 1
    assert notice["message"] == "429 from x: rate limited. Server said: slow down. Attempt 2 of 2 in 2.5 s."
    # The same as data, so that the panel says it in its own words without parsing the sentence.
    assert notice["reason"] == "429 from x: rate limited. Server said: slow down."
    assert (notice["attempt"], notice["max_attempts"], notice["retry_in"]) == (1, 2, 2.5)


async def test_cancel_stops_the_run_and_returns_none(recorder):
    wait_forever, entered = waits_forever()
    agent = ToolCallingAgent(ScriptedModel([{"tool_calls": [tool_call("wait_forever", {})]}]),
                             [wait_forever], listeners=[recorder])
    task = asyncio.create_task(agent.run("wait"))
    await entered.wait()
    agent.cancel()
    assert await task is None
    assert recorder.kinds()[-1] == "done" and recorder.of("done")[0].data["status"] == "cancelled"
    assert agent.status == "cancelled"


async def test_async_listeners_are_awaited_and_failing_ones_do_not_stop_the_run(caplog):
    heard = []

    async def async_listener(event):
        await asyncio.sleep(0)
        heard.append(event.kind)

    def broken_listener(event):
        raise ValueError("display broke")

    agent = ToolCallingAgent(ScriptedModel(["fine"]), [], listeners=[broken_listener, async_listener])
    assert await agent.run("hi") == "fine"
    assert heard == ["step_start", "token", "final_answer", "done"]
    assert "event listener" in caplog.text


async def test_long_observations_are_cut_with_a_note():
    @tool
    def read() -> str:
        """Read a long page."""
        return "x" * 5000

    model = ScriptedModel([{"tool_calls": [tool_call("read", {})]}, "ok"])
    agent = ToolCallingAgent(model, [read], max_observation_chars=1000)
    await agent.run("read")
    observation = model.calls[1]["messages"][-1]["content"]
    assert observation.startswith("x" * 1000 + "\n[... cut 4,000 of 5,000 characters.")
    assert "call the tool again for a smaller part" in observation


async def test_plain_functions_are_accepted_as_tools():
    def shout(text: str) -> str:
        """Upper-case text.

        Args:
            text: The text.
        """
        return text.upper()

    model = ScriptedModel([{"tool_calls": [tool_call("shout", {"text": "hi"})]}, final("HI")])
    assert await ToolCallingAgent(model, [shout]).run("shout") == "HI"


async def test_native_tool_calls_take_precedence_over_text():
    reply = ModelReply(content='{"name": "add", "arguments": {"a": 0, "b": 0}}',
                       tool_calls=[ToolCall("n1", "final_answer", '{"answer": "native"}')])
    assert await ToolCallingAgent(ScriptedModel([reply]), [add]).run("x") == "native"


async def test_final_answer_next_to_other_calls_waits_for_their_results(recorder):
    """Issue 48: Qwen2.5-Coder 1.5B answered "10.23 kg" in the same reply as the fetch the answer
    needed, and the run ended there. The other calls run; the answer is refused in words, and the
    model answers again having seen their results."""
    model = ScriptedModel([{"tool_calls": [tool_call("final_answer", {"answer": "3"}, "y"), tool_call("add", {"a": 1, "b": 1}, "x")]},
                           {"tool_calls": [tool_call("final_answer", {"answer": "2"}, "z")]}])
    assert await ToolCallingAgent(model, [add], listeners=[recorder]).run("1+1") == "2"
    assert [(e.data["name"], e.data["is_error"]) for e in recorder.of("tool_result")] == \
        [("add", False), ("final_answer", True), ("final_answer", False)]
    told = {m["tool_call_id"]: m["content"] for m in model.calls[1]["messages"] if m["role"] == "tool"}
    assert told["x"] == "2" and "not taken" in told["y"] and "add" in told["y"]


async def test_final_answer_next_to_notes_only_is_taken():
    model = ScriptedModel([{"tool_calls": [tool_call("note", {"text": "Sum asked."}, "x"), tool_call("final_answer", {"answer": "2"}, "y")]}])
    assert await ToolCallingAgent(model, [add]).run("1+1") == "2"
    assert len(model.calls) == 1


async def test_an_action_waits_for_the_calls_before_it_and_the_calls_after_wait_for_it(recorder):
    """Five clicks and a read in one reply: each click runs on what the one before left, and the
    read sees the last click (issue 51: a read beside a click ran before it)."""
    page, log = {"clicks": 0}, []

    @tool
    async def click(locator: str) -> str:
        """Click.

        Args:
            locator: What.
        """
        log.append(f"start {locator}")
        await asyncio.sleep(0.01)  # run at the same time, a later call would start here
        page["clicks"] += 1
        log.append(f"end {locator}")
        return f"clicked {locator}"
    click.acts = True

    @tool
    async def read_page() -> str:
        """Read."""
        return f"{page['clicks']} clicks"

    clicks = [tool_call("click", {"locator": f"#b{i}"}, f"c{i}") for i in range(5)]
    model = ScriptedModel([{"tool_calls": [*clicks, tool_call("read_page", {}, "r")]}, final("done")])
    assert await ToolCallingAgent(model, [click, read_page], listeners=[recorder]).run("go") == "done"
    assert log == [f"{edge} #b{i}" for i in range(5) for edge in ("start", "end")]
    tool_messages = [m["content"] for m in model.calls[1]["messages"] if m["role"] == "tool"]
    assert tool_messages == [*(f"clicked #b{i}" for i in range(5)), "5 clicks"]
