"""Tests written once, where the flow is the same in both browsers, and run in each: every test
here runs in Chromium (its side panel, tests/e2e's harness) and in Firefox (its chat page,
tests/firefox's), through the same PanelDriver verbs (`panel`, `tabs`, `turn`, of
tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module", params=[pytest.param("chromium", marks=pytest.mark.e2e),
                                        pytest.param("firefox", marks=pytest.mark.firefox)])
def browser_name(request) -> str:
    return request.param
