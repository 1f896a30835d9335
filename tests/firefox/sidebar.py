"""Driving TabAgent's chat page in Firefox as a person would, through script.evaluate."""

from __future__ import annotations

import json


def ask_background(firefox, context: str, type_: str, **payload):
    reply = firefox.evaluate(context, f"chrome.runtime.sendMessage({json.dumps({'target': 'background', 'type': type_, **payload})})")
    assert reply and reply.get("ok"), reply
    return reply.get("result")


def configure(firefox, context: str, base_url: str, *, agent: str = "tool_calling", api_key: str = "sk-test", **more):
    settings = {"provider": "custom", "base_url": base_url, "model": "scripted-model", "agent": agent, "max_steps": 6, **more}
    ask_background(firefox, context, "save-settings", settings=settings, apiKey=api_key)


def open_chat(firefox) -> str:
    """The chat page on a new, empty conversation, with Python ready."""
    context = firefox.open_sidebar_page()
    firefox.wait_for(context, "document.getElementById('python-status')?.dataset.ready === 'true'", 120,
                     "Python never became ready")
    firefox.evaluate(context, "document.getElementById('new-chat').click()")
    return context


def send(firefox, context: str, text: str) -> None:
    """Types into the box and presses Send, as the panel's own listeners hear it."""
    firefox.evaluate(context, f"""(() => {{
      const box = document.getElementById('prompt');
      box.value = {json.dumps(text)};
      box.dispatchEvent(new InputEvent('input', {{ bubbles: true }}));
      document.getElementById('send').click();
    }})()""")


LAST_TURN = "[...document.querySelectorAll('article.turn')].at(-1)"
# The last turn's answer, and each code step's output as [text, shown as an error].
ANSWER = f"{LAST_TURN}.querySelector('.message.assistant').textContent.trim()"
CODE_OUTPUTS = f"[...{LAST_TURN}.querySelectorAll('pre.output')].map((pre) => [pre.textContent, pre.classList.contains('error')])"


def turn_status(firefox, context: str) -> str | None:
    return firefox.evaluate(context, f"{LAST_TURN}?.dataset.status ?? null")


def wait_for_status(firefox, context: str, *statuses: str, timeout: float = 60) -> str:
    return firefox.wait_for(context, f"{json.dumps(list(statuses))}.includes({LAST_TURN}?.dataset.status) && {LAST_TURN}.dataset.status",
                            timeout, f"the turn never reached {statuses}")
