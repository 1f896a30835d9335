"""What Qwen2.5-Coder-0.5B's ToolCallingAgent did in flour-kg at 4528ad4 (the real-model bench,
bench/results/real-models-rows.jsonl, 2026-12-07, llama-cpp-python's server, Q4_K_M, temperature
0), answered at the mechanism:

- list_controls(page=3, within="div#controls") eight times, each failing with the same error
  (the row's "calls", word for word): a call that failed the same way twice is not run again
  until something acts, and the model is told each time, in other words, with the error
  (call_log.py);
- then, asked for its best answer, "The weight of the flour sack is 10 kilograms.": a number
  nothing it read held, nor could give (its calls had returned errors only). Told once which
  numbers it read nowhere; the next answer is taken (unfounded.py). An answer worked out from a
  number read (2.2 lb is 1 kg), a date from the system text and a number of the question pass.
"""

import re

import pytest

from tabagent import CodeAgent, ToolCallingAgent
from tabagent.app.no_such_part import controls_part_refused
from tabagent.testing import ScriptedModel
from tabagent.tools import tool
from tabagent.unfounded import unfounded
from tests.helpers.rich_answer import RICH_ANSWER
from tests.helpers.logged_read_page import logged_click, logged_read_page
from tests.helpers.scripted_turns import calls, told

pytestmark = pytest.mark.timeout(30)

URL = "http://127.0.0.1:44911/shop.html"
FLOUR = f"How much does the flour sack weigh in kilograms? (The page is {URL}.)"
ROW_CALL = {"page": 3, "within": "div#controls"}  # flour-kg, 4528ad4: eight times
ROW_ANSWER = "The weight of the flour sack is 10 kilograms."  # its best answer, out of steps


def list_controls_tool(log):
    @tool
    def list_controls(page: int = 1, within: str = "") -> str:
        """Lists the page's controls.

        Args:
            page: which part
            within: a part of the page
        """
        log.append((page, within))
        if page > 1:  # the shop page's controls come in one part
            # the relay's reply to content/controls.js's refusal, its numbers in no_such_part
            raise controls_part_refused({"ok": False, "error": f"There is no page {page} of controls: there is 1.",
                                         "from_page": True, "no_such_part": {"asked": page, "parts": 1}}, within)
        return "[ta-1] button Subscribe"
    return list_controls


def controls(agent_class, arguments=ROW_CALL):
    if agent_class is ToolCallingAgent:
        return calls(("list_controls", arguments))
    written = ", ".join(f"{k}={v!r}" for k, v in arguments.items())
    return f"```python\nprint(list_controls({written}))\n```"


def answer(agent_class, text):
    if agent_class is ToolCallingAgent:
        return calls(("final_answer", {"answer": text}))
    return f"```python\nfinal_answer({text!r})\n```"


# --- A failing call, again and again ------------------------------------------------------------

async def test_a_call_that_failed_the_same_way_twice_is_not_run_again():
    log = []
    model = ScriptedModel([controls(ToolCallingAgent)] * 8 + [answer(ToolCallingAgent, "I could not read it.")])
    agent = ToolCallingAgent(model, [list_controls_tool(log)], max_steps=10)
    assert await agent.run(FLOUR) == "I could not read it."
    assert log == [(3, "div#controls")] * 2  # run, failed; run, failed the same way: never again
    said = [told(model, n) for n in range(3, 8)]
    assert all("There is no page 3 of controls" in text and "list_controls() with the same within" in text
               for text in said)  # the error, with the call that works, each time
    assert all("Do what the error says" in text and f"The user asked: {FLOUR}" in text for text in said)
    assert len(set(said)) == 5 and len({text[:12] for text in said[:3]}) == 3  # each time in other words
    assert agent.calls.history == ["list_controls", "list_controls", "final_answer"]


