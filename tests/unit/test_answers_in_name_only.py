"""Answers in name only, as Qwen2.5-Coder-0.5B gave them after issue 48's first fixes (the
real-model bench, rows labelled f4ff431 in bench/results/real-models-rows.jsonl, 2026-12-06,
llama-cpp-python's server, Q4_K_M, temperature 0), each answered at the mechanism in both agents:

- said back (said_back.py): the whole page read_page returned, TabAgent's marking and all, sent back
  as a final_answer written as text (kettle-price); TabAgent's own error sent back as the answer
  (newsletter). Told once; a second time the turn ends, saying why.
- a long plan of calls and no call (reply_checks.plans_calls): "I'll follow these steps: 1. **Read
  the page** ..." (flour-kg at 9dad3e1), taken as the answer because it was over 500 characters.
- reading again and again (call_log.py): read_page(page=1, max_tokens=200) seven times (flour-kg).
"""

import json

import pytest

from tabagent import CodeAgent, ToolCallingAgent
from tabagent.testing import ScriptedModel
from tabagent.tools import tool
from tests.helpers.garden_page import MARKED, URL, answer, page_sent_back, read
from tests.helpers.logged_read_page import logged_click, logged_read_page
from tests.helpers.scripted_turns import calls, told

pytestmark = pytest.mark.timeout(30)

ASKED = f"How much does the compost cost? (The page is {URL}.)"


def read_page_tool(log):
    return logged_read_page(MARKED, log)


# What the CodeAgent does with the same habit: the raw tool result passed to final_answer.
CODE_PAGE_SENT_BACK = "```python\npage = read_page()\nfinal_answer(page)\n```"


def page_sent_back_by(agent_class):
    return CODE_PAGE_SENT_BACK if agent_class is CodeAgent else page_sent_back()


# --- A. The page, or our own words, sent back ------------------------------------------------

@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_the_page_read_sent_back_as_the_answer_is_not_the_answer(agent_class):
    model = ScriptedModel([read(agent_class), page_sent_back_by(agent_class), answer(agent_class, "£9.45")])
    agent = agent_class(model, [read_page_tool([])])
    assert await agent.run(ASKED) == "£9.45"
    assert "is the text read_page returned" in told(model, 2) and "in your own words" in told(model, 2)


async def test_the_page_sent_back_as_a_final_answer_call_is_not_the_answer():
    sent = calls(("final_answer", {"answer": MARKED}))
    model = ScriptedModel([read(ToolCallingAgent), sent, answer(ToolCallingAgent, "£9.45")])
    assert await ToolCallingAgent(model, [read_page_tool([])]).run(ASKED) == "£9.45"
    assert "is the text read_page returned" in told(model, 2)


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_final_answer_written_flat_is_read_with_its_answer(agent_class):
    """The same reply, not cut: its answer sits beside the name, not under "arguments"."""
    flat = json.dumps({"name": "final_answer", "answer": "The compost costs £9.45."}, ensure_ascii=False)
    model = ScriptedModel([read(agent_class), flat])
    assert await agent_class(model, [read_page_tool([])]).run(ASKED) == "The compost costs £9.45."


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_the_page_sent_back_twice_ends_the_turn_without_taking_it(agent_class):
    sent = page_sent_back_by(agent_class)
    model = ScriptedModel([read(agent_class), sent, sent, answer(agent_class, "never asked")])
    agent = agent_class(model, [read_page_tool([])], max_steps=8)
    result = await agent.run(ASKED)
    assert result.startswith("I stopped without an answer: twice my reply gave back the text read_page returned")
    assert "What I did: read_page" in result and "£9.45" not in result
    assert agent.status == "max_steps" and len(model.calls) == 3  # no step more, no best answer asked


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_out_of_steps_the_page_sent_back_is_not_the_best_answer(agent_class):
    """kettle-price, f4ff431: the page sent back was the reply to "give your best answer". Told
    once, as in a step; sent back again, it is not taken, and the user is told why."""
    model = ScriptedModel([read(agent_class), read(agent_class), page_sent_back(), page_sent_back()])
    result = await agent_class(model, [read_page_tool([])], max_steps=2).run(ASKED)
    assert "is the text read_page returned" in told(model, 3)
    assert result.startswith("I ran out of steps (2) before I could answer: my last reply gave back the text "
                             "read_page returned instead of answering.") and "page_content" not in result


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
@pytest.mark.parametrize("quote", [
    "£9.45",
    "Compost | 40 l | £9.45",
    "The page says: Garden tools and compost since 1979. Visit us at 3 Mill Lane, Ashby.",
    "Our compost comes in a bag that weighs 22 pounds, which is about 9.98 kg.",
])
async def test_an_answer_that_quotes_a_line_of_the_page_is_taken(agent_class, quote):
    model = ScriptedModel([read(agent_class), answer(agent_class, quote)])
    assert await agent_class(model, [read_page_tool([])]).run(ASKED) == quote
    assert len(model.calls) == 2


