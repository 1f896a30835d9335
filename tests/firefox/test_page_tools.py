"""The page tools in Firefox: content scripts read the page the user is on, and an action on it
runs only after the user says yes to exactly that, in the chat."""

from __future__ import annotations

import json

from tests.helpers.model_server import Reply


def test_read_page_gives_the_page_as_marked_markdown(tabs, site):
    url = site.url("article.html")
    tabs.show(url)
    text = tabs.call_tool("read_page")
    assert f'<page_content source="{url}" untrusted="true">' in text
    assert "Title: Growing Tomatoes on a Balcony" in text and "## Choosing a variety" in text


def test_read_page_gives_a_form_with_its_labels_and_values(tabs, site):
    """A form is read whole in Firefox too, each field's value in brackets, a password never."""
    url = site.url("apps/sign-in.html")
    tabs.show(url)
    text = tabs.call_tool("read_page")
    assert f'<page_content source="{url}" untrusted="true">' in text
    flat = " ".join(text.split())
    assert "Email address [ada@example.org]" in flat and "Ticket type [Return ▾]" in flat
    assert "[x] Keep me signed in" in flat and "Password [••••]" in flat and "harbour-secret-42" not in flat


def test_a_click_runs_only_after_the_user_allows_it(tabs, model, site):
    model.reset()
    tabs.configure(model.base_url)
    tabs.new_conversation(on=site.url("actions.html"))
    model.script(Reply(tool_calls=[{"name": "click", "arguments": {"locator": "#subscribe"}}]), Reply(text="Subscribed."))
    tabs.send("Subscribe me")
    asked = tabs.question(0)["message"]
    assert asked == "Click the button “Subscribe”."
    log = "document.getElementById('log').textContent"
    assert tabs.in_page(log) == "nothing yet"  # asked, not done
    tabs.answer_question(0, "once")
    assert tabs.wait_for_status("ok", "error") == "ok"
    assert tabs.in_page(log) == "subscribed after 1 press"
    told = [m for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]["content"]
    assert json.dumps("Click the button “Subscribe”.", ensure_ascii=False) in told
