"""Shared fixtures for the CPython unit tests.

The package lives in py/ (it is not installed), and the fake endpoint in this
folder is shared with tests/pyodide, so both go on sys.path here.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1] / "py", HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import pytest  # noqa: E402
from tabagent.events import KINDS, Event  # noqa: E402


class Recorder:
    """An event listener that keeps what it hears, and checks each event against
    the schema (tabagent.events.KINDS) and its JSON round trip as it goes."""

    def __init__(self):
        self.events = []

    def __call__(self, event):
        assert event.kind in KINDS, event
        assert set(event.data) <= set(KINDS[event.kind]), event
        assert Event.from_json(event.to_json()) == event
        self.events.append(event)

    def kinds(self, depth=None):
        return [e.kind for e in self.events if depth is None or e.depth == depth]

    def of(self, kind):
        return [e for e in self.events if e.kind == kind]


@pytest.fixture
def recorder():
    return Recorder()
