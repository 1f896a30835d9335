"""The MiniWoB leftovers of issue 51 in Firefox, on the pages Chromium's test reads
(tests/e2e/test_menus_arrows_and_suggestions.py): an icon menu's entries listed once each by
their accessible names, the first of each name being the item a click reaches; a date picker's
month arrows and a pager's glyphs listed with the way they go; autocomplete suggestions once each."""

from __future__ import annotations

import re

import pytest

from tests.helpers.panel_backends import firefox_panel

LOCATOR = re.compile(r"^ta-\d+ ")


@pytest.fixture(scope="module")
def page_and_chat(firefox):
    """Shows a page in the user's tab, then the chat beside it; gives (page, panel)."""
    def show(url):
        page = firefox.open_tab(url)
        chat = firefox.open_sidebar_page()
        firefox.wait_for(chat, "document.getElementById('python-status')?.dataset.ready === 'true'", 120,
                         "Python never became ready")
        return page, firefox_panel(firefox, chat)
    return show


def listed(panel):
    text = panel.ask_background("call-tool", name="list_controls", args={})["result"]
    return [line for line in text.splitlines() if LOCATOR.match(line)]


def first_named(lines, name):
    return next(line.split()[0] for line in lines if f"“{name}”" in line)


def test_an_icon_menu_lists_each_item_once_and_a_click_reaches_it(firefox, site, page_and_chat):
    page, panel = page_and_chat(site.url("icon-menu.html"))
    lines = listed(panel)
    for name in ["Save", "Print", "Zoom in", "Zoom out", "Share"]:
        assert sum(f"menuitem “{name}”" in line for line in lines) == 1 and sum(f"“{name}”" in line for line in lines) == 1, lines
        panel.ask_background("call-tool", name="click", args={"locator": first_named(lines, name)})
        assert firefox.evaluate(page, "document.getElementById('chosen').value") == name
    assert any("Export the current document" in line for line in lines)


def test_a_date_picker_s_arrows_and_a_pager_s_glyphs_are_listed_with_their_way(firefox, site, page_and_chat):
    page, panel = page_and_chat(site.url("date-arrows.html"))
    lines = listed(panel)
    names = [LOCATOR.sub("", line) for line in lines]
    for name in ["Prev", "Next", "Previous («)", "Previous (‹)", "Next (›)", "Next (»)"]:
        assert f"clickable “{name}”" in names, names
    panel.ask_background("call-tool", name="click", args={"locator": first_named(lines, "Next")})
    assert firefox.evaluate(page, "document.getElementById('month').textContent") == "August 2016"


def test_autocomplete_suggestions_are_listed_once_each(firefox, site, page_and_chat):
    page, panel = page_and_chat(site.url("suggestions.html"))
    lines = listed(panel)
    for name in ["Laos", "Latvia", "Lima", "Lisbon", "Lyon"]:
        assert sum(f"“{name}”" in line for line in lines) == 1, lines
    panel.ask_background("call-tool", name="click", args={"locator": first_named(lines, "Latvia")})
    assert firefox.evaluate(page, "document.getElementById('country').value") == "Latvia"
