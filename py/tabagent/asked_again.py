"""The same question for the user, asked again after they answered it: told back, not asked.

Qwen2.5-Coder-0.5B as the ToolCallingAgent on the real-model bench (sign-out, rows 0964a2e,
bench/results/real-models-rows.jsonl) asked the user "What is your name?" in four steps in a row,
each time after the user had answered. ask_user is an act, and the repeat rules leave acts alone
(call_log.py: a second click is a second act, the user's to allow), so each went to the user. But
the same question again asks the user nothing they have not answered: it is a loop, and it costs
the user a wait and an answer each time.

- A question is known as the repeat rules know a call (call_log.call_key): its arguments as the
  tool reads them, the defaults filled in (`{"question": q, "login": false}` is `{"question": q}`).
- Asked again in the same turn, after the user answered it in words, it is not asked: the model
  gets, as that call's result, what the user answered then (the CodeAgent's code gets it as the
  call's value, and the model a note). Asked yet again after being told, the ToolCallingAgent's
  next reply is held from ask_user where the endpoint can hold it (call_log.py `pressed`).
- Still asked: a question the user left unanswered (an empty answer, or none: the turn ended
  first), since they may answer now; a login hand-back (login=true), which asks the user to act
  in the tab, where a login may be needed again; and any other question.
"""

from __future__ import annotations

from typing import Any

from .call_log import Earlier, call_key, with_defaults
from .our_notes import our_note

ASK_USER = "ask_user"  # the tool that hands the turn back to the user (app/hand_back.py)
ASKED_BEFORE = our_note(
    "You asked the user this same question in step {step}, and they answered it, so it was not asked again. "
    "What they said then:\n{result}\nUse their answer: do what it says, ask them something else, or give your "
    "final answer.")


def users_answer(text: str, value: Any) -> str | None:
    """The user's own answer, as ask_user's value carries it (app/hand_back.UserAnswer: "" when they
    said nothing, None when the turn ended first); for a tool that does not say, all it returned."""
    answer = getattr(value, "answer", text)
    return answer if isinstance(answer, str) else None


class AskedQuestions:
    """The questions the user answered this turn (module doc)."""

    def __init__(self) -> None:
        self.answered: dict[str, Earlier] = {}  # the question's key: the step, what the model read, the value
        self.answers: list[str] = []  # the user's own answers, in order

    def again(self, name: str, arguments: object, tool: Any) -> Earlier | None:
        """The earlier asking of this same question when the user answered it, counted (`times`:
        how many times it was told back); else None, and the question is asked."""
        if name != ASK_USER or not isinstance(arguments, dict):
            return None
        if with_defaults(tool, arguments).get("login"):
            return None
        earlier = self.answered.get(call_key(name, arguments, tool))
        if earlier is not None:
            earlier.times += 1
        return earlier

    def keep(self, name: str, arguments: object, tool: Any, step: int, text: str, value: Any) -> None:
        """A question that was asked: kept when the user answered it in words."""
        if name != ASK_USER:
            return
        answer = users_answer(text, value)
        if answer is None or not answer.strip():
            return
        self.answers.append(answer)
        self.answered[call_key(name, arguments, tool)] = Earlier(step, str(text), value)


def told_back(earlier: Earlier) -> str:
    """What the model reads of a question not asked again."""
    return ASKED_BEFORE.format(step=earlier.step, result=earlier.text)
