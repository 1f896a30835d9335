"""list_controls finds what shows a hand in each browser when the style of most elements is not read
(extension/content/cursor-rules.js: a cursor no rule may reach is the parent's): on a page that
gives hands by tag, :has and :is, @media, @layer inside @supports, a style attribute, :hover and
a closed shadow root's :host, and takes them back inside (tests/e2e/test_action_round_trips.py
shows, in Chromium, that the listing is the one every style read gives)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.page_content import page_content

SITE = Path(__file__).parents[1] / "e2e" / "pages" / "round-trips"

LISTED = ["clickable “One”", "clickable “Two not this”", "clickable “Three”", "clickable “Card with words”",
          "clickable “Tile”", "clickable “Chip”", "clickable “Wide”", "clickable “Layered”",
          "clickable (no name; coloured #008080; 2nd of 3 alike", "clickable (no name; coloured #008080; 3rd of 3 alike",
          "clickable “€”", "clickable “inline”", "clickable (no name; beside “Deep in a plain box”)"]


def test_what_shows_a_hand_is_listed_and_what_a_rule_takes_it_back_from_is_not(tabs, site):
    tabs.show(site.url("cursors.html"))
    lines = page_content(tabs.call_tool("list_controls"))[1].partition("\n\n")[2].splitlines()
    assert len(lines) == len(LISTED), lines
    for line, listed in zip(lines, LISTED):
        assert listed in line, (listed, lines)
