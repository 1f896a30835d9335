"""The MiniWoB leftovers of issue 51, on small pages written for them: list_controls lists each
entry of an icon menu once, icon-only ones by their accessible name, and the locator it gives is
the item's, so a click reaches the item's handler (not its wrapper's box); a date picker's month
arrows (links without href) and a pager's arrow glyphs are listed with a name that says which
way they go; an autocomplete list's suggestions are listed once each."""

import re

import pytest

from tests.helpers.page_content import page_content

pytestmark = pytest.mark.e2e


def listed(tabs, address: str) -> list[str]:
    """What list_controls lists on the page at `address` (shown in the user's tab), a line each."""
    tabs.show(address)
    _, content = page_content(tabs.call_tool("list_controls"))
    return content.partition("\n\n")[2].splitlines()


def unlocated(lines):
    return [re.sub(r"^ta-\d+ ", "", line) for line in lines]


def locator_of(lines, line_without_locator):
    [found] = [line.split()[0] for line in lines if re.sub(r"^ta-\d+ ", "", line) == line_without_locator]
    return found


MENU_ITEMS = ["Save", "Print", "Zoom in", "Zoom out", "Share"]


def test_each_entry_of_an_icon_menu_is_listed_once_by_its_accessible_name(tabs, site):
    lines = unlocated(listed(tabs, site.url("icon-menu.html")))
    assert [line for line in lines if line.startswith("menuitem")] == [f"menuitem “{name}”" for name in MENU_ITEMS]
    for name in MENU_ITEMS:
        assert sum(f"“{name}”" in line for line in lines) == 1, lines


def test_a_click_on_a_listed_menu_entry_reaches_the_item_not_its_wrapper(tabs, site):
    lines = listed(tabs, site.url("icon-menu.html"))
    for name in MENU_ITEMS:  # the first control of that name, as a model picks it
        tabs.call_tool("click", locator=next(line.split()[0] for line in lines if f"“{name}”" in line))
        assert tabs.in_page("return document.getElementById('chosen').value") == name


def test_an_entry_of_a_plain_menu_is_listed_however_long_its_name(tabs, site):
    lines = listed(tabs, site.url("icon-menu.html"))
    [export] = [line for line in lines if "Export the current document" in line]
    assert export.split()[1] == "clickable" and any("“Close”" in line for line in lines)
    tabs.call_tool("click", locator=export.split()[0])
    assert tabs.in_page("return document.getElementById('chosen').value") == "Export"


def test_a_date_picker_s_month_arrows_are_listed_and_clicked(tabs, site):
    lines = listed(tabs, site.url("date-arrows.html"))
    plain = unlocated(lines)
    assert "clickable “Prev”" in plain and "clickable “Next”" in plain, "\n".join(plain)
    tabs.call_tool("click", locator=locator_of(lines, "clickable “Next”"))
    assert tabs.in_page("return document.getElementById('month').textContent") == "August 2016"
    tabs.call_tool("click", locator=locator_of(lines, "clickable “Prev”"))
    tabs.call_tool("click", locator=locator_of(lines, "clickable “Prev”"))
    assert tabs.in_page("return document.getElementById('month').textContent") == "June 2016"


def test_arrow_glyphs_are_named_by_the_way_they_go(tabs, site):
    lines = listed(tabs, site.url("date-arrows.html"))
    plain = unlocated(lines)
    for name in ["Previous («)", "Previous (‹)", "Next (›)", "Next (»)"]:
        assert f"clickable “{name}”" in plain, plain
    tabs.call_tool("click", locator=locator_of(lines, "clickable “Next (»)”"))
    assert tabs.in_page("return document.getElementById('page').textContent") == "13"


def test_each_autocomplete_suggestion_is_listed_once_and_its_click_picks_it(tabs, site):
    lines = listed(tabs, site.url("suggestions.html"))
    plain = unlocated(lines)
    for name in ["Laos", "Latvia", "Lima", "Lisbon", "Lyon"]:
        assert sum(line.endswith(f"“{name}”") or f"“{name}” " in line for line in plain) == 1, plain
    assert "option “Lisbon” selected" in plain and "option “Lyon”" in plain
    latvia = next(line.split()[0] for line in lines if "“Latvia”" in line)
    tabs.call_tool("click", locator=latvia)
    assert tabs.in_page("return document.getElementById('country').value") == "Latvia"