async def test_a_call_the_code_makes_that_failed_the_same_way_twice_is_not_run_again():
    """The CodeAgent's tools go through the same rule: blocks that differ (so no block is settled,
    code_repeats.py), each making the same failing call."""
    log = []
    blocks = [f"```python\nprint('try {n}')\nprint(list_controls(page=3, within='div#controls'))\n```" for n in range(5)]
    model = ScriptedModel([*blocks, answer(CodeAgent, "I could not read it.")])
    agent = CodeAgent(model, [list_controls_tool(log)], max_steps=10)
    assert await agent.run(FLOUR) == "I could not read it."
    assert log == [(3, "div#controls")] * 2  # run, failed; run, failed the same way: never again
    said = [told(model, n) for n in range(3, 6)]
    assert all("There is no page 3 of controls" in text and "list_controls() with the same within" in text
               for text in said)  # the error, with the call that works, raised into the code each time
    assert all("Do what the error says" in text and "The user asked" not in text for text in said)
    assert len({text[:60] for text in said}) == 3  # each time in other words


async def test_a_failing_call_runs_again_after_an_act_and_with_other_arguments():
    log, clicks = [], []
    click = logged_click(clicks)
    model = ScriptedModel([controls(ToolCallingAgent)] * 3 + [calls(("click", {"locator": "#go"})),
                           controls(ToolCallingAgent), controls(ToolCallingAgent, {"page": 1}),
                           answer(ToolCallingAgent, "Done.")])
    await ToolCallingAgent(model, [list_controls_tool(log), click], max_steps=10).run(FLOUR)
    assert log == [(3, "div#controls")] * 3 + [(1, "")]  # twice, then after the click, then page 1


async def test_a_call_that_fails_each_time_another_way_keeps_running():
    """Errors that differ (a server's message that changes) are each worth the model's reading."""
    log, said = [], iter(f"busy, retry in {n} s" for n in range(10))

    @tool
    def lookup(word: str) -> str:
        """Looks a word up.

        Args:
            word: the word
        """
        log.append(word)
        raise ValueError(next(said))
    model = ScriptedModel([calls(("lookup", {"word": "kettle"}))] * 3 + [answer(ToolCallingAgent, "No luck.")])
    await ToolCallingAgent(model, [lookup]).run("Look up kettle.")
    assert log == ["kettle"] * 3


# --- An answer whose numbers nothing read holds --------------------------------------------------

@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_number_nothing_read_holds_is_told_once_then_taken(agent_class):
    model = ScriptedModel([controls(agent_class), answer(agent_class, ROW_ANSWER), answer(agent_class, ROW_ANSWER)])
    assert await agent_class(model, [list_controls_tool([])]).run(FLOUR) == ROW_ANSWER
    note = told(model, 2)
    assert "Your answer gives 10, but nothing you read in this turn holds it" in note
    assert "list_controls: an error" in note and "There is no page 3 of controls" in note
    assert len(model.calls) == 3  # the second time, taken


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_reply_in_words_with_a_number_nothing_read_holds_is_told(agent_class):
    model = ScriptedModel([controls(agent_class), ROW_ANSWER, "I could not find the weight on the page."])
    result = await agent_class(model, [list_controls_tool([])]).run(FLOUR)
    assert result == "I could not find the weight on the page."
    assert "Your answer gives 10" in told(model, 2)


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_out_of_steps_the_row_s_best_answer_is_asked_again_with_what_was_read(agent_class):
    """flour-kg as the row has it, in two steps: failing calls, then "10 kilograms" as the best answer."""
    model = ScriptedModel([controls(agent_class)] * 2 + [ROW_ANSWER, "I did not find the weight."])
    result = await agent_class(model, [list_controls_tool([])], max_steps=2).run(FLOUR)
    assert result == "I did not find the weight."
    last = model.calls[3]["messages"]
    assert last[-2] == {"role": "assistant", "content": ROW_ANSWER}
    assert "Your answer gives 10" in last[-1]["content"] and "You cannot call tools now" in last[-1]["content"]


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_out_of_steps_told_once_the_best_answer_given_again_is_taken(agent_class):
    model = ScriptedModel([controls(agent_class)] * 2 + [ROW_ANSWER, ROW_ANSWER])
    assert await agent_class(model, [list_controls_tool([])], max_steps=2).run(FLOUR) == ROW_ANSWER


