"""A turn's MCP server asks for sign-in, through the whole extension (Chromium): the server is in
settings but nobody signed in; the turn's first request gets a 401, the panel asks the user to
sign in to it (naming the server), and only once they say yes does the browser's own sign-in
window open (identity.launchWebAuthFlow), whose login page is filled as a person would; the turn
then goes on with the token, the call asked as ever, and the record is kept where the API key
is. Refused, no window opens and the authorization server hears nothing."""

import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.helpers.mcp_settings import server_entry, use_servers
from tests.helpers.model_server import Reply
from tests.helpers.oauth_mcp_server import PASSWORD, USER
from tests.helpers.page_content import page_content
from tests.helpers.tool_calls import tool_call, told

pytestmark = pytest.mark.e2e


def log_in_in_the_window(panel, before: set) -> None:
    driver = panel.driver
    window = WebDriverWait(driver, 30).until(lambda d: next(iter(set(d.window_handles) - before), None),
                                             "no sign-in window opened")
    here = driver.current_window_handle
    driver.switch_to.window(window)
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.NAME, "username"), "the login page never showed")
    driver.find_element(By.NAME, "username").send_keys(USER)
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    driver.switch_to.window(here)


def sign_ins(panel) -> dict:
    return panel.driver.execute_async_script(
        "const done = arguments[0]; chrome.storage.local.get(['mcpSignIns']).then((s) => done(s.mcpSignIns || {}));")


def test_a_turn_asks_to_sign_in_then_calls_with_the_token(panel, model, oauth_tracker):
    use_servers(panel, server_entry(oauth_tracker, name="tracker"))
    try:
        model.script(tool_call("tracker__whoami"), Reply(text="You are user-1815."))
        before = set(panel.driver.window_handles)
        panel.send("Who am I on the tracker?")
        asked = panel.question(0, timeout=60)
        assert asked["message"] == "The MCP server tracker asks you to sign in"
        assert set(panel.driver.window_handles) == before  # no window before the user says yes
        panel.screenshot("mcp-turn-asks-sign-in")
        panel.answer_question(0, "once")
        log_in_in_the_window(panel, before)
        assert panel.question(1, timeout=60)["message"] == "Call a tool of the MCP server tracker"
        panel.answer_question(1, "once")
        panel.wait_for_status("ok")
        assert page_content(told(model, 1))[1] == "signed in as user-1815"
        record = sign_ins(panel)["id-tracker"]
        assert record["server_url"] == oauth_tracker.url and record["access_token"].startswith("at-")
    finally:
        use_servers(panel)


def test_a_sign_in_the_user_refuses_opens_no_window(panel, model, oauth_tracker):
    use_servers(panel, server_entry(oauth_tracker, name="tracker"))
    try:
        model.script(Reply(text="I could not reach the tracker."))
        before, heard = set(panel.driver.window_handles), len(oauth_tracker.seen())
        panel.send("Who am I on the tracker?")
        panel.question(0, timeout=60)
        panel.answer_question(0, "deny")
        panel.wait_for_status("ok")
        assert set(panel.driver.window_handles) == before
        assert [s for s in oauth_tracker.seen()[heard:] if s["path"] in ("/register", "/authorize", "/token")] == []
        errors = panel.run("[...document.querySelectorAll('article.turn')].at(-1).textContent")
        assert "needs authorisation" in errors
        assert json.dumps(sign_ins(panel)) == "{}"
    finally:
        use_servers(panel)
