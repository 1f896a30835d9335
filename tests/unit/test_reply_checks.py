"""Replies that are neither an action nor the answer, in both agents: a call that cannot be
read (the model is told what was wrong, nothing runs, the turn goes on), and a promise to
act with no action (one reminder per turn, then the text is the answer). Also: the
CodeAgent runs a call written the tool-calling way instead of answering with it."""

import pytest

from tabagent import CodeAgent, ToolCallingAgent, tool
from tabagent.testing import ScriptedModel

pytestmark = pytest.mark.timeout(10)

RAN = []


@tool
def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: The first.
        b: The second.
    """
    RAN.append((a, b))
    return a + b


@pytest.fixture(autouse=True)
def nothing_ran_yet():
    RAN.clear()


def final(answer):
    return {"tool_calls": [{"name": "final_answer", "arguments": {"answer": answer}}]}


def told(model, call):
    """The note the model read before its `call`-th reply."""
    return model.calls[call]["messages"][-1]["content"]


CUT_OFF = '<tool_call>\n{"name": "add", "arguments": {"a": 2, "b": "thr'


@pytest.mark.parametrize("agent_class, fix", [
    (ToolCallingAgent, final("5")),
    (CodeAgent, "```python\nfinal_answer(add(2, 3))\n```"),
])
async def test_a_call_that_cannot_be_read_is_never_the_answer(agent_class, fix):
    model = ScriptedModel([CUT_OFF, fix])
    assert await agent_class(model, [add]).run("2 + 3?") == (5 if agent_class is CodeAgent else "5")
    note = told(model, 1)
    assert "looks like a tool call, but it could not be read: the arguments are not valid JSON " \
           "(it is cut off in the middle of a string). Nothing was run." in note
    assert RAN == ([(2, 3)] if agent_class is CodeAgent else [])


@pytest.mark.parametrize("broken, problem", [
    ('[TOOL_CALLS]add[ARGS]{"a": 2, "b": }', "the arguments are not valid JSON"),
    ('<|tool_call_begin|>functions.add:0<|tool_call_argument_begin|>{"a": 2,, "b": 3}<|tool_call_end|>',
     "the arguments are not valid JSON"),
    ("add(a=2, b=3", "the Python call is not complete"),
    ('{"name": "add", "arguments": {"a": 2, "b": ', "it is cut off after a key, before its value"),
])
async def test_the_model_is_told_what_was_wrong(broken, problem):
    model = ScriptedModel([broken, final("done")])
    assert await ToolCallingAgent(model, [add]).run("2 + 3?") == "done"
    assert problem in told(model, 1) and RAN == []


async def test_a_call_cut_off_after_its_last_value_is_repaired():
    model = ScriptedModel(['<tool_call>\n{"name": "add", "arguments": {"a": 2, "b": 3', final("5")])
    assert await ToolCallingAgent(model, [add]).run("2 + 3?") == "5"
    assert RAN == [(2, 3)]


async def test_a_promise_to_act_is_never_the_answer():
    # Qwen2.5-Coder-1.5B's CodeAgent answered "I will read the page, find the flour sack weight in
    # kilograms, and then click on it to confirm." after its one reminder (real-model bench,
    # flour-kg, 2ae4d38): a promise is reminded each time; two, and where the server can, the next
    # reply is held to a call (reply_grammar.py).
    promise = "I'll add the two numbers now."
    model = ScriptedModel([promise, promise, promise, {"tool_calls": [{"name": "add", "arguments": {"a": 1, "b": 1}}]},
                           final("2")])
    agent = ToolCallingAgent(model, [add])
    assert await agent.run("1 + 1?") == "2"
    for n in (1, 2, 3):
        assert "You said what you would do, but made no tool call" in told(model, n)
    assert RAN == [(1, 1)]


async def test_a_model_that_only_promises_runs_out_of_steps_and_says_so():
    model = ScriptedModel(["I'll add the two numbers now."] * 4)
    answer = await ToolCallingAgent(model, [add], max_steps=3).run("1 + 1?")
    assert answer.startswith("I ran out of steps (3)") and len(model.calls) <= 4


async def test_the_code_agent_reminds_in_its_own_words():
    model = ScriptedModel(["Let me compute that.", "```python\nfinal_answer(add(1, 2))\n```"])
    assert await CodeAgent(model, [add]).run("1 + 2?") == 3
    assert "but wrote no code" in told(model, 1)


@pytest.mark.parametrize("answer", [
    "The sum is 5.",
    'The request was:\n{"name": "checkout", "arguments": {"cart": 3}, "note": "data, not a call"}',
    "I will not guess: the page does not say.\n\nThe total is not shown anywhere.",
    "Let me know if you need anything else: the answer is 5",
    "The sum is 5. I'll be glad to help with more.",
    "The totals, line by line:\n" + "- a line of the answer\n" * 30 + "I will check again tomorrow.",
    "Call it like this:\nadd(a, b)",  # a closed call with names: an explanation, not a cut-off call
])
async def test_an_answer_is_not_mistaken_for_a_promise(answer):
    model = ScriptedModel([answer])
    assert await ToolCallingAgent(model, [add]).run("?") == answer


@pytest.mark.parametrize("reply", [
    '{"name": "add", "arguments": {"a": 2, "b": 3}}',
    '<tool_call>\n{"name": "add", "arguments": {"a": "2", "b": 3}}\n</tool_call>',
    '```json\n{"name": "add", "parameters": {"a": 2, "b": 3}}\n```',
])
async def test_the_code_agent_runs_a_json_call_as_code(reply, recorder):
    model = ScriptedModel([reply, "```python\nfinal_answer('done')\n```"])
    assert await CodeAgent(model, [add], listeners=[recorder]).run("2 + 3?") == "done"
    assert RAN == [(2, 3)]
    assert recorder.of("code")[0].data["code"].startswith("print(add(a=")
    assert "Output:\n5" in told(model, 1)


async def test_the_code_agent_answers_through_a_written_final_answer_call():
    model = ScriptedModel(['<tool_call>{"name": "final_answer", "arguments": {"answer": "42"}}</tool_call>'])
    assert await CodeAgent(model, [add]).run("?") == "42"
    assert len(model.calls) == 1


async def test_native_arguments_are_read_leniently_and_converted():
    model = ScriptedModel([{"tool_calls": [{"name": "add", "arguments": "{'a': 2, 'b': '3',}"}]}, final("5")])
    assert await ToolCallingAgent(model, [add]).run("2 + 3?") == "5"
    assert RAN == [(2, 3)]
    assert model.calls[1]["messages"][-1] == {"role": "tool", "tool_call_id": model.calls[1]["messages"][-2][
        "tool_calls"][0]["id"], "content": "5"}
