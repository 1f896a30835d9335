"""Nothing clickable goes unlisted (issue 41): on a page of things a user clicks that are not
links or buttons in its markup (coloured cells with only a handler and a pointer, a board whose
container shows the pointer, icons that show a pointer only under :hover, icon buttons named
by an SVG), a menu and an autocomplete list with their items, a long value ending in a space,
and a list of 30 years, list_controls lists each with what it shows, its value and its state,
and its locator is what click takes."""

import re

import pytest

from tests.helpers.page_content import page_content

pytestmark = pytest.mark.e2e

ANSWER = "The quick brown fox jumps over the lazy dog, then over the lazy cat, then home. "


def listed(tabs, **args):
    _, content = page_content(tabs.call_tool("list_controls", **args))
    return content.partition("\n\n")[2].splitlines()


def unlocated(lines):
    return [re.sub(r"^ta-\d+ ", "", line) for line in lines]


@pytest.fixture
def clickables(tabs, site):
    tabs.show(site.url("clickables.html"))
    return tabs


def test_coloured_cells_with_only_a_handler_and_a_pointer_are_listed_by_colour_and_place(clickables):
    lines = unlocated(listed(clickables))
    assert lines[:2] == [
        "clickable (no name; coloured #e74c3c; 1st of 2 alike; beside “Pick a colour:”)",
        "clickable (no name; coloured #3498db; 2nd of 2 alike; beside “Pick a colour:”)",
    ]
    # The board's container shows the pointer; its nine cells are what a person clicks.
    board = [line for line in lines if "of 9 alike" in line]
    assert [re.search(r"(\d)\w\w of 9", line).group(1) for line in board] == [str(n) for n in range(1, 10)]
    assert all(line.startswith("clickable (no name; coloured #dddddd;") for line in board)


def test_a_listed_cell_of_the_board_is_clicked_by_its_locator(clickables):
    fifth = next(line for line in listed(clickables) if "5th of 9 alike" in line).split()[0]
    clickables.call_tool("click", locator=fifth)
    assert clickables.in_page("return [...document.querySelectorAll('#board div')].map((c) => c.textContent).join('')") == "✓"
    assert clickables.in_page("return document.querySelector('#board div:nth-child(5)').textContent") == "✓"


def test_icons_that_show_a_pointer_only_under_hover_are_listed_by_their_title_or_icon(clickables):
    lines = unlocated(listed(clickables))
    assert "clickable “Delete”" in lines
    assert "clickable (no name; coloured #888888; shows “icon-star”; 2nd of 2 alike; beside “Tools:”)" in lines


def test_an_icon_button_is_named_by_its_svg_title_or_aria_label(clickables):
    lines = unlocated(listed(clickables))
    assert "button “Close”" in lines and "link “Settings”" in lines


def test_a_menu_and_an_autocomplete_list_list_their_items(clickables):
    lines = unlocated(listed(clickables))
    menu = lines.index("clickable “Open Save Quit”")
    assert lines[menu + 1:menu + 4] == ["clickable “Open”", "clickable “Save”", "clickable “Quit”"]
    box = lines.index("combobox “City” = “Pa” expanded")
    # a list box is named by its author only, not by its options run together (read as one of them)
    assert lines[box + 1:box + 4] == ["listbox (no name; beside “City”)", "option “Paris”", "option “Parma” selected"]


def test_a_long_value_is_read_exactly_with_its_trailing_space(clickables):
    lines = unlocated(listed(clickables))
    assert f"text field “Answer” = “{ANSWER}” (ends with 1 space)" in lines
    longer = ANSWER * 8  # 648 characters: the first 500 are shown, and it says so
    clickables.in_page("document.getElementById('answer').value = arguments[0]", longer)
    line = next(line for line in unlocated(listed(clickables)) if line.startswith("text field “Answer”"))
    assert line == f"text field “Answer” = “{longer[:500]}…” (the first 500 of {len(longer)} characters)"


def test_a_select_lists_all_its_30_options(clickables):
    lines = unlocated(listed(clickables))
    years = ", ".join(f"“{year}”" for year in range(2000, 2030))
    assert f"drop-down list “Year” = “2026” (30 options: {years})" in lines


def test_an_option_not_in_a_select_is_told_with_all_its_options(clickables):
    said = page_content(clickables.call_tool("select_option", locator="#year", option="1999"))[1]
    years = ", ".join(f"“{year}”" for year in range(2000, 2030))
    assert f"has no option “1999”; it has {years}." in said, said
