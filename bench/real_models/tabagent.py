"""TabAgent on the real-model bench's tasks: each task a real turn in the side panel of the built
extension in Chromium (tests/helpers/browser.py), as a person runs it: the task's pages opened in
tabs (the first in front), a new conversation, the sentence sent, every question the agent asks
answered "allow for this turn" (the person running the bench allows the actions, as the
MiniWoB bench does), every question handed back to the person (ask_user) answered with the same
sentence (USER_SAYS: the task says all they know; a turn once waited 28 minutes on a question
nobody answered), the answer and steps read from the turn as it was saved."""

from __future__ import annotations

import json
import time

from tests.helpers.browser import Browser, fresh_profile, remove_profile
from tests.helpers.panel_backends import chromium_panel
from tests.helpers.real_model_turns import last_turn_events

ALLOW_ASKED = """[...[...document.querySelectorAll('article.turn')].at(-1)?.querySelectorAll(
  '.confirmation[data-state="asking"] button[data-decision="turn"]') ?? []].map((b) => (b.click(), 1)).length"""
# The person's answer to a question handed back to them: all they know is in the task.
USER_SAYS = "I have nothing to add: the task says all I know. Please do it with the pages as they are."
ANSWER_HANDED_BACK = """((said) => {
  const box = [...document.querySelectorAll('article.turn')].at(-1)?.querySelector('.hand-back[data-state="asking"]');
  if (!box) return 0;
  box.querySelector('textarea.hand-back-answer').value = said;
  box.querySelector('button.hand-back-send').click();
  return 1;
})(SAID)""".replace("SAID", json.dumps(USER_SAYS))
ENDED = ("ok", "max_steps", "error", "stopped", "cancelled")


class TabAgent:
    """with TabAgent(base_url, model, ...) as tabagent: tabagent.run("code" or "tool_calling", sentence, urls)"""

    def __init__(self, base_url: str, model: str, *, max_steps: int, max_tokens: int, timeout: float,
                 hold_replies: str):
        self.settings = {"provider": "llamacpp", "base_url": base_url, "model": model,
                         "max_steps": max_steps, "max_output_tokens": max_tokens, "temperature": 0,
                         "context_window": 8192, "request_timeout": min(3600, int(timeout)),
                         "hold_replies": hold_replies}
        self.timeout = timeout

    def __enter__(self) -> TabAgent:
        self.profile = fresh_profile()
        self.browser = Browser(self.profile).start()
        self.panel_tab = self.browser.open_side_panel()
        self.panel = chromium_panel(self.browser)
        return self

    def __exit__(self, *exc) -> None:
        self.browser.quit()
        remove_profile(self.profile)

    def run(self, agent: str, sentence: str, urls: list[str]) -> dict:
        driver = self.browser.driver
        driver.switch_to.window(self.panel_tab)
        self.panel.ask_background("save-settings", apiKey="", settings={**self.settings, "agent": agent})
        before = set(driver.window_handles)
        for url in reversed(urls):  # the first page is the tab looked at last before the panel
            self.browser.open_tab(url)
        driver.switch_to.window(self.panel_tab)
        try:
            return self._turn(sentence)
        finally:
            for handle in set(driver.window_handles) - before:
                driver.switch_to.window(handle)
                driver.close()
            driver.switch_to.window(self.panel_tab)

    def _turn(self, sentence: str) -> dict:
        self.panel.new_conversation()
        started = time.monotonic()
        self.panel.send(sentence)
        status = None
        while time.monotonic() - started < self.timeout:
            self.panel.run(ALLOW_ASKED)
            self.panel.run(ANSWER_HANDED_BACK)
            status = self.panel.status()
            if status in ENDED:
                break
            time.sleep(0.2)
        else:
            self.browser.driver.find_element("id", "stop").click()
            self.panel.wait_for_status(*ENDED, timeout=60)
            status = "timed out"
        seconds = time.monotonic() - started
        events = [e for e in last_turn_events(self.panel) if e["kind"] != "model_call"]
        answers = [e["data"].get("answer") for e in events if e["kind"] == "final_answer"]
        done = [e["data"] for e in events if e["kind"] == "done" and e.get("depth", 0) == 0]
        errors = [e["data"].get("message", "") for e in events if e["kind"] == "error"]
        answer = answers[-1] if answers else ""
        # What it did, in short, for the reader of the rows: each call's name, "python" for code.
        did = [e["data"]["name"] if e["kind"] == "tool_call" else "python" for e in events
               if e["kind"] in ("tool_call", "code") and e.get("depth", 0) == 0]
        return {"answer": answer if isinstance(answer, str) else json.dumps(answer), "did": did,
                "calls": [what_ran(e) for e in events
                          if e["kind"] in ("tool_call", "code") and e.get("depth", 0) == 0],
                "asked_user": [e["data"].get("question", "")[:200] for e in events
                               if e["kind"] == "hand_back" and "answer" not in e["data"]],
                "steps": done[-1]["steps"] if done else None, "seconds": seconds, "status": status,
                "error": None if status in ("ok", "max_steps") else (errors[-1] if errors else status)[:300]}


def what_ran(event: dict, limit: int = 400) -> dict:
    """One step as the rows keep it: a call's name and arguments, or the code run, each cut to
    `limit` characters, so a failure is read from the row rather than guessed from names."""
    if event["kind"] == "code":
        return {"python": event["data"].get("code", "")[:limit]}
    arguments = json.dumps(event["data"].get("arguments"), ensure_ascii=False)
    return {"call": event["data"]["name"], "arguments": arguments[:limit]}
