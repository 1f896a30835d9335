"""Work in a tab the agent opened: a turn opens a tab with open_tab, switches to it, lists its
controls, clicks, types and reads there, then comes back to the user's tab and goes on. Each
action there is asked like any other (its page is the opened tab's) and the per-site list
applies to it; a locator of the opened tab is refused in words in the user's tab; a tab the
turn did not open cannot be switched to; the turn's record has every action. Real turns,
a scripted model, the confirmations answered in the side panel like a person."""

import json
import re
import threading

import pytest

from tests.helpers.model_server import Reply

from tests.helpers.page_content import page_content
from tests.helpers.tool_calls import tool_call, told
from tests.helpers.tool_calls import later, settings
from tests.helpers.help_clicks import COUNT_HELP_CLICKS, HELP_CLICKS

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("steps_enough", "help_clicks_counted")]
USER_PAGE = "controls.html"  # the `turn` starts there


@pytest.fixture
def steps_enough(tabs, model):
    """The scripted model, tools on, with steps enough for the errand and no site rules (a test may set them)."""
    tabs.ask_background("save-settings", settings=settings(model), apiKey="sk-test")
    yield
    tabs.configure(model.base_url, agent="tool_calling")


@pytest.fixture
def help_clicks_counted(turn):
    turn.in_page(COUNT_HELP_CLICKS)


def result_of(requests, n):
    """The last tool result the model read in request n."""
    return [m for m in requests[n]["body"]["messages"] if m["role"] == "tool"][-1]["content"]


def opened_tab_id(requests):
    """The id open_tab gave (its result is request 1's tool result)."""
    return json.loads(page_content(result_of(requests, 1))[1])["tab_id"]


def subscribe_locator(requests, n=3):
    """The locator list_controls (request n's result) gave the Subscribe button."""
    return re.search(r"^(ta-\d+) button “Subscribe”", page_content(result_of(requests, n))[1], re.M).group(1)


def in_opened_tab(tabs, script):
    page, = set(tabs.driver.window_handles) - {tabs.page, tabs.window}
    tabs.driver.switch_to.window(page)
    try:
        return tabs.driver.execute_script(script)
    finally:
        tabs.driver.switch_to.window(tabs.window)


def test_a_turn_works_in_the_tab_it_opened_and_comes_back_to_the_users(turn, model, site):
    model.script(
        tool_call("open_tab", url="actions.html"),
        later(lambda r: {"name": "switch_tab", "arguments": {"tab_id": opened_tab_id(r)}}),
        tool_call("list_controls"),
        later(lambda r: {"name": "click", "arguments": {"locator": subscribe_locator(r)}}),
        tool_call("type_text", locator="#email", text="ada@example.org"),
        tool_call("read_page"),
        tool_call("switch_tab"),
        later(lambda r: {"name": "click", "arguments": {"locator": subscribe_locator(r)}}),
        tool_call("read_page"),
        Reply(text="Subscribed in the new tab."))
    turn.send("Subscribe me on the actions page, in a new tab")
    assert turn.question(0)["message"] == f"Open {site.url('actions.html')} in a new tab."
    turn.answer_question(0, "once")
    clicked = turn.question(1)  # asked like any click, on the page of the opened tab
    assert clicked["message"] == "Click the button “Subscribe”." and clicked["details"]["page"] == site.url("actions.html")
    turn.answer_question(1, "once")
    typed = turn.question(2)
    assert typed["details"]["page"] == site.url("actions.html") and typed["details"]["text"] == "ada@example.org"
    turn.answer_question(2, "once")
    turn.wait_for_status("ok")

    assert in_opened_tab(turn, "return [document.getElementById('log').textContent, document.getElementById('email').value]") == \
        ["subscribed after 1 press", "ada@example.org"]
    switched = result_of(model.requests, 2)
    assert page_content(switched.partition("\n</page_content>")[0] + "\n</page_content>")[0] == site.url("actions.html")
    assert "controls on " + site.url("actions.html") in page_content(result_of(model.requests, 3))[1]
    source, read_there = page_content(result_of(model.requests, 6))
    assert source == site.url("actions.html") and "The quick brown fox" in read_there
    assert "the tab the user is on" in result_of(model.requests, 7) and site.url("controls.html") in result_of(model.requests, 7)
    # Back in the user's tab: the opened tab's locator names nothing here, and the reading is this tab's.
    assert "was given on an earlier page or in another tab" in result_of(model.requests, 8)
    assert turn.in_page(HELP_CLICKS) == 0 and len(turn.question_boxes()) == 3
    assert page_content(result_of(model.requests, 9))[0] == site.url("controls.html")
    record = next(r for r in turn.stored_conversations() if r["turns"][0]["text"].startswith("Subscribe me on the actions"))
    called = [e["data"]["name"] for e in record["turns"][0]["events"] if e["kind"] == "tool_call"]
    assert called == ["open_tab", "switch_tab", "list_controls", "click", "type_text", "read_page", "switch_tab",
                      "click", "read_page"]


