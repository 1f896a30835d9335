"""Click by position and drag in Firefox, as in Chromium (tests/e2e/test_pointer_actions.py): a
cell with no locator, on a board drawn by CSS images, is clicked by its place in the screenshot
after the user is asked with a picture of the spot; lists sorted with pointer events and with
HTML drag and drop are sorted both ways. The page sits in a window of its own, the chat in
another (Firefox pictures only the tab shown in a window)."""

from __future__ import annotations

import pytest

from tests.e2e.sight_tabs import picture
from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import firefox_panel
from tests.helpers.tool_calls import call

from .sidebar import ask_background, configure, send, wait_for_status

LOG = "document.getElementById('log').textContent"
ORDER = "[...document.querySelectorAll('#list li')].map((li) => li.textContent).join(', ')"


def window_showing(firefox, url: str) -> str:
    context = firefox.send("browsingContext.create", {"type": "window"})["context"]
    firefox.send("browsingContext.navigate", {"context": context, "url": url, "wait": "complete"})
    return context


@pytest.fixture(scope="module")
def page_and_chat_windows(firefox, site, seeing_model):
    """(page, chat): the page's window, then the chat's, looked at in that order."""
    # The window Firefox opened with (as tests/firefox/test_screenshot.py): a blank window left
    # beside the page would be taken for the tab the user looked at last.
    blank = [c["context"] for c in firefox.send("browsingContext.getTree", {"maxDepth": 0})["contexts"] if c["url"] == "about:blank"]
    page = blank[0] if blank else window_showing(firefox, site.url("cell-board.html"))
    chat = window_showing(firefox, firefox.url("extension/sidepanel/sidepanel.html"))
    firefox.wait_for(chat, "document.getElementById('python-status')?.dataset.ready === 'true'", 120, "Python never became ready")
    configure(firefox, chat, seeing_model.base_url, model="scripted-vision")
    return page, chat


def show(firefox, windows, url: str) -> None:
    page, chat = windows
    firefox.send("browsingContext.navigate", {"context": page, "url": url, "wait": "complete"})
    firefox.send("browsingContext.activate", {"context": page})
    firefox.send("browsingContext.activate", {"context": chat})
    firefox.evaluate(chat, "document.getElementById('new-chat').click()")


def test_a_cell_with_no_locator_is_clicked_by_its_place_in_the_screenshot(firefox, page_and_chat_windows, seeing_model, site):
    page, chat = page_and_chat_windows
    seeing_model.reset()
    show(firefox, page_and_chat_windows, site.url("cell-board.html"))
    ratio = firefox.evaluate(page, "devicePixelRatio")
    point = {"x": round(220 * ratio), "y": round(130 * ratio)}  # the right column's middle cell, in the board's picture
    seeing_model.script(call("screenshot", locator="#board"), call("click_at", **point), Reply(text="Marked."))
    send(firefox, chat, "Mark the middle cell of the right column")
    panel = firefox_panel(firefox, chat)
    assert panel.question(0)["message"] == "Click the point marked in the picture, on the div."
    spot = picture(firefox.evaluate(chat, "document.querySelector('.confirmation img.confirmation-picture').src"))
    assert spot.width >= 180 and spot.height >= 180  # 90 CSS pixels each side of the point
    assert firefox.evaluate(page, LOG) == "nothing yet"  # asked, not done
    panel.answer_question(0, "once")
    assert wait_for_status(firefox, chat, "ok", "error") == "ok"
    assert firefox.evaluate(page, LOG) == "clicked c6"


@pytest.mark.parametrize("list_page", ["sortable-pointer.html", "sortable-dnd.html"])
def test_a_list_is_sorted_by_drag_both_ways(firefox, page_and_chat_windows, site, list_page):
    page, chat = page_and_chat_windows
    show(firefox, page_and_chat_windows, site.url(list_page))
    for source, target, order in (("#apple", "#damson", "Banana, Cherry, Damson, Apple"),
                                  ("#damson", "#banana", "Damson, Banana, Cherry, Apple")):
        said = ask_background(firefox, chat, "call-tool", name="drag", args={"source": source, "target": target})["result"]
        assert firefox.evaluate(page, ORDER) == order == firefox.evaluate(page, LOG), said