# newsletter, f4ff431, the ToolCallingAgent: a tool that does not exist, then a call named "error"
# carrying our error, then our error as the answer (the row's "calls", word for word, with the
# tools this file's agent lists in place of the extension's).
LISTED = "read_page, note, final_answer"
NO_SUCH_TOOL = f"there is no tool named 'error'. Available tools: {LISTED}"
NEWSLETTER = [
    calls(("subscribe", {"email": "ada@example.org"})),
    calls(("error", {"message": f"there is no tool named 'subscribe'. Available tools: {LISTED}"})),
    calls(("final_answer", {"answer": NO_SUCH_TOOL})),
]


async def test_our_error_sent_back_as_the_answer_is_not_the_answer():
    model = ScriptedModel([*NEWSLETTER, read(ToolCallingAgent), answer(ToolCallingAgent, "Subscribed.")])
    assert await ToolCallingAgent(model, [read_page_tool([])]).run("Subscribe me with ada@example.org.") == "Subscribed."
    assert f"Error: {NO_SUCH_TOOL}." in told(model, 2)  # what the model was sent, and said back
    # told what to call instead, not "do what it said" (an error says what went wrong, not what to do)
    assert "repeats the error that calling error returned" in told(model, 3)
    assert "Call one of your tools instead: read_page." in told(model, 3) and "Do what it said" not in told(model, 3)


async def test_our_error_sent_back_twice_ends_the_turn():
    model = ScriptedModel([*NEWSLETTER, calls(("final_answer", {"answer": NO_SUCH_TOOL})), "never asked"])
    agent = ToolCallingAgent(model, [read_page_tool([])])
    result = await agent.run("Subscribe me with ada@example.org.")
    assert result.startswith("I stopped without an answer: twice my reply gave back an error TabAgent had sent me")
    assert NO_SUCH_TOOL not in result and len(model.calls) == 4


# --- B. A plan of calls, at any length, and no call ------------------------------------------

# flour-kg, 9dad3e1, the ToolCallingAgent's reply taken as the answer: the row keeps its first 300
# characters (up to "The user spe"); the rest, to the 512-token limit it reached, is written here
# in its manner, past the 500 characters under which the promise check looked.
PLAN = (
    "To determine the weight of the flour sack, I'll follow these steps:\n\n1. **Read the page**: The "
    "user is asked to read the page (main content) as Markdown.\n2. **Identify the part**: The page is "
    "divided into three parts: title, address, author, language and length.\n3. **Find the locator**: The "
    "user specifies the locator of the part that holds the weight of the flour sack, so that it can be "
    "found again.\n4. **Convert the weight**: Once the weight is known in pounds, it is multiplied by "
    "0.4536 to give kilograms.\n5. **Give the answer**: The weight in kilograms is rounded to two places "
    "and given to the user as the final answer.")
FLOUR = "How much does the flour sack weigh in kilograms?"


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_long_plan_of_calls_is_not_the_answer(agent_class):
    assert len(PLAN) > 500
    model = ScriptedModel([PLAN, read(agent_class), answer(agent_class, "About 9.98 kg.")])
    assert await agent_class(model, [read_page_tool([])]).run(FLOUR) == "About 9.98 kg."
    assert "You wrote a plan of tool calls" in told(model, 1)


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_model_that_only_plans_never_answers_with_its_plan(agent_class):
    model = ScriptedModel([PLAN] * 4)  # the last: the reply to "give your best answer"
    result = await agent_class(model, [read_page_tool([])], max_steps=3).run(FLOUR)
    assert result.startswith("I ran out of steps (3)") and "follow these steps" not in result
    assert all("You wrote a plan of tool calls" in told(model, n) for n in (1, 2))  # each time, before any call


