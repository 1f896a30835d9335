"""Click by position and drag in Firefox, as in Chromium (tests/e2e/test_pointer_actions.py): a
cell with no locator, on a board drawn by CSS images, is clicked by its place in the screenshot
after the user is asked with a picture of the spot; lists sorted with pointer events and with
HTML drag and drop are sorted both ways. The page sits in a window of its own, the chat in
another (Firefox pictures only the tab shown in a window)."""

from __future__ import annotations

import pytest

from tests.helpers.pictures import picture
from tests.helpers.model_server import Reply
from tests.helpers.tool_calls import tool_call

IN_WINDOWS = True  # `tabs`: Firefox pictures only the tab shown in a window
LOG = "document.getElementById('log').textContent"
ORDER = "[...document.querySelectorAll('#list li')].map((li) => li.textContent).join(', ')"


def test_a_cell_with_no_locator_is_clicked_by_its_place_in_the_screenshot(tabs, seeing_model, site):
    seeing_model.reset()
    tabs.configure(seeing_model.base_url, model="scripted-vision")
    panel = tabs.new_conversation(on=site.url("cell-board.html"))
    ratio = panel.in_page("devicePixelRatio")
    point = {"x": round(220 * ratio), "y": round(130 * ratio)}  # the right column's middle cell, in the board's picture
    seeing_model.script(tool_call("screenshot", locator="#board"), tool_call("click_at", **point), Reply(text="Marked."))
    panel.send("Mark the middle cell of the right column")
    assert panel.question(0)["message"] == "Click the point marked in the picture, on the div."
    spot = picture(panel.run("document.querySelector('.confirmation img.confirmation-picture').src"))
    assert spot.width >= 180 and spot.height >= 180  # 90 CSS pixels each side of the point
    assert panel.in_page(LOG) == "nothing yet"  # asked, not done
    panel.answer_question(0, "once")
    assert panel.wait_for_status("ok", "error") == "ok"
    assert panel.in_page(LOG) == "clicked c6"


@pytest.mark.parametrize("list_page", ["sortable-pointer.html", "sortable-dnd.html"])
def test_a_list_is_sorted_by_drag_both_ways(tabs, site, list_page):
    tabs.show(site.url(list_page))
    for source, target, order in (("#apple", "#damson", "Banana, Cherry, Damson, Apple"),
                                  ("#damson", "#banana", "Damson, Banana, Cherry, Apple")):
        said = tabs.call_tool("drag", source=source, target=target)
        assert tabs.in_page(ORDER) == order == tabs.in_page(LOG), said
