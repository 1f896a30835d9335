"""The page tools in Firefox: content scripts read the page the user is on, and an action on it
runs only after the user says yes to exactly that, in the chat."""

from __future__ import annotations

import json


from tests.helpers.model_server import Reply

from tests.helpers.panel_backends import firefox_panel

from .sidebar import ask_background, configure, open_chat, send, wait_for_status


def user_on(firefox, url: str) -> tuple[str, str]:
    """The user's tab showing `url`, then the chat beside it (the tab looked at last before the
    chat is the one the page tools act on); returns (page, chat)."""
    page = firefox.open_tab(url)
    chat = open_chat(firefox)
    return page, chat


def test_read_page_gives_the_page_as_marked_markdown(firefox, site):
    url = site.url("article.html")
    _, chat = user_on(firefox, url)
    text = ask_background(firefox, chat, "call-tool", name="read_page", args={})["result"]
    assert f'<page_content source="{url}" untrusted="true">' in text
    assert "Title: Growing Tomatoes on a Balcony" in text and "## Choosing a variety" in text


def test_read_page_gives_a_form_with_its_labels_and_values(firefox, site):
    """A form is read whole in Firefox too, each field's value in brackets, a password never."""
    url = site.url("apps/sign-in.html")
    _, chat = user_on(firefox, url)
    text = ask_background(firefox, chat, "call-tool", name="read_page", args={})["result"]
    assert f'<page_content source="{url}" untrusted="true">' in text
    flat = " ".join(text.split())
    assert "Email address [ada@example.org]" in flat and "Ticket type [Return ▾]" in flat
    assert "[x] Keep me signed in" in flat and "Password [••••]" in flat and "harbour-secret-42" not in flat


def test_a_click_runs_only_after_the_user_allows_it(firefox, model, site):
    model.reset()
    page, chat = user_on(firefox, site.url("actions.html"))
    configure(firefox, chat, model.base_url)
    model.script(Reply(tool_calls=[{"name": "click", "arguments": {"locator": "#subscribe"}}]), Reply(text="Subscribed."))
    send(firefox, chat, "Subscribe me")
    asked = firefox_panel(firefox, chat).question(0)["message"]
    assert asked == "Click the button “Subscribe”."
    log = "document.getElementById('log').textContent"
    assert firefox.evaluate(page, log) == "nothing yet"  # asked, not done
    firefox_panel(firefox, chat).answer_question(0, "once")
    assert wait_for_status(firefox, chat, "ok", "error") == "ok"
    assert firefox.evaluate(page, log) == "subscribed after 1 press"
    told = [m for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]["content"]
    assert json.dumps("Click the button “Subscribe”.", ensure_ascii=False) in told
