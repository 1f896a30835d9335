"""list_controls on a page written for it (every kind of control, a frame, a web component,
hidden ones, one far below), called by hand through the real extension as the model would:
one line per control with the locator the actions take, its kind, name, value and state."""

import re

import pytest

from tests.helpers.page_content import page_content

pytestmark = pytest.mark.e2e


def listed(tabs, **args):
    source, content = page_content(tabs.call_tool("list_controls", **args))
    head, _, body = content.partition("\n\n")
    return head, [re.sub(r"^ta-\d+ ", "", line) for line in body.splitlines()], body


def test_every_visible_control_in_reading_order_with_its_name_value_and_state(tabs, site):
    tabs.show(site.url("controls.html"))
    head, lines, _ = listed(tabs)
    assert lines == [
        "button “Help”",
        "text field “Full name” = “Ada Lovelace” required",
        "text field “Email” = “not-an-email” invalid",
        "password field “Password” = “•••”",
        "drop-down list “Country” = “France” (3 options: “Germany”, “France”, “Italy”)",
        "checkbox “Gift wrap” checked",
        "radio button “Slow”",
        "radio button “Fast” disabled",
        "text area “A note for the courier”",
        "button “Place order”",
        "summary “More options” collapsed",
        "combobox “Size” = “Medium” collapsed",
        "link “Home”",
        "button “Shadow button”",
        "button “Inside the frame” (in a frame)",
        "clickable “the terms” below",  # a span with a click handler, drawn as a link
        "link “Far below” below",
    ]
    assert head.startswith(f"17 controls on {site.url('controls.html')}; this is part 1 of 1.")


def test_a_locator_from_the_list_is_what_the_actions_take(tabs, site):
    tabs.show(site.url("controls.html"))
    _, _, body = listed(tabs)
    shadow = next(line for line in body.splitlines() if "Shadow button" in line).split()[0]
    found = page_content(tabs.call_tool("query_page", selector=shadow))[1]
    assert "Shadow button" in found


def test_a_long_list_comes_in_parts_and_a_region_lists_only_its_own(tabs, site):
    tabs.show(site.url("controls.html"))
    head, lines, _ = listed(tabs, max_controls=10)
    assert len(lines) == 10 and "part 1 of 2" in head and "page=2" in head
    head, lines, _ = listed(tabs, max_controls=10, page=2)
    assert len(lines) == 7 and lines[-1] == "link “Far below” below"
    head, lines, _ = listed(tabs, within="#delivery")
    assert lines[0] == "text field “Full name” = “Ada Lovelace” required" and lines[-1] == "button “Place order”"
    assert len(lines) == 9