# Long answers that say "I'll", or set out steps that are no tool's, as a model answers after reading.
LONG_ANSWERS = [
    "The compost comes in a 40 litre bag that weighs 22 pounds. A pound is 0.4536 kilograms, so the bag "
    "weighs 22 × 0.4536 = 9.98 kilograms, or just under 10 kg. The page gives the weight only in pounds, "
    "so the figure in kilograms is my conversion, rounded to two places. If you need it for shipping, "
    "note that the bag's packaging may add a little. I'll leave the rounding to you if you need a whole "
    "number: 10 kg is close enough for most purposes, and 9.98 kg is the exact figure from the page's "
    "22 pounds. The bark mulch on the same page comes in 50 litre bags, but its weight is not given.",
    "Here's how I'll convert it:\n\n1. Take the weight the page gives: 22 pounds.\n2. Multiply by "
    "0.4536, the kilograms in a pound: 22 × 0.4536 = 9.9792.\n3. Round to two places: 9.98.\n\nSo the "
    "compost bag weighs about 9.98 kg. The page gives the weight only in pounds; the kilograms are my "
    "conversion, and the bag's packaging may add a little to what a scale shows at the till.",
    "Here's what I'd do:\n\n1. Get 500 g of strong flour and 7 g of yeast.\n2. Read the recipe's rising "
    "times twice before you start.\n3. Knead for ten minutes, then let it rise for an hour.",
]


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
@pytest.mark.parametrize("long_answer", LONG_ANSWERS)
async def test_a_long_answer_that_says_i_ll_is_the_answer(agent_class, long_answer):
    assert len(LONG_ANSWERS[0]) > 500  # past where the promise check looked
    model = ScriptedModel([read(agent_class), long_answer])
    assert await agent_class(model, [read_page_tool([])]).run(FLOUR) == long_answer
    assert len(model.calls) == 2


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_steps_that_are_no_tool_s_are_the_answer_before_any_call(agent_class):
    """Advice set out as steps, to a question that needs no page: "Get ..." is no get_selection,
    "Read the recipe's ..." no read_page."""
    model = ScriptedModel([LONG_ANSWERS[2]])
    tools = [read_page_tool([]), get_selection]
    assert await agent_class(model, tools).run("How do I bake bread?") == LONG_ANSWERS[2]


@tool
def get_selection() -> str:
    """Gets the text the user selected."""
    return ""


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_after_a_call_a_plan_is_told_once_then_taken(agent_class):
    """After a call ran, the steps may recount work done: reminded once, like a promise."""
    model = ScriptedModel([read(agent_class), PLAN, PLAN])
    assert await agent_class(model, [read_page_tool([])]).run(FLOUR) == PLAN
    assert "You wrote a plan of tool calls" in told(model, 2)


# --- C. The same read, again and again --------------------------------------------------------

# flour-kg, f4ff431, the ToolCallingAgent: these arguments seven times in a row, then out of steps
# (the row's "calls"). The shop page fits one part at 200 tokens: each read gave the whole page.
READ_SMALL = {"page": 1, "max_tokens": 200}


def read_small(agent_class):
    return calls(("read_page", READ_SMALL)) if agent_class is ToolCallingAgent \
        else "```python\nprint(read_page(page=1, max_tokens=200))\n```"


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_read_that_gave_the_same_text_twice_is_not_run_again(agent_class):
    log = []
    model = ScriptedModel([read_small(agent_class)] * 6 + [answer(agent_class, "About 9.98 kg.")])
    assert await agent_class(model, [read_page_tool(log)]).run(FLOUR) == "About 9.98 kg."
    if agent_class is ToolCallingAgent:
        assert log == [(1, 200)] * 2  # run, told, run again (the same text): then never again
        for n, times in ((4, 4), (5, 5), (6, 6)):  # each time, and each time in other words
            assert f"You have called read_page with these same arguments {times} times" in told(model, n)
            assert f"The user asked: {FLOUR}" in told(model, n) and "page_content" not in told(model, n)
    else:  # run, then run with the call told (the same printed twice): the block is settled (code_repeats.py)
        assert log == [(1, 200)]
        assert all("was not run again" in told(model, n) for n in (3, 4, 5, 6))


async def test_after_an_action_a_settled_read_runs_again():
    log, clicks = [], []
    click = logged_click(clicks)
    again = read_small(ToolCallingAgent)
    model = ScriptedModel([again, again, again, calls(("click", {"locator": "#more"})), again,
                           answer(ToolCallingAgent, "ok")])
    await ToolCallingAgent(model, [read_page_tool(log), click]).run(FLOUR)
    assert len(log) == 3 and clicks == ["#more"]  # the page may show something else after the click


async def test_the_same_text_from_other_arguments_is_no_settled_call():
    """Another part size giving the same page is told once as the same text (call_log.py), and runs."""
    log = []
    model = ScriptedModel([read_small(ToolCallingAgent), calls(("read_page", {"page": 1, "max_tokens": 4000})),
                           calls(("read_page", {"page": 1, "max_tokens": 8000})), answer(ToolCallingAgent, "ok")])
    await ToolCallingAgent(model, [read_page_tool(log)]).run(FLOUR)
    assert len(log) == 3
