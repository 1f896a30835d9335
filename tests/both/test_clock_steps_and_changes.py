"""Issue 51, through the real extension and a scripted model, in both browsers: the date, time
and time zone in the request the model receives, five actions in one reply each asked and done
on the page the one before left, a read in that reply seeing what they did, a success message
read after an action, and (red team) a page that asks for 300 steps getting the user's setting."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from tests.helpers.model_server import Reply

# The browser's own clock and zone, as the extension's pages read them ("en-GB": the words the
# request is written in: "Sunday", "6 December 2026").
BROWSER_NOW = ("(() => { const now = new Date(); return [Intl.DateTimeFormat().resolvedOptions().timeZone,"
               " now.toLocaleDateString('en-GB', {weekday: 'long'}),"
               " now.toLocaleDateString('en-GB', {day: 'numeric', month: 'long', year: 'numeric'}),"
               " now.getHours() * 60 + now.getMinutes()]; })()")


@pytest.fixture
def scripted_panel(tabs, model):
    """The panel on a new conversation with the scripted tool-calling model (max_steps as given)."""
    def start(page: str | None = None, **settings):
        model.reset()
        tabs.configure(model.base_url, **settings)
        return tabs.new_conversation(on=page)
    yield start
    tabs.configure(model.base_url)


def calls(*named):
    return Reply(tool_calls=[{"name": name, "arguments": arguments} for name, arguments in named])


def results(model, request):
    return [m["content"] for m in model.requests[request]["body"]["messages"] if m["role"] == "tool"]


def in_the_page(tabs, browser_name, expression: str):
    """The value of `expression` in the user's page (Selenium runs a script body, BiDi an expression)."""
    return tabs.in_page(f"return {expression}" if browser_name == "chromium" else expression)


def test_the_request_says_todays_date_time_and_the_browsers_time_zone(scripted_panel, model, tabs):
    panel = scripted_panel()
    model.script(Reply(text="It is a Tuesday."))
    zone, day, date, minutes = tabs.run(BROWSER_NOW)  # in the browser's zone, not the test's
    panel.send("What day is it today?")
    assert panel.wait_for_status("ok") == "ok"
    system = model.requests[0]["body"]["messages"][0]["content"]
    assert f"Now: {day} {date}, " in system and f"({zone})." in system
    said = datetime.strptime(system.split(f"Now: {day} {date}, ", 1)[1][:5], "%H:%M")
    assert (said.hour * 60 + said.minute - minutes) % (24 * 60) <= 2  # the time, read when the turn began


def test_five_actions_in_one_reply_each_asked_on_the_page_the_last_left_and_the_read_after_them(
        scripted_panel, model, site, tabs, browser_name):
    panel = scripted_panel(site.url("steps-app.html"))
    model.script(calls(*(("click", {"locator": f"#b{n}"}) for n in range(1, 6)), ("read_page", {})),
                 Reply(text="All five done."))
    panel.send("Do the five steps in order, then tell me the code")
    for n in range(5):  # each question comes once the action before it is done
        asked = panel.question(n)
        assert asked["message"] == f"Click the button “Step {n + 1}”."
        assert in_the_page(tabs, browser_name, "document.getElementById('log').textContent") == "pressed:" + "".join(
            f" {k}" for k in range(1, n + 1))
        panel.answer_question(n, "once")
    assert panel.wait_for_status("ok") == "ok"
    told = results(model, 1)
    assert not [text for text in told if "Nothing was done" in text]
    assert "Well done: all five steps in order. Code 4711." in told[5]
    assert in_the_page(tabs, browser_name, "document.getElementById('log').textContent") == "pressed: 1 2 3 4 5"


def test_a_success_message_and_new_text_are_read_after_the_action(scripted_panel, model, site):
    panel = scripted_panel(site.url("saved-note.html"))
    model.script(calls(("click", {"locator": "#save"}), ("read_page", {})), Reply(text="Saved."))
    panel.send("Save my note")
    assert panel.question(0)["message"] == "Click the button “Save”."
    panel.answer_question(0, "once")
    assert panel.wait_for_status("ok") == "ok"
    read = results(model, 1)[1]
    said = read.split("What the page is saying now, and text new since the last read:\n", 1)[1]
    assert "- (status) Saved. Your note is number 27." in said
    assert read.count("Synced to 3 devices") == 1  # the form's reading has it: not said twice


def test_text_that_appeared_beside_an_article_is_read(scripted_panel, model, site):
    """An article's reading leaves out a line beside it; once it appears after an action it is read."""
    panel = scripted_panel(site.url("liked-story.html"))
    model.script(calls(("read_page", {}), ("click", {"locator": "#like"}), ("read_page", {})), Reply(text="Liked."))
    panel.send("Read the story and like it")
    panel.question(0)
    panel.answer_question(0, "once")
    assert panel.wait_for_status("ok") == "ok"
    before, _, after = results(model, 1)
    assert "lighthouse" in before and "reader 318" not in before
    assert "- (new) Thanks! You are reader 318 to like this." in after


def test_red_team_a_page_that_asks_for_300_steps_gets_the_users_setting(scripted_panel, model, site):
    panel = scripted_panel(site.url("three-hundred-steps.html"), max_steps=3)
    model.script(*[calls(("read_page", {}))] * 3, Reply(text="I stopped at the user's limit."))
    panel.send("Play the memory game")
    assert panel.wait_for_status("max_steps", "ok") == "max_steps"
    assert len(model.requests) == 4  # three steps, then the best answer: the page's 300 counts for nothing
    assert "You have used all your steps" in json.dumps(model.requests[3]["body"]["messages"][-1])
    assert "300 for this game" in results(model, 2)[-1]  # the page did ask, and was read