SACK = "Our stone-ground flour comes in a sack that weighs 2.2 pounds."


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
@pytest.mark.parametrize("worked_out", ["1 kg", "About 1 kilogram.", "0.998 kg"])
async def test_an_answer_worked_out_from_a_number_read_is_taken_at_once(agent_class, worked_out):
    read = calls(("read_page", {})) if agent_class is ToolCallingAgent else "```python\nprint(read_page())\n```"
    model = ScriptedModel([read, answer(agent_class, worked_out)])
    assert await agent_class(model, [logged_read_page(SACK, [])]).run(FLOUR) == worked_out
    assert len(model.calls) == 2


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_the_date_from_the_system_text_is_taken_at_once(agent_class):
    """After a call that failed, the date: it is in every request's system text (clock.py)."""
    def replies(messages):
        if len([m for m in messages if m["role"] == "assistant"]) == 0:
            return controls(agent_class)
        now = re.search(r"Now: \w+ (\d+ \w+ \d{4}), (\d\d:\d\d)", messages[0]["content"])
        return answer(agent_class, f"Today is {now[1]}; it is {now[2]}.")
    model = ScriptedModel(replies)
    result = await agent_class(model, [list_controls_tool([])]).run("What is the date today? Check the page too.")
    assert result.startswith("Today is") and len(model.calls) == 2


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
@pytest.mark.parametrize("question, given", [
    ("Book a table for 4 people; list the page's controls first.", "I could not book the table for 4 people."),
    ("Convert 5 pounds to kilograms; list the page's controls first.", "5 pounds is 2.27 kg."),
])
async def test_a_number_of_the_question_or_worked_out_from_it_is_taken(agent_class, question, given):
    model = ScriptedModel([controls(agent_class), answer(agent_class, given)])
    assert await agent_class(model, [list_controls_tool([])]).run(question) == given
    assert len(model.calls) == 2


POEM = "Roses are red,\nviolets are blue.\n\nSugar is sweet,\nand so are you."


# (RICH_ANSWER holds a fenced block of its own: a CodeAgent would run it, so the ToolCallingAgent's.)
@pytest.mark.parametrize("agent_class, given", [
    (ToolCallingAgent, "The poem has 2 stanzas of 2 lines."), (CodeAgent, "The poem has 2 stanzas of 2 lines."),
    (ToolCallingAgent, RICH_ANSWER)])
async def test_after_a_call_that_returned_text_a_count_or_what_the_model_knows_is_taken(agent_class, given):
    """A count needs no digit in what was read, nor a formula, a table or code the model writes:
    the panel's end-to-end turn (a selection read, then RICH_ANSWER) was held once by the first
    form of this check."""
    read = calls(("read_page", {})) if agent_class is ToolCallingAgent else "```python\nprint(read_page())\n```"
    model = ScriptedModel([read, given if agent_class is ToolCallingAgent else answer(agent_class, given)])
    assert await agent_class(model, [logged_read_page(POEM, [])]).run("What is the form of this poem?") == given
    assert len(model.calls) == 2


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_an_answer_from_what_the_model_knows_with_no_tool_run_is_taken(agent_class):
    model = ScriptedModel(["Mount Everest is 8,849 metres high."])
    assert await agent_class(model, [list_controls_tool([])]).run("How high is Everest?") == \
        "Mount Everest is 8,849 metres high."


def test_numbers_inside_words_and_addresses_are_no_numbers():
    assert unfounded(f"See {URL}, section h2, at ta-1.", [], []) == []
    assert unfounded("It weighs 10 kg, or 22.05 lb.", ["weighs"], []) == ["10", "22.05"]
    assert unfounded("£24.50", ["Blue enamel kettle £24.5"], []) == []  # one value, written two ways
    assert unfounded("1,250 g", ["1250 grams"], []) == []
    assert unfounded("10 kg", [], ["a sack of 5 pounds"]) == []  # an operand: it may be worked out
    assert unfounded("10 kg", [], [f"The page is {URL}."]) == ["10"]  # an address is no operand
