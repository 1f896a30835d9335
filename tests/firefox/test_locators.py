"""Locators in Firefox, as in Chromium (tests/e2e/test_multi_page.py): a locator list_controls
gave on an earlier page, or in another tab, is refused in words, and nothing is clicked, instead
of naming whatever the new page numbered the same; numbering goes on across pages."""

from __future__ import annotations

import re

from tests.helpers.panel_backends import FirefoxPanel

LOCATOR = re.compile(r"^(ta-(\d+)) ", re.M)
HELP = "document.querySelector('[aria-label=Help]')"  # controls.html's first control
COUNT_HELP_CLICKS = f"(() => {{ window.helpClicks = 0; {HELP}.addEventListener('click', () => window.helpClicks++); return true; }})()"
HELP_CLICKS = "window.helpClicks ?? 0"
REFUSED = "was given on an earlier page or in another tab"


def listed(tab) -> list[tuple[str, int, str]]:
    """list_controls' locators on the page tab: (locator, number, its line)."""
    text = tab.call_tool("list_controls")
    return [(m.group(1), int(m.group(2)), line) for line in text.splitlines() if (m := LOCATOR.match(line))]


def click(tab, locator: str) -> str:
    return tab.call_tool("click", locator=locator)


def test_a_locator_from_the_page_before_is_refused_after_the_tab_navigates(tabs, site):
    tabs.show(site.url("form-controls.html"))
    earlier = listed(tabs)
    tabs.show(site.url("controls.html"))
    tabs.in_page(COUNT_HELP_CLICKS)
    here = listed(tabs)
    assert earlier and here and min(n for _, n, _ in here) > max(n for _, n, _ in earlier)
    said = click(tabs, earlier[0][0])
    assert REFUSED in said and "list_controls" in said
    assert tabs.in_page(HELP_CLICKS) == 0
    help_button = next(locator for locator, _, line in here if "“Help”" in line)
    assert "Help" in click(tabs, help_button) and tabs.in_page(HELP_CLICKS) == 1


def test_a_locator_from_another_tab_is_refused_there(tabs, site):
    tabs.show(site.url("controls.html"))
    from_first_tab = listed(tabs)[0][0]
    other = FirefoxPanel.beside_a_page(tabs.firefox, tabs.context)  # the user moves to another tab showing the same page
    try:
        other.show(site.url("controls.html"))
        other.in_page(COUNT_HELP_CLICKS)
        assert REFUSED in click(other, from_first_tab)
        assert other.in_page(HELP_CLICKS) == 0
    finally:
        tabs.firefox.send("browsingContext.close", {"context": other.page})
