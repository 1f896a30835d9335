"""Signing in to an MCP server with OAuth 2.1 through the whole extension, against an MCP
server and its authorization server made of the official Python SDK's auth pieces on two ports
of 127.0.0.1 (tests/helpers/oauth_mcp_server.py): Sign in in settings opens the browser's own
sign-in window (identity.launchWebAuthFlow), whose login page is filled as a person would;
settings then say who is signed in; a turn calls the server's tool with the token, refreshed
without asking when the server has ended it; Sign out forgets it. The token is never in what a
content script, the conversations (what an export writes) or the server list can see."""

import json

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.oauth_mcp_server import CLIENT_ID, CLIENT_SECRET, Hostile, PASSWORD, USER
from tests.helpers.tool_calls import tool_call, told
from tests.helpers.panel_backends import chromium_panel
from tests.helpers.mcp_settings import use_servers

from tests.helpers.page_content import page_content
from .red_team import as_content_script

pytestmark = pytest.mark.e2e


def settings_row(driver):
    return driver.find_element(By.CSS_SELECTOR, '.mcp-server[data-server-id="id-tracker"]')


def settings_with(browser, server_url: str, name: str = "tracker") -> str:
    """Settings in a tab of their own, with the one MCP server at `server_url` saved, once its
    Sign in is drawn (a loaded machine draws it after the tab has loaded): the tab."""
    use_servers(chromium_panel(browser), {"id": "id-tracker", "name": name, "url": server_url, "enabled": True, "tools": {}})
    settings_tab = browser.open_tab(browser.url("extension/options/options.html"))
    browser.wait(lambda d: d.find_elements(By.CSS_SELECTOR, '.mcp-server[data-server-id="id-tracker"] .mcp-sign-in-button'),
                 30, "the server's Sign in was never drawn")
    return settings_tab


def shown(browser, selector: str, timeout: float, message: str) -> str:
    """The text of the settings' element at `selector`, once drawn with some, scrolled into view;
    read in the page each time (settings draw a row again as a sign-in and its check land)."""
    return browser.wait(lambda d: d.execute_script(
        "const e = document.querySelector(arguments[0]); e?.scrollIntoView(); return e?.textContent.trim();", selector),
        timeout, message)


def sign_in_as_a_person(browser, settings_tab):
    """Clicks Sign in, finds the browser's sign-in window, fills its login page and submits it."""
    driver = browser.driver
    before = set(driver.window_handles)
    settings_row(driver).find_element(By.CSS_SELECTOR, ".mcp-sign-in-button").click()
    window = browser.wait(lambda d: next(iter(set(d.window_handles) - before), None), 30, "no sign-in window opened")
    driver.switch_to.window(window)
    browser.wait(lambda d: d.find_elements(By.NAME, "username"), 30, "the login page never showed")
    driver.find_element(By.NAME, "username").send_keys(USER)
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    driver.switch_to.window(settings_tab)


def stored_sign_ins(browser):
    return browser.driver.execute_async_script(
        "const done = arguments[0]; chrome.storage.local.get(['mcpSignIns', 'mcpServers', 'mcpSecrets']).then(done);")


def test_sign_in_call_refresh_and_sign_out(browser, panel, model, oauth_tracker, site):
    panel_tab = browser.driver.current_window_handle
    settings_tab = settings_with(browser, oauth_tracker.url)
    browser.driver.execute_script("arguments[0].scrollIntoView()", settings_row(browser.driver))
    browser.screenshot("mcp-oauth-sign-in")
    sign_in_as_a_person(browser, settings_tab)
    assert shown(browser, ".mcp-signed-in", 30, "settings never said who is signed in") == \
        "Signed in as Ada Lovelace (ada@example.test)"
    status = shown(browser, ".mcp-status[data-ok=true]", 60, "Test connection never succeeded after signing in")
    assert status.startswith("tabagent-oauth-test-server")
    browser.screenshot("mcp-oauth-signed-in")
    stored = stored_sign_ins(browser)
    record = stored["mcpSignIns"]["id-tracker"]
    assert record["server_url"] == oauth_tracker.url and record["access_token"].startswith("at-")
    assert "at-" not in json.dumps(stored["mcpServers"]) + json.dumps(stored.get("mcpSecrets") or {})

    # The server ends the token (as its lifetime would, long before the record says): the turn's
    # call is refused, and the token refreshed and the call made again without asking the user.
    tokens_before = [s for s in oauth_tracker.seen() if s["path"] == "/token"]
    oauth_tracker.expire_tokens()
    model.script(tool_call("tracker__whoami"), Reply(text="You are user-1815."))
    browser.driver.switch_to.window(panel_tab)
    panel.send("Who am I on the tracker?")
    assert panel.question(0)["details"]["tool"] == "whoami"
    panel.answer_question(0, "once")
    panel.wait_for_status("ok")
    assert page_content(told(model, 1))[1] == "signed in as user-1815"
    assert panel.run("document.querySelectorAll('article.turn .confirmation').length") == 1  # no sign-in asked
    assert len([s for s in oauth_tracker.seen() if s["path"] == "/token"]) > len(tokens_before)  # refreshed
    fresh = stored_sign_ins(browser)["mcpSignIns"]["id-tracker"]["access_token"]
    assert fresh != record["access_token"]
    assert fresh not in json.dumps(panel.stored_conversations())  # what an export writes

    # A content script (in a web page's tab) reads no storage, so no token.
    browser.open_tab(site.url("article.html"))
    seen = as_content_script(browser, site.url("article.html"), """async () => {
      try { return { read: await chrome.storage.local.get(null) }; } catch (error) { return { error: String(error) }; }
    }""")
    assert "error" in seen and fresh not in json.dumps(seen)

    # Sign out: forgotten here, revoked there.
    browser.driver.switch_to.window(settings_tab)
    settings_row(browser.driver).find_element(By.CSS_SELECTOR, ".mcp-sign-out").click()
    browser.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".mcp-sign-in-button"), 30, "Sign in never came back")
    assert "id-tracker" not in (stored_sign_ins(browser).get("mcpSignIns") or {})
    assert [s for s in oauth_tracker.seen() if s["path"] == "/revoke"]
    use_servers(chromium_panel(browser))


