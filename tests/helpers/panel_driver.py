"""TabAgent's chat panel driven as its user drives it, in either browser: settings saved, a new
conversation on the page the user is on, a message sent, the turn waited for, its answer and
steps read, a question answered, a tool called by hand as the Tools view does.

One vocabulary, two browsers (tests/helpers/panel_backends.py): `ChromiumPanel` drives the
Chromium side panel with Selenium (tests/e2e), `FirefoxPanel` the Firefox chat page with
WebDriver BiDi (tests/firefox). Each knows how to run JavaScript in the panel, wait for a
condition there, type, click, and load a page in the user's tab; what the panel shows is read
here, once, in the panel's own terms. The `panel` fixture of each browser's conftest hands one
out on a new conversation."""

from __future__ import annotations

import json
import time

LAST_TURN = "[...document.querySelectorAll('article.turn')].at(-1)"
# The last turn's answer, and each code step's output as [text, shown as an error].
ANSWER = f"{LAST_TURN}.querySelector('.message.assistant').textContent.trim()"
CODE_OUTPUTS = f"[...{LAST_TURN}.querySelectorAll('pre.output')].map((pre) => [pre.textContent, pre.classList.contains('error')])"
# The panel's debug handle (extension/shared/debug/debug-handle.js), once the panel's module has
# run (importing it again by its URL waits for the very instance the panel runs).
PANEL_MODULE = 'import(chrome.runtime.getURL("extension/sidepanel/sidepanel.js")).then(() => globalThis.tabagentDebug)'


def question_box(n: int) -> str:
    """The last turn's n-th question (from 0), as a JavaScript expression."""
    return f"{LAST_TURN}?.querySelectorAll('.confirmation')[{n}]"


def settings_for(base_url: str, *, agent: str, **more) -> dict:
    """The settings of a scripted OpenAI-compatible model at `base_url`."""
    return {"provider": "custom", "base_url": base_url, "model": "scripted-model", "agent": agent, "max_steps": 6, **more}


