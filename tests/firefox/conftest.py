"""The Firefox e2e harness: the Firefox build (dist/firefox/) in real headless Firefox ESR
(`firefox`, of tests/conftest.py: one Firefox with TabAgent installed for the tests of a module;
`panel`, `tabs`, `tool_calling` and `turn` are there too: here each is a FirefoxPanel, a
PanelDriver driving the chat page over WebDriver BiDi once Python is ready in it,
tests/helpers/panel_backends.py).

- `downloads`: a folder for a module's downloads (a Firefox that saves there is started with
  its preferences: see test_import.py).
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/firefox/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.firefox)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("firefox-downloads")
