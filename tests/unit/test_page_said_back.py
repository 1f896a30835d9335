"""Page text given back with TabAgent's marking is never the answer (issue 48; said_back.py).

Qwen2.5-Coder-0.5B, pushed to answer, answered with read_page's result as TabAgent marked it: our
note, then `<page_content source=... untrusted="true">`, then the page. said_back.py refused that
when the answer was mostly one of this turn's tool results; the marking reached the user when the
marked text was not such a result: a tab the user attached, or a page read in an earlier turn of
the conversation, or the marking pasted into an answer of the model's own words. A page cannot
write our tag (untrusted() takes it out), so the tag in an answer can only be our marking given
back: page text passed off as TabAgent's. Each path that takes an answer is covered, in both
agents: final_answer (a call, or in the code), a reply with no action, the out-of-steps answer.
A page that forges the marking: test_red_team_quoted_calls.py.
"""

import pytest

from tabagent import CodeAgent, ToolCallingAgent
from tabagent.said_back import SAID_BACK_PAGE, said_back
from tabagent.testing import ScriptedModel
from tests.helpers.logged_read_page import logged_read_page
from tests.helpers.scripted_turns import told
from tests.helpers.garden_page import MARKED, URL, answer, page_sent_back, read

pytestmark = pytest.mark.timeout(30)

AGENTS = [ToolCallingAgent, CodeAgent]
ATTACHED = f"Tab 3, which the user attached:\n{MARKED}"  # as app/attachments.py puts it in the message
QUESTION = "How much does the compost cost?"


def attached(question=QUESTION, tab=ATTACHED):
    return f"{question}\n\n{tab}"


@pytest.mark.parametrize("agent_class", AGENTS)
async def test_an_attached_tab_given_back_by_final_answer_is_not_the_answer(agent_class):
    model = ScriptedModel([answer(agent_class, MARKED), answer(agent_class, "£9.45")])
    assert await agent_class(model, [logged_read_page(MARKED, [])]).run(attached()) == "£9.45"
    assert SAID_BACK_PAGE in told(model, 1)


@pytest.mark.parametrize("agent_class", AGENTS)
async def test_an_attached_tab_given_back_as_plain_text_is_not_the_answer(agent_class):
    model = ScriptedModel([MARKED, "The compost costs £9.45."])
    assert await agent_class(model, [logged_read_page(MARKED, [])]).run(attached()) == "The compost costs £9.45."
    assert SAID_BACK_PAGE in told(model, 1)


@pytest.mark.parametrize("agent_class", AGENTS)
async def test_a_page_read_in_an_earlier_turn_given_back_is_not_the_answer(agent_class):
    model = ScriptedModel([read(agent_class), answer(agent_class, "£9.45"),
                           answer(agent_class, MARKED), answer(agent_class, "40 l")])
    agent = agent_class(model, [logged_read_page(MARKED, [])])
    assert await agent.run(f"{QUESTION} (The page is {URL}.)") == "£9.45"
    assert await agent.run("And how big is the bag?", reset=False) == "40 l"
    assert SAID_BACK_PAGE in told(model, 3)


@pytest.mark.parametrize("agent_class", AGENTS)
async def test_the_marking_inside_an_answer_of_its_own_words_is_not_the_answer(agent_class):
    """Mostly the model's words, but carrying our marking: still page text passed off as ours."""
    own = ("The compost costs £9.45 for a forty litre bag, and the shop also sells bark mulch in fifty "
           "litre bags for £7.80; the page lists both under this week's offers, and says the shop has "
           "sold garden tools and compost since 1979 from its site on Mill Lane in Ashby. ")
    given = own * 3 + MARKED[:260]
    assert said_back(given, [], [("read_page", MARKED)]) == ("page", "")
    model = ScriptedModel([read(agent_class), answer(agent_class, given), answer(agent_class, "£9.45")])
    assert await agent_class(model, [logged_read_page(MARKED, [])]).run(f"{QUESTION} (The page is {URL}.)") == "£9.45"
    assert SAID_BACK_PAGE in told(model, 2)


@pytest.mark.parametrize("agent_class", AGENTS)
async def test_given_back_twice_the_turn_ends_saying_why(agent_class):
    model = ScriptedModel([answer(agent_class, MARKED)] * 2 + [answer(agent_class, "never asked")])
    agent = agent_class(model, [logged_read_page(MARKED, [])], max_steps=8)
    result = await agent.run(attached())
    assert result.startswith("I stopped without an answer: twice my reply gave back page text")
    assert "page_content" not in result and "£9.45" not in result
    assert agent.status == "max_steps" and len(model.calls) == 2


@pytest.mark.parametrize("agent_class", AGENTS)
async def test_out_of_steps_an_attached_tab_given_back_is_told_once(agent_class):
    model = ScriptedModel([read(agent_class), page_sent_back(), answer(agent_class, "£9.45")])
    result = await agent_class(model, [logged_read_page("Nothing here.", [])], max_steps=1).run(attached())
    assert result == "£9.45" and SAID_BACK_PAGE in told(model, 2)


@pytest.mark.parametrize("agent_class", AGENTS)
async def test_out_of_steps_given_back_twice_is_not_the_best_answer_and_says_why(agent_class):
    model = ScriptedModel([read(agent_class), page_sent_back(), answer(agent_class, MARKED)])
    result = await agent_class(model, [logged_read_page("Nothing here.", [])], max_steps=1).run(attached())
    assert result.startswith("I ran out of steps (1) before I could answer: my last reply gave back page text as "
                             "TabAgent had marked it instead of answering. What I did: read_page.")
    assert "page_content" not in result and "£9.45" not in result and len(model.calls) == 3


@pytest.mark.parametrize("agent_class", AGENTS)
@pytest.mark.parametrize("quote", [
    "£9.45",
    "Compost | 40 l | £9.45",
    "The page says: Garden tools and compost since 1979. Visit us at 3 Mill Lane, Ashby.",
    "| Item | Size | Price |\n|---|---|---|\n| Compost | 40 l | £9.45 |",
])
async def test_an_answer_quoting_an_attached_tab_is_taken(agent_class, quote):
    model = ScriptedModel([answer(agent_class, quote)])
    assert await agent_class(model, [logged_read_page(MARKED, [])]).run(attached()) == quote
    assert len(model.calls) == 1
