"""The numbers and defaults the docs state are the code's (issue 38): each claim below is read
out of the doc by its words and compared with the value the code holds, so a default that
changes in the code and not in the docs fails here. test_docs.py checks the names and paths."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabagent.app import cli, wire
from tabagent.images import KEPT_IMAGE_CHARS
from tabagent.mcp.tools import MAX_RESULT_CHARS
from tabagent.providers import LOCAL_TIMEOUT, REMOTE_TIMEOUT

ROOT = Path(__file__).resolve().parents[2]


def js_number(path: str, pattern: str) -> int:
    """A numeric constant out of a JavaScript file (`1_568`, `10_000_000`)."""
    return int(re.search(pattern, (ROOT / path).read_text())[1].replace("_", ""))


def as_number(text: str) -> float:
    return float(text.replace(",", ""))


# (doc, the words that state the number with it in one group, the number the code holds)
CLAIMS = [
    ("README.md", r"the setting \(([\d,]+) by default\)", lambda: wire.SETTINGS["context_window"]),
    ("docs/using.md", r"\*\*Context window\*\*.*?setting \(([\d,]+) by default\)",
     lambda: wire.SETTINGS["context_window"]),
    ("docs/using.md", r"([\d,]+) s by default for an API", lambda: REMOTE_TIMEOUT),
    ("docs/using.md", r"([\d,]+) s for a model on this computer", lambda: LOCAL_TIMEOUT),
    ("_locales/en/messages.json", r"empty: ([\d,]+) for an API", lambda: REMOTE_TIMEOUT),
    ("_locales/en/messages.json", r"([\d,]+) for a model on this computer", lambda: LOCAL_TIMEOUT),
    ("docs/using.md", r"tried again \(([\d,]+) by default", lambda: wire.SETTINGS["max_retries"]),
    ("docs/architecture.md", r"closes after ([\d,]+) minutes", lambda: wire.SETTINGS["idle_close_minutes"]),
    ("docs/tools.md", r"untrusted content, cut at ([\d,]+)\s+characters", lambda: MAX_RESULT_CHARS),
    ("docs/security.md", r"a result at most ([\d,]+) characters", lambda: MAX_RESULT_CHARS),
    ("docs/tools.md", r"long side of ([\d,]+) px",
     lambda: js_number("extension/shared/pictures/screenshot-canvas.js", r"LONG_SIDE = ([\d_]+)")),
    ("docs/tools.md", r"newest pictures up to ([\d,]+) MB", lambda: KEPT_IMAGE_CHARS / 1_000_000),
    ("docs/tools.md", r"up to ([\d,]+) MB across all its turns",
     lambda: js_number("extension/shared/storage/kept-pictures.js", r"KEPT_PICTURE_CHARS = ([\d_]+)") / 1_000_000),
    ("docs/using.md", r"\(([\d,]+) characters first, then [\d,]+\)",
     lambda: js_number("extension/sidepanel/markdown.js", r"first: ([\d_]+)")),
    ("docs/using.md", r"\([\d,]+ characters first, then ([\d,]+)\)",
     lambda: js_number("extension/sidepanel/markdown.js", r"next: ([\d_]+)")),
    ("docs/extending.md", r"([\d]+) answered", lambda: 0),
    ("docs/extending.md", r"([\d]+) the model or agent failed", lambda: cli.MODEL_ERROR),
    ("docs/extending.md", r"([\d]+) bad usage", lambda: cli.USAGE_ERROR),
    ("docs/extending.md", r"([\d]+) stopped", lambda: cli.STOPPED),
]


@pytest.mark.parametrize("doc, words, value", CLAIMS, ids=[f"{c[0]}:{c[1][:30]}" for c in CLAIMS])
def test_each_number_a_doc_states_is_the_codes(doc, words, value):
    found = re.search(words, (ROOT / doc).read_text(), re.S)
    assert found, f"{doc} no longer says this: {words!r} (say it again, or take the claim out of this test)"
    assert as_number(found[1]) == value()


def test_a_number_changed_in_the_docs_alone_is_caught():
    doc, words, value = CLAIMS[0]
    text = (ROOT / doc).read_text().replace(f"({value():,} by default)", "(4,096 by default)")
    assert as_number(re.search(words, text, re.S)[1]) != value()
