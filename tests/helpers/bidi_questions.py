"""A confirmation in the Firefox panel, read through WebDriver BiDi: the JavaScript that
finds the last turn's question, and the question as the user reads it once it is asking."""

from __future__ import annotations

from tests.firefox.sidebar import LAST_TURN


CONFIRMATION = f"{LAST_TURN}?.querySelector('.confirmation')"


# The confirmation on screen, as the user reads it: its message and its details.
ASKED = f"""{CONFIRMATION}?.dataset.state === 'asking' && {{
  message: {CONFIRMATION}.querySelector('.confirmation-message').textContent,
  details: Object.fromEntries([...{CONFIRMATION}.querySelectorAll('dd')].map((dd) => [dd.dataset.detail, dd.textContent])),
}}"""
