"""Acting on a page in Firefox, as in Chromium (tests/e2e/test_page_actions_more.py): an element
below the fold when the action is planned, which a banner fixed over the window covers once it is
scrolled into view, is not typed into, hovered or chosen from, and the cover is named."""

from __future__ import annotations

from tests.helpers.panel_backends import FirefoxPanel

LOG = "document.getElementById('log').textContent"


def test_an_element_out_of_view_when_planned_is_checked_for_a_cover_where_it_is_acted_on(firefox, site):
    tab = FirefoxPanel.beside_a_page(firefox)
    tab.show(site.url("covered-below.html"))
    for name, args in (("type_text", {"locator": "#far", "text": "hello"}), ("hover", {"locator": "#menu"}),
                       ("select_option", {"locator": "#plan", "option": "Pro"})):
        tab.in_page("scrollTo(0, 0)")
        said = tab.call_tool(name, **args)
        assert "is covered by the div “Sign up for our newsletter No thanks”" in said, (name, said)
        assert tab.in_page(LOG) == "nothing yet"
    tab.in_page("scrollTo(0, 0)")
    tab.call_tool("click", locator="#close")
    tab.call_tool("type_text", locator="#far", text="hello")
    assert tab.in_page(LOG) == "typed hello"