def test_a_site_the_settings_never_allow_is_not_opened_in_a_tab(turn, model, site, browser):
    """open_tab to a site the settings never allow is refused by them, with no question (issue 46):
    no tab is opened, and the model is told."""
    host = site.url("").split("/")[2].split(":")[0]
    turn.ask_background("save-settings", settings=settings(model, site_rules=f"{host}: never"), apiKey="sk-test")
    tabs_before = len(browser.driver.window_handles)
    model.script(tool_call("open_tab", url="actions.html"), Reply(text="I could not."))
    turn.send("Subscribe me on the actions page, in a new tab")
    turn.wait_for_status("ok")
    assert [box.get_attribute("data-state") for box in turn.question_boxes()] == ["refused_by_settings"]
    assert told(model, 1).startswith("The user denied this open_tab: nothing was done.")
    assert len(browser.driver.window_handles) == tabs_before


def test_a_tab_the_turn_did_not_open_cannot_be_switched_to(turn, model, site, browser):
    other = browser.open_tab(site.url("actions.html"))  # the user's own other tab
    try:
        turn.show(site.url("controls.html"))  # the user comes back to their tab, then the panel
        tabs_now = turn.call_tool("list_tabs")
        other_id = int(re.search(r'"tab_id": (\d+), "title": "Actions"', tabs_now).group(1))
        model.script(tool_call("switch_tab", tab_id=other_id), tool_call("click", locator="[aria-label=Help]"), Reply(text="No."))
        turn.send("Subscribe me in my other tab")
        clicked = turn.question(0)  # the click is asked about the user's tab, not the other one
        assert clicked["details"]["page"] == site.url("controls.html")
        turn.answer_question(0, "deny")
        turn.wait_for_status("ok")
        assert told(model, 1).startswith(f"TabAgent did not switch to tab {other_id}")
        assert f"read_tab(tab_id={other_id})" in told(model, 1)
        browser.driver.switch_to.window(other)
        assert browser.driver.execute_script("return document.getElementById('log').textContent") == "nothing yet"
    finally:
        browser.driver.switch_to.window(other)
        browser.driver.close()
        browser.driver.switch_to.window(turn.window)


def test_the_opened_tab_stays_the_working_tab_after_the_service_worker_was_stopped(turn, model, site):
    stopped = threading.Event()
    model.script(
        tool_call("open_tab", url="actions.html"),
        later(lambda r: {"name": "switch_tab", "arguments": {"tab_id": opened_tab_id(r)}}),
        Reply(tool_calls=[{"name": "list_controls", "arguments": {}}], pause=stopped),  # waits for the stop
        later(lambda r: {"name": "click", "arguments": {"locator": subscribe_locator(r)}}),
        Reply(text="Subscribed."))
    turn.send("Subscribe me on the actions page, in a new tab")
    turn.question(0)
    turn.answer_question(0, "once")
    turn.wait(lambda _: len(model.requests) == 3, 30, "the model was never asked after switch_tab")
    turn.browser.stop_service_worker()  # as Chrome does when it is idle, between two steps
    stopped.set()
    assert turn.question(1)["details"]["page"] == site.url("actions.html")
    turn.answer_question(1, "once")
    turn.wait_for_status("ok")
    assert in_opened_tab(turn, "return document.getElementById('log').textContent") == "subscribed after 1 press"
    assert turn.in_page(HELP_CLICKS) == 0
