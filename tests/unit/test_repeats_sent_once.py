"""A run of replies each the same as the one before it is sent to the model once (memory.py): the
first of them, what it got, how many times it was sent, and what the last one got. The memory keeps
every step (the panel, an export and a restored conversation see them all).

The replies are Qwen2.5-Coder-0.5B's as the CodeAgent on the real-model bench
(bench/results/real-models-rows.jsonl, the rows at 0964a2e, agent tabagent-code): kettle-price wrote
the same block 7 times word for word (its first reply differs in its first sentence and a comment),
newsletter 8 times; each was told the block was repeated, and each request held all the copies, sent
at temperature 1.0 with penalties (repeated_reply.py): the model copied its own reply from the context.
"""

import pytest

from tabagent import CodeAgent
from tabagent.memory import ActionStep, Memory, TaskStep
from tabagent.testing import ScriptedModel
from tests.helpers.logged_read_page import logged_read_page
from tests.helpers.recorded_0964a2e import KETTLE, KETTLE_AGAIN, KETTLE_FIRST, NEWSLETTER, SUBSCRIBE, find_in_page

pytestmark = pytest.mark.timeout(30)


def sent_copies(messages, reply) -> int:
    return sum(1 for m in messages if m["role"] == "assistant" and m["content"] == reply)


async def test_a_block_written_again_word_for_word_is_sent_once_with_how_often_and_the_last_note():
    """kettle-price at 0964a2e. Before: the last request held KETTLE_AGAIN 7 times."""
    model = ScriptedModel([KETTLE_FIRST, *[KETTLE_AGAIN] * 7, "```python\nfinal_answer('£24.50')\n```"])
    log = []
    agent = CodeAgent(model, [logged_read_page("Blue enamel kettle £24.50", log), find_in_page])
    assert await agent.run(KETTLE) == "£24.50"
    last = model.calls[-1]["messages"]
    assert sent_copies(last, KETTLE_FIRST) == 1 and sent_copies(last, KETTLE_AGAIN) == 1
    said = last[-1]["content"]
    assert last[-1]["role"] == "user" and said.startswith("Observation:\nNote: read_page(...) was called with the same")
    assert said.index("This code failed as your code in step 1") < said.index("in a row")  # the first's
    assert "You have sent this same reply 7 times in a row" in said
    assert said.endswith("- find_in_page(query, context_chars = 80, case_sensitive = False) -> str\n"
                         "What a tool returns is plain data (text, a number, a list): no tool is in it.")
    assert "You have written this same code 8 times" in said  # the last one's note, at the end
    assert [m["role"] for m in last[1:]] == ["user", "assistant", "user", "assistant", "user"]
    steps = [s for s in agent.memory.steps if isinstance(s, ActionStep)]
    assert [s.model_output for s in steps[:8]] == [KETTLE_FIRST, *[KETTLE_AGAIN] * 7]  # the memory keeps each


async def test_a_read_written_eight_times_is_sent_once_with_what_it_printed():
    """newsletter at 0964a2e: the same two lines 8 times, each after the first not run again."""
    model = ScriptedModel([*[NEWSLETTER] * 8, "I'm sorry, but I cannot assist with that request."])
    log = []
    await CodeAgent(model, [logged_read_page("Newsletter. Email: [      ] [Subscribe]", log)]).run(SUBSCRIBE)
    for n in range(1, 9):
        assert sent_copies(model.calls[n]["messages"], NEWSLETTER) == 1, n
    said = model.calls[8]["messages"][-1]["content"]
    assert said.index("Newsletter. Email:") < said.index("You have sent this same reply 8 times in a row")
    assert said.index("in a row") < said.index("You have written this same code 8 times")


def test_replies_that_differ_or_are_calls_made_natively_are_sent_as_they_came():
    memory = Memory([TaskStep("q"),
                     ActionStep(1, model_output="a", observations=[{"content": "one", "is_error": False}]),
                     ActionStep(2, model_output="b", observations=[{"content": "two", "is_error": False}]),
                     ActionStep(3, model_output="a", observations=[{"content": "three", "is_error": False}])])
    assert [m["content"] for m in memory.to_messages("s")[2:]] == [
        "a", "Observation:\none", "b", "Observation:\ntwo", "a", "Observation:\nthree"]
    native = [ActionStep(n, tool_calls=[{"id": f"c{n}", "name": "read_page", "arguments": "{}"}],
                         observations=[{"id": f"c{n}", "content": "page", "is_error": False}]) for n in (1, 2)]
    messages = Memory([TaskStep("q"), *native]).to_messages("s")
    assert [m["role"] for m in messages[1:]] == ["user", "assistant", "tool", "assistant", "tool"]
    spaced = Memory([TaskStep("q"),
                     ActionStep(1, model_output="x = 1\nprint(x)", observations=[{"content": "1", "is_error": False}]),
                     ActionStep(2, model_output="x=1\n  print(x) ", observations=[{"content": "1", "is_error": False}])])
    assert [m["content"] for m in spaced.to_messages("s")[2:]] == [
        "x = 1\nprint(x)", "Observation:\n1\n\nYou have sent this same reply 2 times in a row. What the last one got:\n1"]
