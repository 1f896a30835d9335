"""Fixtures for the Pyodide tests: the package and the fake endpoint on sys.path,
and the local server the cases talk to."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1] / "py", HERE.parent / "unit", HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import pytest  # noqa: E402
from fake_openai import FakeOpenAI  # noqa: E402


@pytest.fixture(scope="module")
def server():
    fake = FakeOpenAI().start()
    yield fake
    fake.stop()
