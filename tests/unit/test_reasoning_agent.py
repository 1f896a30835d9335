"""Reasoning and retries through the whole loop: the agents against providers' recorded
replies on a real local server. Reasoning is shown (events) and kept (memory), never
answered, run or sent back as content; a retry withdraws what the failed attempt showed."""

import json

import pytest

from tabagent import CodeAgent, ToolCallingAgent, tool
from tabagent.memory import Memory, TaskStep

from tests.helpers.scripted_model import model_for

pytestmark = pytest.mark.timeout(20)


@tool
def get_weather(city: str) -> str:
    """The weather in a city.

    Args:
        city: The city's name.
    """
    return f"Sunny in {city}"


def bodies(server, model):
    return server.stats(model.url.removesuffix("/chat/completions"))["bodies"]


async def test_deepseek_tool_call_reasoning_goes_back_as_reasoning_content_only(server, recorder):
    model = model_for(server, "recorded_deepseek_tool_call")
    agent = ToolCallingAgent(model, [get_weather], listeners=[recorder])
    answer = await agent.run("Weather in Paris?")
    assert answer == "9.8 is larger."  # the second recording's answer, without its reasoning
    kinds = [k for k in recorder.kinds() if k in ("reasoning", "token", "tool_call")]
    assert kinds[:2] == ["reasoning", "tool_call"]
    assert "".join(e.data["text"] for e in recorder.of("reasoning")).startswith("I need the weather")
    second = bodies(server, model)[1]["messages"]
    assistant = next(m for m in second if m["role"] == "assistant")
    assert assistant["reasoning_content"] == "I need the weather for Paris."
    assert assistant["content"] is None and assistant["tool_calls"][0]["function"]["name"] == "get_weather"
    assert all("I need the weather" not in (m.get("content") or "") for m in second)
    # Kept in the memory, which round-trips; in the next task it is not sent again.
    memory = Memory.from_json(agent.memory.to_json())
    assert memory.steps[1].reasoning == "I need the weather for Paris."
    assert any("reasoning_content" in m for m in memory.to_messages("system"))
    memory.append(TaskStep("And Lyon?"))
    assert all("reasoning_content" not in m for m in memory.to_messages("system"))


async def test_think_block_is_not_the_answer(server, recorder):
    agent = ToolCallingAgent(model_for(server, "recorded_ollama_qwen3"), [], listeners=[recorder])
    assert await agent.run("Say hello") == "Hello! How can I help?"
    assert "greeting" in "".join(e.data["text"] for e in recorder.of("reasoning"))
    assert "think" not in "".join(e.data["text"] for e in recorder.of("token"))
    assert agent.memory.steps[1].model_output == "Hello! How can I help?"


async def test_code_inside_the_thoughts_never_runs(server, recorder):
    agent = CodeAgent(model_for(server, "recorded_deepseek_r1_code"), [], listeners=[recorder])
    assert await agent.run("What is 6 times 7?") == 42
    (code,) = recorder.of("code")
    assert code.data["code"] == "final_answer(6 * 7)"
    assert all("from the thoughts" not in e.data.get("output", "") for e in recorder.of("code_output"))


async def test_truncated_reply_says_so_and_keeps_its_text(server, recorder):
    agent = ToolCallingAgent(model_for(server, "recorded_openrouter_token_limit"), [], listeners=[recorder])
    assert await agent.run("List everything") == "Here is a long list: one, two, three"
    notice = [e.data for e in recorder.of("error")]
    assert [n["kind"] for n in notice] == ["truncated"] and "cut off" in notice[0]["message"]
    assert recorder.of("done")[0].data["status"] == "ok"


async def test_a_retry_says_which_attempt_and_withdraws_the_failed_attempts_text(server, recorder):
    agent = ToolCallingAgent(model_for(server, "drop_once"), [], listeners=[recorder])
    assert await agent.run("hi") == "Hello, wörld"
    (retry,) = [e.data for e in recorder.of("error")]
    assert retry["kind"] == "retrying" and retry["cause"] == "unreachable"
    assert retry["message"].endswith(f"Attempt 2 of 4 in {retry['retry_in']:.1f} s.")
    assert "gave up" not in retry["message"] and "tries" not in retry["message"]
    assert (retry["attempt"], retry["max_attempts"]) == (1, 4)
    streamed_before = [e for e in recorder.events if e.kind == "token" and e.seq < recorder.of("error")[0].seq]
    assert retry["withdraw"] == {"text": len("".join(e.data["text"] for e in streamed_before)), "reasoning": 0}
    assert retry["withdraw"]["text"] == len("Partial answ")


async def test_an_in_stream_400_is_not_retried_and_ends_the_run_in_words(server, recorder):
    agent = ToolCallingAgent(model_for(server, "recorded_groq_tool_use_failed"), [get_weather],
                             listeners=[recorder])
    with pytest.raises(Exception):  # noqa: B017 (which one is not the point: what the user is told is)
        await agent.run("Weather?")
    (error,) = [e.data for e in recorder.of("error")]
    assert error["kind"] == "bad_request" and "tool call the server could not read" in error["message"]
    assert not json.dumps(error["message"]).startswith('"{')
