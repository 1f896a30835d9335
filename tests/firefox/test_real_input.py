"""The new presses in Firefox (issue 51): Firefox gives extensions no real input, so they are
events a script sends, and the model is told so. On the same pages as Chromium's
tests/e2e/test_real_input.py: a held click still confirms a button that times the hold, a
right-click opens the page's own menu, a double-click is a dblclick; each says in its result
that the page sees untrusted events with no :hover and no user activation; a plain click is
untrusted and carries no activation (what the words say is what the page sees)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.panel_backends import firefox_panel


SITE = Path(__file__).resolve().parents[1] / "e2e" / "pages" / "real-input"
LOG = "document.getElementById('log').textContent"
WORDS = "synthetic events (this browser gives extensions no real input): the page sees isTrusted false, no :hover, no user activation"


def window_showing(firefox, url: str) -> str:
    context = firefox.send("browsingContext.create", {"type": "window"})["context"]
    firefox.send("browsingContext.navigate", {"context": context, "url": url, "wait": "complete"})
    return context


@pytest.fixture(scope="module")
def page_and_panel(firefox, site):
    """(page context, PanelDriver of the chat), the page's window looked at before the chat's."""
    blank = [c["context"] for c in firefox.send("browsingContext.getTree", {"maxDepth": 0})["contexts"] if c["url"] == "about:blank"]
    page = blank[0] if blank else window_showing(firefox, site.url("trusted.html"))
    chat = window_showing(firefox, firefox.url("extension/sidepanel/sidepanel.html"))
    firefox.wait_for(chat, "document.getElementById('python-status')?.dataset.ready === 'true'", 120, "Python never became ready")
    return page, firefox_panel(firefox, chat)


def show(firefox, page_and_panel, url):
    page, _ = page_and_panel
    firefox.send("browsingContext.navigate", {"context": page, "url": url, "wait": "complete"})


def done(page_and_panel, name, **args) -> dict:
    """What the action did, as the model reads it (inside the page-content marking)."""
    text = page_and_panel[1].ask_background("call-tool", name=name, args=args)["result"]
    content = text.split('untrusted="true">\n', 1)[1].rsplit("\n</page_content>", 1)[0]
    assert content.startswith("{"), text
    return json.loads(content)


def test_a_held_click_is_a_timed_press_and_says_it_is_synthetic(firefox, page_and_panel, site):
    show(firefox, page_and_panel, site.url("trusted.html"))
    said = done(page_and_panel, "click", locator="#hold", duration=1.2)
    assert said["summary"] == "Click and hold for 1.2 s the button “Hold to confirm”."
    assert said["input"].startswith(WORDS)
    # The page that wants a trusted release sees what the words say: held long enough, not trusted.
    assert firefox.evaluate(page_and_panel[0], LOG) == "released too soon or not trusted (false)"


def test_a_plain_click_carries_no_activation_as_the_words_say(firefox, page_and_panel, site):
    show(firefox, page_and_panel, site.url("trusted.html"))
    done(page_and_panel, "click", locator="#press")
    done(page_and_panel, "click", locator="#twice", button="double")
    assert firefox.evaluate(page_and_panel[0], LOG) == "click trusted=false activation=false\ndblclick trusted=false"


def test_a_right_click_opens_the_pages_own_menu_and_says_whose_it_is(firefox, page_and_panel, site):
    show(firefox, page_and_panel, site.url("menu.html"))
    said = done(page_and_panel, "click", locator="#file", button="right")
    assert said["menu"].startswith("the page's own menu (it cancelled the browser's)")
    assert said["input"].startswith(WORDS)
    assert firefox.evaluate(page_and_panel[0], LOG) == "menu opened trusted=false"
