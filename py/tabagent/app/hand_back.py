"""Hand-back: the agent hands the turn back to the user and waits for them.

`ask_user` is the only way a `hand_back` event is made (a page can write text that looks like
one, but that text reaches the panel only as a tool's result, never as a request): the turn
pauses, with no timeout ending it, until the user answers in the panel, which they can close
and open again meanwhile (the request is in the turn's record; the agent waits in the offscreen
document). What the user types is their own words, sent to the model unmarked; "Continue" after
a login says only that they are done. Credentials are never the agent's to type: type_text
refuses a password field (extension/content/actions.js), and a login is handed back instead.
"""

from __future__ import annotations

import uuid

from ..our_notes import our_note

# The bridge's answer when the turn ended (stopped) before the user answered.
UNANSWERED = None

ANSWERED = "The user answered: {answer}"
CONTINUED = our_note("The user says they have done it in the tab and pressed Continue{said}. Look at the page "
                     "again before going on: it may have changed.")
NOT_ANSWERED = our_note("The user did not answer: the turn ended first.")


class UserAnswer(str):
    """What ask_user returns: the text the model reads, carrying the user's own `answer` (their
    words, "" when they said nothing, None when the turn ended first): a question they answered in
    words is not asked again this turn (asked_again.py)."""

    answer: str | None

    def __new__(cls, text: str, answer: str | None) -> UserAnswer:
        made = super().__new__(cls, text)
        made.answer = answer
        return made


class HandBack:
    """The `ask_user` tool. `consent` is the asking agent's consent.AskTheUser, whose `emit` puts
    the request in the turn's events; `bridge.ask(id, question)` waits for the user's answer
    (the question goes along for a run nobody watches, which stops and says what it asks)."""

    def __init__(self, bridge, consent):
        self.bridge, self.consent = bridge, consent

    async def ask_user(self, question: str, login: bool = False) -> str:
        """Asks the user and waits as long as they take. login=True: they do it in the tab
        (log in, a CAPTCHA), then press Continue; never type passwords yourself."""
        kind = "login" if login else "question"
        request = {"id": uuid.uuid4().hex, "kind": kind, "question": str(question)}
        await self.consent.emit("hand_back", request)
        answer = await self.bridge.ask(request["id"], request["question"])
        if answer is UNANSWERED:
            return UserAnswer(NOT_ANSWERED, None)
        await self.consent.emit("hand_back", {**request, "answer": answer})
        if kind == "login":
            return UserAnswer(CONTINUED.format(said=f", saying: {answer}" if answer.strip() else ""), answer)
        return UserAnswer(ANSWERED.format(answer=answer), answer)
