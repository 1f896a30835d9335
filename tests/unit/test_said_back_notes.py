"""Every note TabAgent writes to the model is ours (said_back.py, our_notes.py): registered where it
is written, so an answer that says one back is no answer, whichever note and whichever agent. The
failing-call guard's notes and the "settled" notes (call_log.py) went to the ToolCallingAgent as a
call's result and were not counted: an answer made of them was taken. Only a note's fixed words
count, never what fills its fields (the user's question, which an answer may say again)."""

import pytest

from tabagent import ToolCallingAgent
from tabagent.app.no_such_part import CONTROL_PARTS
from tabagent.app.page_actions import DENIED
from tabagent.app.page_tools import SMALL_PARTS
from tabagent.call_log import INSTEAD, SETTLED
from tabagent.compaction import SUMMARY_HEADER
from tabagent.our_notes import fixed_words, registered
from tabagent.said_back import SAID_BACK_OURS, said_back
from tabagent.testing import ScriptedModel
from tabagent.tools import tool

pytestmark = pytest.mark.timeout(30)

QUESTION = "How much does the flour sack weigh in kilograms?"


def calls(name, arguments):
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def answer(text):
    return calls("final_answer", {"answer": text})


def told(model, n):
    return str(model.calls[n]["messages"][-1]["content"])


@tool
def lookup(word: str) -> str:
    """Looks a word up.

    Args:
        word: the word
    """
    if word == "sack":
        raise ValueError("no entry for sack")
    return "flour: 5 pounds"


async def test_the_failing_call_guard_s_note_said_back_is_not_the_answer():
    said = "Do what the error says, or call lookup with other arguments, or call another tool, or give your final answer."
    model = ScriptedModel([calls("lookup", {"word": "sack"})] * 3 + [answer(said), answer("Not found.")])
    assert await ToolCallingAgent(model, [lookup]).run(QUESTION) == "Not found."
    assert said in told(model, 3)  # the guard's note, as the model read it
    assert SAID_BACK_OURS in told(model, 4)


async def test_the_settled_note_said_back_is_not_the_answer():
    said = "Answer from what it returned, call another tool, or give your final answer."
    model = ScriptedModel([calls("lookup", {"word": "flour"})] * 4 + [answer(said), answer("2.27 kg")])
    assert await ToolCallingAgent(model, [lookup]).run(QUESTION) == "2.27 kg"  # run, told, run, settled
    assert said in told(model, 4)
    assert SAID_BACK_OURS in told(model, 5)


def test_a_note_counts_though_this_turn_never_sent_it():
    for note in (SETTLED, INSTEAD):
        text = " ".join(fixed_words(note))
        assert said_back(text, [], []) == ("ours", "")
    assert SETTLED in registered() and SAID_BACK_OURS in registered()
    assert {DENIED, CONTROL_PARTS, SMALL_PARTS, SUMMARY_HEADER} <= set(registered())  # the app's, the compactor's


def test_what_fills_a_note_s_fields_is_not_ours():
    filled = SETTLED.format(name="lookup", times=3, step=1, question=f" The user asked: {QUESTION}")
    assert said_back(f"{QUESTION} It weighs 2.27 kg.", [], []) is None
    assert said_back(filled, [], []) == ("ours", "")