def test_a_server_whose_metadata_names_another_server_gets_no_sign_in(browser, oauth_tracker):
    """A hostile server answers 401 with resource metadata naming the real tracker as its
    resource and the tracker's authorization server: signing in would make a token for the
    tracker and hand it to the hostile server. Settings refuse in words, no window opens, and
    the authorization server hears nothing."""
    metadata = json.dumps({"resource": oauth_tracker.url, "authorization_servers": [oauth_tracker.issuer]}).encode()
    hostile = Hostile({"/mcp": (401, {"www-authenticate": 'Bearer resource_metadata="http://127.0.0.1:{port}/prm"'}, b""),
                       "/prm": (200, {"content-type": "application/json"}, metadata)})
    try:
        settings_tab = settings_with(browser, hostile.url, name="lookalike")
        before, heard_before = set(browser.driver.window_handles), len(oauth_tracker.seen())
        settings_row(browser.driver).find_element(By.CSS_SELECTOR, ".mcp-sign-in-button").click()
        said = browser.wait(lambda d: (s := d.find_elements(By.CSS_SELECTOR, ".mcp-sign-in-status")) and "another server" in s[0].text and s[0], 30,
                    "the sign-in was not refused in words")
        assert said.text.startswith(f"the MCP server at {hostile.url} sent sign-in details for another server")
        browser.driver.execute_script("arguments[0].scrollIntoView()", said)
        browser.screenshot("mcp-oauth-refused")
        assert set(browser.driver.window_handles) == before and browser.driver.current_window_handle == settings_tab
        assert oauth_tracker.seen()[heard_before:] == []
        assert not (stored_sign_ins(browser).get("mcpSignIns") or {})
    finally:
        hostile.close()
        use_servers(chromium_panel(browser))


def test_a_typed_client_secret_goes_to_the_token_endpoint_only(browser, panel, confidential_tracker):
    """The secret is typed in settings, the sign-in uses it (the token endpoint checks it), and
    afterwards it is not in the field, not in what an export writes or the server list, and no
    request but the token request carried it."""
    settings_tab = settings_with(browser, confidential_tracker.url)
    row = settings_row(browser.driver)
    row.find_element(By.CSS_SELECTOR, ".mcp-client-id").send_keys(CLIENT_ID)
    row.find_element(By.CSS_SELECTOR, ".mcp-client-secret").send_keys(CLIENT_SECRET)
    sign_in_as_a_person(browser, settings_tab)
    assert shown(browser, ".mcp-signed-in", 30, "settings never said who is signed in") == \
        "Signed in as Ada Lovelace (ada@example.test)"
    carried = [(seen["side"], seen["path"]) for seen in confidential_tracker.seen(everywhere=True) if seen["secret"]]
    assert carried == [("authorization server", "/token")]
    # in the form, as the client was registered, though the metadata lists HTTP Basic first
    assert [seen["client_auth"] for seen in confidential_tracker.seen() if seen["path"] == "/token"] == ["post"]
    page = browser.driver.execute_script("return document.documentElement.outerHTML")
    fields = browser.driver.execute_script("return [...document.querySelectorAll('input')].map((i) => i.value)")
    assert CLIENT_SECRET not in page and CLIENT_SECRET not in json.dumps(fields)
    stored = stored_sign_ins(browser)
    assert stored["mcpSignIns"]["id-tracker"]["client_secret"] == CLIENT_SECRET  # kept like the API key
    assert CLIENT_SECRET not in json.dumps(stored["mcpServers"]) + json.dumps(stored.get("mcpSecrets") or {})
    browser.driver.switch_to.window(settings_tab)
    browser.driver.refresh()
    browser.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".mcp-signed-in"), 30, "settings did not come back")
    assert CLIENT_SECRET not in browser.driver.execute_script("return document.documentElement.outerHTML")
    assert CLIENT_SECRET not in json.dumps(panel.stored_conversations())  # what an export writes
    settings_row(browser.driver).find_element(By.CSS_SELECTOR, ".mcp-sign-out").click()
    browser.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".mcp-sign-in-button"), 30, "Sign in never came back")
    assert [seen["path"] for seen in confidential_tracker.seen(everywhere=True) if seen["secret"]] == ["/token"]
    use_servers(chromium_panel(browser))
