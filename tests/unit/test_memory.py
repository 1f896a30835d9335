"""Memory: steps that round-trip through JSON, and conversations that continue."""

import json

from tabagent import CodeAgent, Memory, ToolCallingAgent
from tabagent.testing import ScriptedModel
from tabagent.memory import ActionStep, TaskStep, cut
from tests.helpers.sample_tools import add


def scripted_run():
    return ScriptedModel([
        {"content": "Adding.", "tool_calls": [{"name": "add", "arguments": {"a": 1, "b": 2}, "id": "c1"}],
         "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}},
        {"tool_calls": [{"name": "final_answer", "arguments": {"answer": "3"}, "id": "c2"}],
         "usage": {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}},
    ])


async def test_memory_round_trips_through_json():
    agent = ToolCallingAgent(scripted_run(), [add])
    await agent.run("1+2?")
    saved = agent.memory.to_json()
    restored = Memory.from_json(saved)
    assert restored.to_json() == saved
    assert restored.to_messages("sys") == agent.memory.to_messages("sys")
    assert [s.type for s in restored.steps] == ["task", "action", "action", "final_answer"]
    step = restored.steps[1]
    assert (step.model_output, step.tool_calls, step.observations) == (
        "Adding.", [{"id": "c1", "name": "add", "arguments": '{"a": 1, "b": 2}'}],
        [{"id": "c1", "name": "add", "content": "3", "is_error": False}])
    usages = [getattr(s, "usage", None) for s in restored.steps]
    assert usages == [getattr(s, "usage", None) for s in agent.memory.steps] and any(usages)  # kept
    assert json.loads(saved)["version"] == 1


async def test_agent_from_saved_memory_continues_the_conversation(recorder):
    first = ToolCallingAgent(scripted_run(), [add])
    await first.run("1+2?")
    saved = first.memory.to_json()

    model = ScriptedModel(["It was 3, and doubled it is 6."])
    second = ToolCallingAgent(model, [add], memory=Memory.from_json(saved), listeners=[recorder])
    await second.run("Double it.", reset=False)
    messages = model.calls[0]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "assistant", "tool", "user"]
    assert messages[1]["content"] == "1+2?" and messages[-1]["content"] == "Double it."
    # The event sequence continues where the saved conversation stopped.
    assert recorder.events[0].seq == json.loads(saved)["seq"] + 1


async def test_reset_true_starts_over():
    model = ScriptedModel(["one", "two"])
    agent = ToolCallingAgent(model, [])
    await agent.run("first")
    await agent.run("second")
    assert [m["content"] for m in model.calls[1]["messages"][1:]] == ["second"]


async def test_code_agent_memory_replays_code_and_output():
    model = ScriptedModel(["```python\nprint(2 + 2)\n```", "```python\nfinal_answer(4)\n```", "Still 4."])
    agent = CodeAgent(model, [])
    await agent.run("2+2")
    await agent.run("again?", reset=False)
    assert [m["content"] for m in model.calls[2]["messages"][1:]] == [
        "2+2", "```python\nprint(2 + 2)\n```", "Observation:\nOutput:\n4\n",
        "```python\nfinal_answer(4)\n```", "Observation:\nOutput:\n(nothing printed)\nFinal answer: 4",
        "again?"]
    restored = Memory.from_json(agent.memory.to_json())
    assert restored.steps[1].code == "print(2 + 2)"


def test_answers_that_are_not_json_are_stored_as_text():
    memory = Memory([TaskStep("t")])
    from tabagent.memory import FinalAnswerStep
    memory.append(FinalAnswerStep({1, 2}))
    assert json.loads(memory.to_json())["steps"][1]["answer"] in ("{1, 2}", "{2, 1}")


def test_step_without_reply_text_or_calls_sends_only_the_observation():
    step = ActionStep(1, error="Your reply was empty.")
    assert step.to_messages() == [{"role": "user", "content": "Observation:\nYour reply was empty."}]


def test_cut_says_how_much_and_how_to_get_more():
    assert cut("abcdef", 10, "more") == "abcdef"
    assert cut("abcdefghij" * 100, 10, "Ask for page 2.") == \
        "abcdefghij\n[... cut 990 of 1,000 characters. Ask for page 2.]"
