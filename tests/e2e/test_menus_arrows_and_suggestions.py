"""The MiniWoB leftovers of issue 51, on small pages written for them: list_controls lists each
entry of an icon menu once, icon-only ones by their accessible name, and the locator it gives is
the item's, so a click reaches the item's handler (not its wrapper's box); a date picker's month
arrows (links without href) and a pager's arrow glyphs are listed with a name that says which
way they go; an autocomplete list's suggestions are listed once each."""

import re

import pytest

from .page_tabs import page_content

pytestmark = pytest.mark.e2e


def listed(tabs):
    _, content = page_content(tabs.call("list_controls"))
    return content.partition("\n\n")[2].splitlines()


def unlocated(lines):
    return [re.sub(r"^ta-\d+ ", "", line) for line in lines]


def locator_of(lines, line_without_locator):
    [found] = [line.split()[0] for line in lines if re.sub(r"^ta-\d+ ", "", line) == line_without_locator]
    return found


def test_a_date_picker_s_month_arrows_are_listed_and_clicked(tabs, site):
    tabs.show(site.url("date-arrows.html"))
    lines = listed(tabs)
    plain = unlocated(lines)
    assert "clickable “Prev”" in plain and "clickable “Next”" in plain, "\n".join(plain)
    tabs.call("click", locator=locator_of(lines, "clickable “Next”"))
    assert tabs.in_page("return document.getElementById('month').textContent") == "August 2016"
    tabs.call("click", locator=locator_of(lines, "clickable “Prev”"))
    tabs.call("click", locator=locator_of(lines, "clickable “Prev”"))
    assert tabs.in_page("return document.getElementById('month').textContent") == "June 2016"


def test_arrow_glyphs_are_named_by_the_way_they_go(tabs, site):
    tabs.show(site.url("date-arrows.html"))
    lines = listed(tabs)
    plain = unlocated(lines)
    for name in ["Previous («)", "Previous (‹)", "Next (›)", "Next (»)"]:
        assert f"clickable “{name}”" in plain, plain
    tabs.call("click", locator=locator_of(lines, "clickable “Next (»)”"))
    assert tabs.in_page("return document.getElementById('page').textContent") == "13"
