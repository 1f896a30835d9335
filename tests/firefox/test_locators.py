"""Locators in Firefox, as in Chromium (tests/e2e/test_multi_page.py): a locator list_controls
gave on an earlier page, or in another tab, is refused in words, and nothing is clicked, instead
of naming whatever the new page numbered the same; numbering goes on across pages."""

from __future__ import annotations

import re

import pytest


from .page_tab import PageTab
from .sidebar import ask_background

LOCATOR = re.compile(r"^(ta-(\d+)) ", re.M)
HELP = "document.querySelector('[aria-label=Help]')"  # controls.html's first control
COUNT_HELP_CLICKS = f"(() => {{ window.helpClicks = 0; {HELP}.addEventListener('click', () => window.helpClicks++); return true; }})()"
HELP_CLICKS = "window.helpClicks ?? 0"
REFUSED = "was given on an earlier page or in another tab"


@pytest.fixture(scope="module")
def tab(firefox):
    return PageTab(firefox)


def listed(tab) -> list[tuple[str, int, str]]:
    """list_controls' locators on the page tab: (locator, number, its line)."""
    text = tab.call("list_controls")
    return [(m.group(1), int(m.group(2)), line) for line in text.splitlines() if (m := LOCATOR.match(line))]


def click(tab, locator: str) -> str:
    return ask_background(tab.firefox, tab.chat, "call-tool", name="click", args={"locator": locator})["result"]


def test_a_locator_from_the_page_before_is_refused_after_the_tab_navigates(tab, site):
    tab.show(site.url("form-controls.html"))
    earlier = listed(tab)
    tab.show(site.url("controls.html"))
    tab.firefox.evaluate(tab.page, COUNT_HELP_CLICKS)
    here = listed(tab)
    assert earlier and here and min(n for _, n, _ in here) > max(n for _, n, _ in earlier)
    said = click(tab, earlier[0][0])
    assert REFUSED in said and "list_controls" in said
    assert tab.firefox.evaluate(tab.page, HELP_CLICKS) == 0
    help_button = next(locator for locator, _, line in here if "“Help”" in line)
    assert "Help" in click(tab, help_button) and tab.firefox.evaluate(tab.page, HELP_CLICKS) == 1


def test_a_locator_from_another_tab_is_refused_there(tab, site):
    tab.show(site.url("controls.html"))
    from_first_tab = listed(tab)[0][0]
    other = PageTab(tab.firefox, chat=tab.chat)  # the user moves to another tab showing the same page
    try:
        other.show(site.url("controls.html"))
        tab.firefox.evaluate(other.page, COUNT_HELP_CLICKS)
        assert REFUSED in click(other, from_first_tab)
        assert tab.firefox.evaluate(other.page, HELP_CLICKS) == 0
    finally:
        tab.firefox.send("browsingContext.close", {"context": other.page})
