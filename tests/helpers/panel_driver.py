"""TabAgent's chat panel driven as its user drives it, in either browser: settings saved, a new
conversation, a message sent, the turn waited for, its answer and steps read, a question answered.

One vocabulary over two backends (tests/helpers/panel_backends.py): Selenium for the Chromium
side panel (tests/e2e), WebDriver BiDi for the Firefox chat page (tests/firefox). A backend
knows how to run JavaScript in the panel, wait for a condition there, type and click; what the
panel shows is read here, once, in the panel's own terms."""

from __future__ import annotations

import json

LAST_TURN = "[...document.querySelectorAll('article.turn')].at(-1)"
# The last turn's answer, and each code step's output as [text, shown as an error].
ANSWER = f"{LAST_TURN}.querySelector('.message.assistant').textContent.trim()"
CODE_OUTPUTS = f"[...{LAST_TURN}.querySelectorAll('pre.output')].map((pre) => [pre.textContent, pre.classList.contains('error')])"


def question_box(n: int) -> str:
    """The last turn's n-th question (from 0), as a JavaScript expression."""
    return f"{LAST_TURN}?.querySelectorAll('.confirmation')[{n}]"


def settings_for(base_url: str, *, agent: str, **more) -> dict:
    """The settings of a scripted OpenAI-compatible model at `base_url`."""
    return {"provider": "custom", "base_url": base_url, "model": "scripted-model", "agent": agent, "max_steps": 6, **more}


class PanelDriver:
    def __init__(self, backend):
        self.backend = backend

    def ask_background(self, type_: str, **payload):
        """What the service worker (or Firefox's event page) answers the panel's message."""
        message = json.dumps({"target": "background", "type": type_, **payload})
        reply = self.backend.run(f"chrome.runtime.sendMessage({message})")
        assert reply and reply.get("ok"), reply
        return reply.get("result")

    def configure(self, base_url: str, *, agent: str = "tool_calling", api_key: str = "sk-test", **more) -> None:
        """Saves settings for the scripted model at `base_url`, as the settings page does."""
        self.ask_background("save-settings", settings=settings_for(base_url, agent=agent, **more), apiKey=api_key)

    def new_conversation(self) -> None:
        self.backend.click("#new-chat")

    def send(self, text: str) -> None:
        """Types `text` in the message box and presses Send."""
        self.backend.type_into("#prompt", text)
        self.backend.click("#send")

    def status(self) -> str | None:
        """The last turn's status (running, ok, error, stopped...), or None before any turn."""
        return self.backend.run(f"{LAST_TURN}?.dataset.status ?? null")

    def wait_for_status(self, *statuses: str, timeout: float | None = None) -> str:
        """Waits until the last turn's status is one of `statuses`; returns it."""
        return self.backend.wait_until(
            f"{json.dumps(list(statuses))}.includes({LAST_TURN}?.dataset.status) && {LAST_TURN}.dataset.status",
            timeout, f"the turn never reached {statuses}")

    def answer(self) -> str:
        """The last turn's answer, as the user reads it."""
        return self.backend.run(ANSWER)

    def code_outputs(self) -> list:
        """Each code step's output in the last turn: [text, whether it is shown as an error]."""
        return self.backend.run(CODE_OUTPUTS)

    def question(self, n: int = 0, timeout: float | None = None) -> dict:
        """The last turn's n-th question, once it is asking: {message, details, actor (who asks)}."""
        self.backend.wait_until(f"{question_box(n)}?.dataset.state === 'asking'", timeout, f"question {n} was never asked")
        return self.backend.read_question(question_box(n))

    def answer_question(self, n: int, decision: str) -> None:
        """Presses the n-th question's button for `decision` (once, always, deny...); then its
        buttons are all disabled."""
        self.backend.click(f"{question_box(n)}.querySelector('button[data-decision=\"{decision}\"]')", script=True)
        self.backend.wait_until(f"{question_box(n)}?.dataset.state === {json.dumps(decision)}", 10,
                                f"question {n} never took the answer {decision}")
        assert self.backend.run(f"[...{question_box(n)}.querySelectorAll('button')].every((b) => b.disabled)")
