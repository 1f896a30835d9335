"""Driving TabAgent's chat page in Firefox as a person would, through script.evaluate: these
are the verbs of tests/helpers/panel_driver.py for a chat page given by its browsing context
(a test may hold `firefox_panel(firefox, context)` itself)."""

from __future__ import annotations

from tests.helpers.panel_backends import firefox_panel
from tests.helpers.panel_driver import ANSWER, CODE_OUTPUTS, LAST_TURN  # noqa: F401  (the tests read these)


def ask_background(firefox, context: str, type_: str, **payload):
    return firefox_panel(firefox, context).ask_background(type_, **payload)


def configure(firefox, context: str, base_url: str, *, agent: str = "tool_calling", api_key: str = "sk-test", **more):
    firefox_panel(firefox, context).configure(base_url, agent=agent, api_key=api_key, **more)


def open_chat(firefox) -> str:
    """The chat page on a new, empty conversation, with Python ready."""
    context = firefox.open_sidebar_page()
    firefox.wait_for(context, "document.getElementById('python-status')?.dataset.ready === 'true'", 120,
                     "Python never became ready")
    firefox.evaluate(context, "document.getElementById('new-chat').click()")
    return context


def send(firefox, context: str, text: str) -> None:
    """Types into the box and presses Send, as the panel's own listeners hear it."""
    firefox_panel(firefox, context).send(text)


def turn_status(firefox, context: str) -> str | None:
    return firefox_panel(firefox, context).status()


def wait_for_status(firefox, context: str, *statuses: str, timeout: float = 60) -> str:
    return firefox_panel(firefox, context).wait_for_status(*statuses, timeout=timeout)
