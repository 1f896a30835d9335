"""The same question for the user, asked again after they answered: told back, not asked
(asked_again.py).

Qwen2.5-Coder-0.5B as the ToolCallingAgent on the real-model bench (sign-out, rows 0964a2e,
bench/results/real-models-rows.jsonl, "agent": "tabagent-tool") read the page three times, listed
ask_user with more_tools, and then wrote the same call in four replies in a row (SIGN_OUT_ASK below,
the row's own text): the user was asked "What is your name?" four times. ask_user is an act, which
the repeat rules leave alone, so each went to the user."""

import pytest

from tabagent import CodeAgent, ToolCallingAgent
from tabagent.app.hand_back import NOT_ANSWERED, UserAnswer
from tabagent.asked_again import ASKED_BEFORE
from tabagent.our_notes import fixed_words
from tabagent.testing import ScriptedModel
from tabagent.tools import tool
from tests.helpers.scripted_turns import calls, told

pytestmark = pytest.mark.timeout(30)

SIGN_OUT = "Sign me out of the shop. (The page is http://127.0.0.1:46045/account.html.)"
# sign-out at 0964a2e, replies 4 to 7: each the same, word for word.
SIGN_OUT_ASK = '{"name": "ask_user", "arguments": {"question": "What is your name?", "login": false}}'
TOLD_BACK = fixed_words(ASKED_BEFORE)[0]  # "You asked the user this same question in step "


def final(answer):
    return calls(("final_answer", {"answer": answer}))


def ask_user_tool(asked, answers=None):
    """ask_user as app/hand_back.py gives it: the text the model reads, carrying the user's own
    answer; `answers`, one per asking (None: the turn ended first)."""
    answers = list(answers or ["Ada"])

    @tool
    def ask_user(question: str, login: bool = False) -> str:
        """Asks the user and waits as long as they take.

        Args:
            question: what to ask.
            login: they do it in the tab, then press Continue.
        """
        asked.append(question)
        answer = answers.pop(0) if answers else "Ada"
        return UserAnswer(NOT_ANSWERED, None) if answer is None else UserAnswer(f"The user answered: {answer}", answer)

    ask_user.acts = ask_user.built_in = True  # as app/turns.py makes it
    return ask_user


@tool
def read_page(page: int = 1, max_tokens: int | None = None) -> str:
    """Reads the page.

    Args:
        page: which part, from 1.
        max_tokens: tokens per part.
    """
    return "Your account. Signed in as Ada. [ta-4 button Sign out]"


def names_held(schema: dict) -> set[str]:
    return {option["properties"]["name"]["const"] for option in schema.get("anyOf", [schema])}


async def test_the_same_question_four_times_reaches_the_user_once_in_the_tool_calling_agent():
    asked = []
    model = ScriptedModel([SIGN_OUT_ASK] * 4 + [final("Signed out.")], constraint="json_object")
    await ToolCallingAgent(model, [read_page, ask_user_tool(asked)], max_steps=8).run(SIGN_OUT)
    assert asked == ["What is your name?"]
    for n in (2, 3, 4):  # each asking after the first: told back, with what the user said
        assert TOLD_BACK in told(model, n) and "The user answered: Ada" in told(model, n), told(model, n)
    held = [call.get("reply_schema") for call in model.calls]
    assert held[:3] == [None] * 3  # told back once: the model may still choose
    for n in (3, 4):  # asked yet again after being told: the next reply is held from ask_user
        assert held[n] is not None and "ask_user" not in names_held(held[n]), n
        assert {"read_page", "final_answer"} <= names_held(held[n])


async def test_the_same_question_again_reaches_the_user_once_in_the_code_agent():
    asked = []
    ask = "```python\nname = ask_user(question='What is your name?')\nprint(name)\n```"
    model = ScriptedModel([ask, ask, "```python\nfinal_answer('Signed out.')\n```"])
    assert await CodeAgent(model, [read_page, ask_user_tool(asked)]).run(SIGN_OUT) == "Signed out."
    assert asked == ["What is your name?"]
    assert TOLD_BACK in told(model, 2) and "The user answered: Ada" in told(model, 2), told(model, 2)


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_question_the_user_left_unanswered_is_asked_again(agent_class):
    """An empty answer, or none (the turn ended first), answers nothing: asked again, the user
    may answer now."""
    asked = []
    replies = ([calls(("ask_user", {"question": "What is your name?"}))] * 3 if agent_class is ToolCallingAgent
               else ["```python\nprint(ask_user(question='What is your name?'))\n```"] * 3)
    model = ScriptedModel([*replies, final("Done.") if agent_class is ToolCallingAgent
                           else "```python\nfinal_answer('Done.')\n```"])
    await agent_class(model, [read_page, ask_user_tool(asked, ["", None, "Ada"])]).run(SIGN_OUT)
    assert asked == ["What is your name?"] * 3


@pytest.mark.parametrize("agent_class", [ToolCallingAgent, CodeAgent])
async def test_a_different_question_and_a_second_login_still_reach_the_user(agent_class):
    asked = []
    questions = [{"question": "What is your name?"}, {"question": "Which account: work or home?"},
                 {"question": "Please log in, then press Continue.", "login": True},
                 {"question": "Please log in, then press Continue.", "login": True}]
    replies = ([calls(("ask_user", q)) for q in questions] if agent_class is ToolCallingAgent
               else [f"```python\nprint(ask_user(**{q!r}))\n```" for q in questions])
    model = ScriptedModel([*replies, final("Done.") if agent_class is ToolCallingAgent
                           else "```python\nfinal_answer('Done.')\n```"])
    await agent_class(model, [read_page, ask_user_tool(asked)]).run(SIGN_OUT)
    assert asked == [q["question"] for q in questions]


async def test_the_same_question_spelled_otherwise_is_the_same_question():
    """Known as the repeat rules know a call: `login: false` written or left out is the same."""
    asked = []
    model = ScriptedModel([calls(("ask_user", {"question": "What is your name?"})), SIGN_OUT_ASK, final("Done.")])
    await ToolCallingAgent(model, [read_page, ask_user_tool(asked)]).run(SIGN_OUT)
    assert asked == ["What is your name?"]
    assert TOLD_BACK in told(model, 2)