class PanelDriver:
    """The verbs; a browser's subclass gives `run`, `wait_until`, `click`, `type_into`,
    `read_question`, `show`, `in_page`, `stored_conversations` and `screenshot`."""

    def reply(self, type_: str, **payload) -> dict:
        """The service worker's (or Firefox's event page's) whole reply to the panel's message:
        {ok, result} or {ok: false, error}."""
        message = json.dumps({"target": "background", "type": type_, **payload})
        return self.run(f"chrome.runtime.sendMessage({message}).catch((e) => ({{ ok: false, error: String(e) }}))")

    def ask_background(self, type_: str, **payload):
        """What the background answers the panel's message; fails if it says it failed."""
        reply = self.reply(type_, **payload)
        assert reply and reply.get("ok"), reply
        return reply.get("result")

    def configure(self, base_url: str, *, agent: str = "tool_calling", api_key: str = "sk-test", **more) -> None:
        """Saves settings for the scripted model at `base_url`, as the settings page does."""
        self.ask_background("save-settings", settings=settings_for(base_url, agent=agent, **more), apiKey=api_key)

    def new_conversation(self, on: str | None = None) -> PanelDriver:
        """Presses New chat (its click() run in the panel: no window takes the focus), with the
        page at address `on` loaded first in the user's tab."""
        if on is not None:
            self.show(on)
        self.click("document.getElementById('new-chat')", script=True)
        return self

    def call_tool(self, name: str, **args) -> str:
        """The text a page tool returned, called by hand on the user's tab as the Tools view
        calls it: exactly what a model would read."""
        return self.ask_background("call-tool", name=name, args=args)["result"]

    def tool_reply(self, name: str, **args) -> dict:
        """The background's whole reply to that call, failed or not."""
        return self.reply("call-tool", name=name, args=args)

    def send(self, text: str) -> None:
        """Types `text` in the message box and presses Send."""
        self.type_into("#prompt", text)
        self.click("#send")

    def status(self) -> str | None:
        """The last turn's status (running, ok, error, stopped...), or None before any turn."""
        return self.run(f"{LAST_TURN}?.dataset.status ?? null")

    def wait_for(self, expression: str, timeout: float | None = None, message: str = ""):
        """Waits until the JavaScript `expression` is true in the panel; returns its value."""
        return self.wait_until(expression, timeout, message or f"never true in the panel: {expression}")

    def wait_for_status(self, *statuses: str, timeout: float | None = None) -> str:
        """Waits until the last turn's status is one of `statuses`; returns it."""
        return self.wait_until(
            f"{json.dumps(list(statuses))}.includes({LAST_TURN}?.dataset.status) && {LAST_TURN}.dataset.status",
            timeout, f"the turn never reached {statuses}")

    def answer(self) -> str:
        """The last turn's answer, as the user reads it."""
        return self.run(ANSWER)

    def code_outputs(self) -> list:
        """Each code step's output in the last turn: [text, whether it is shown as an error]."""
        return self.run(CODE_OUTPUTS)

    def question(self, n: int = 0, timeout: float | None = None) -> dict:
        """The last turn's n-th question, once it is asking: {message, details, actor (who asks)}."""
        self.wait_until(f"{question_box(n)}?.dataset.state === 'asking'", timeout, f"question {n} was never asked")
        return self.read_question(question_box(n))

    def answer_question(self, n: int, decision: str) -> None:
        """Presses the n-th question's button for `decision` (once, always, deny...), once it is
        asking; then its buttons are all disabled."""
        self.wait_until(f"{question_box(n)}?.dataset.state === 'asking'", None, f"question {n} was never asked")
        self.click(f"{question_box(n)}.querySelector('button[data-decision=\"{decision}\"]')", script=True)
        self.wait_until(f"{question_box(n)}?.dataset.state === {json.dumps(decision)}", 10,
                        f"question {n} never took the answer {decision}")
        assert self.run(f"[...{question_box(n)}.querySelectorAll('button')].every((b) => b.disabled)")

    def stored_turn(self, text: str) -> tuple[dict | None, dict | None]:
        """(conversation, turn) of the stored turn whose message is `text`, or (None, None)."""
        return next(((record, turn) for record in self.stored_conversations() for turn in record["turns"]
                     if turn["text"] == text), (None, None))

    def saved_conversation(self, first_message: str, status: str = "ok", timeout: float = 30) -> dict:
        """The stored conversation that began with `first_message`, once its last turn is saved
        as `status` (the panel hears a turn end as the background saves it)."""
        deadline = time.monotonic() + timeout
        while True:
            found = [r for r in self.stored_conversations() if r["turns"] and r["turns"][0]["text"] == first_message]
            if found and found[0]["turns"][-1]["status"] == status:
                assert len(found) == 1, found
                return found[0]
            assert time.monotonic() < deadline, f"never saved as {status}: {found}"
            time.sleep(0.1)

    def set_value(self, selector: str, value: str, event: str = "change") -> None:
        """Sets the value of the field at `selector` and fires `event` on it, as the panel's own
        listeners hear a person's typing ("input") or choice ("change")."""
        self.run(f"""(() => {{
          const field = document.querySelector({json.dumps(selector)});
          field.value = {json.dumps(value)};
          field.dispatchEvent(new ({"InputEvent" if event == "input" else "Event"})({json.dumps(event)}, {{ bubbles: true }}));
        }})()""")

    def choose(self, selector: str, value: str) -> None:
        """Picks `value` in the select at `selector`."""
        self.set_value(selector, value, "change")

    def open_conversation(self, conversation_id: str) -> None:
        """Opens a stored conversation in the panel, as clicking it in History does."""
        self.run(f"{PANEL_MODULE}.then(({{ conversation }}) => conversation.open({json.dumps(conversation_id)})).then(() => null)")

    def conversation_id(self) -> str | None:
        """The id of the conversation the panel shows (None for a new one not yet saved)."""
        return self.run(f"{PANEL_MODULE}.then(({{ conversation }}) => conversation.id ?? null)")
