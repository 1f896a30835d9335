"""The screenshot tool in Firefox, in real turns (as tests/e2e/test_screenshot.py in Chromium):
a model that takes images gets the page's visible part as an image inside the page-content
marking, one element cropped to its box; a tab that is not the one shown in its window is
refused in words and nothing is pictured. The page sits in a window of its own and the chat in
another, as a sidebar sits beside the page (Firefox pictures only the tab shown in a window)."""

from __future__ import annotations

import pytest

from tests.e2e.sight_tabs import near, picture
from tests.helpers.model_server import Reply
from tests.helpers.page_server import PageServer

from .sidebar import configure, send, wait_for_status

E2E = __import__("pathlib").Path(__file__).resolve().parents[1] / "e2e"
RED, BLUE, WHITE = (255, 0, 0), (0, 0, 255), (255, 255, 255)


@pytest.fixture(scope="module")
def private_site():
    """Another site (another port) with a page the user has open but never showed."""
    with PageServer(E2E / "red_team_pages") as server:
        yield server


def window_showing(firefox, url: str) -> str:
    context = firefox.send("browsingContext.create", {"type": "window"})["context"]
    firefox.send("browsingContext.navigate", {"context": context, "url": url, "wait": "complete"})
    return context


@pytest.fixture(scope="module")
def windows(firefox, site, seeing_model):
    """(page, chat): the page's window, then the chat's, looked at in that order."""
    # The window Firefox opened with: a tab of its own would leave this one the tab looked at last.
    [page] = [c["context"] for c in firefox.send("browsingContext.getTree", {"maxDepth": 0})["contexts"] if c["url"] == "about:blank"][:1]
    firefox.send("browsingContext.navigate", {"context": page, "url": site.url("sight.html"), "wait": "complete"})
    chat = window_showing(firefox, firefox.url("extension/sidepanel/sidepanel.html"))
    firefox.wait_for(chat, "document.getElementById('python-status')?.dataset.ready === 'true'", 120, "Python never became ready")
    configure(firefox, chat, seeing_model.base_url, model="scripted-vision")
    return page, chat


def look(firefox, windows, model, args: dict) -> None:
    page, chat = windows
    model.reset()
    firefox.send("browsingContext.activate", {"context": page})
    firefox.send("browsingContext.activate", {"context": chat})
    firefox.evaluate(chat, "document.getElementById('new-chat').click()")
    model.script(Reply(tool_calls=[{"name": "screenshot", "arguments": args}]), Reply(text="Seen."))
    send(firefox, chat, "What does the page look like?")
    assert wait_for_status(firefox, chat, "ok", "error") == "ok"


def told(model) -> str:
    return [m["content"] for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]


def test_a_seeing_model_gets_the_visible_page_as_an_image_inside_the_marking(firefox, windows, seeing_model, site):
    look(firefox, windows, seeing_model, {})
    [shown] = seeing_model.pictures(1)
    assert f'<page_content source="{site.url("sight.html")}" untrusted="true">' in shown["before"]
    assert shown["after"].strip() == "</page_content>"
    image = picture(shown["url"])
    assert near(image.getpixel((120, 70)), RED) and near(image.getpixel((80, 170)), BLUE)
    assert near(image.getpixel((350, 70)), WHITE)
    assert "A screenshot of the visible part of the page" in told(seeing_model)


def test_one_element_is_cropped_to_its_box(firefox, windows, seeing_model):
    look(firefox, windows, seeing_model, {"locator": "#blue"})
    image = picture(seeing_model.pictures(1)[0]["url"])
    ratio = image.width / 120  # the device pixel ratio
    assert image.size == (120 * ratio, 60 * ratio)
    assert all(near(image.getpixel((x, y)), BLUE) for x in (2, image.width - 3) for y in (2, image.height - 3))


def test_a_tab_not_shown_in_its_window_is_refused_without_asking(firefox, windows, seeing_model, private_site):
    """A model naming a tab behind the one in front (a private page the user never showed)."""
    page, chat = windows
    hidden = firefox.send("browsingContext.create", {"type": "tab", "referenceContext": page, "background": True})["context"]
    try:
        firefox.send("browsingContext.navigate", {"context": hidden, "url": private_site.url("private.html"), "wait": "complete"})
        [tab_id] = firefox.evaluate(chat, f"chrome.tabs.query({{}}).then((t) => t.filter((x) => x.url === {private_site.url('private.html')!r}).map((x) => x.id))")
        seeing_model.reset()
        firefox.evaluate(chat, "document.getElementById('new-chat').click()")
        seeing_model.script(Reply(tool_calls=[{"name": "screenshot", "arguments": {"tab_id": tab_id}}]), Reply(text="Done."))
        send(firefox, chat, "Describe this page")
        assert wait_for_status(firefox, chat, "ok", "error") == "ok"
        assert "is not the tab shown in its window" in told(seeing_model)
        assert seeing_model.pictures(1) == []
        assert firefox.evaluate(chat, "document.querySelectorAll('article.turn:last-of-type .confirmation').length") == 0
    finally:
        firefox.send("browsingContext.close", {"context": hidden})
