"""TabAgent as an MCP server, in Chromium: the official Python SDK's stdio client starts
`tabagent-mcp`, lists its tools, and reads and acts on a local page in the test browser, through
the native host the extension connects to (registered into the test profile, never the user's).
In both eras of the protocol (a stateless 2026-07-28 client, and one that shakes hands).
Every call appears in the panel, in a conversation of the client's own; the click waits for the
question there, answered like a person. Red team: with the setting off the client reaches
nothing; a denied action never runs; Stop cuts the client off mid-question."""

from __future__ import annotations

import shutil
import time

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.tabagent_mcp import CLIENT, ERAS, StdioClient, answered_click, register, socket_folder

from tests.helpers.page_content import page_content

pytestmark = pytest.mark.e2e

LOG = "return document.getElementById('log').textContent"
STORED_KEYS = "chrome.storage.local.get(null).then((all) => Object.keys(all).length)"


@pytest.fixture(scope="module")
def host_folder(browser, tmp_path_factory):
    """The host_folder folder, with the host registered into this browser's profile."""
    folder = socket_folder()
    register(tmp_path_factory.mktemp("home"), folder, "--chrome-profile", str(browser.profile),
             "--chrome-extension-id", browser.extension_id)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def allow_clients(tabs, on: bool) -> None:
    """The settings saved with "Let MCP clients use TabAgent" on or off, as the settings page does."""
    tabs.ask_background("save-settings", settings={"mcp_clients": on})


def host_listening(host_folder, timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while not (host_folder / "host.sock").exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def allowed(tabs, host_folder, site):
    allow_clients(tabs, True)
    assert host_listening(host_folder), "the extension never started the native host"
    tabs.show(site.url("actions.html"))
    yield tabs
    allow_clients(tabs, False)


def calls_in_panel(driver) -> list[str]:
    """The tool calls the panel's last turn shows, as their names."""
    turn = driver.find_elements(By.CSS_SELECTOR, "article.turn")[-1]
    return [step.get_attribute("data-tool") for step in turn.find_elements(By.CSS_SELECTOR, "details.tool[data-tool]")]


@pytest.mark.parametrize("era", ERAS)
def test_a_client_lists_reads_and_acts_with_consent_in_the_panel(era, allowed, host_folder, site):
    """In either era of the protocol: a 2026-07-28 client (server/discover, `_meta`, no initialize)
    or one that shakes hands (initialize)."""
    with StdioClient(host_folder, era) as client:
        assert client.server_name == "tabagent"
        assert {"read_page", "list_controls", "click", "screenshot", "list_tabs"} <= set(client.tool_names())
        failed, text, _ = client.call_tool("read_page")
        assert not failed, text
        source, content = page_content(text)
        assert source == site.url("actions.html") and "The quick brown fox" in content
        allowed.wait(lambda d: "read_page" in calls_in_panel(d), message="the read never showed in the panel")
        assert f"Calls from {CLIENT}" in allowed.driver.find_elements(By.CSS_SELECTOR, "article.turn")[-1].text
        pending = client.start("click", locator="#subscribe")
        asked = allowed.question(0)
        assert asked["message"] == "Click the button “Subscribe”."
        allowed.browser.screenshot("mcp-client-click-asked")
        assert allowed.in_page(LOG) == "nothing yet"
        allowed.answer_question(0, "once")
        failed, text, _ = pending.result(30)
        assert not failed, text
        assert allowed.in_page(LOG) == "subscribed after 1 press"
        assert calls_in_panel(allowed.driver)[-2:] == ["read_page", "click"]


def test_a_denied_action_never_runs_and_the_client_is_told(allowed, host_folder):
    with StdioClient(host_folder) as client:
        _, text = answered_click(client, allowed, 0, "deny")
        assert text.startswith("The user denied this click: nothing was done.")
        assert allowed.in_page(LOG) == "nothing yet"


def test_stop_in_the_panel_cuts_the_client_off_mid_question(allowed, host_folder):
    with StdioClient(host_folder) as client:
        pending = client.start("click", locator="#subscribe")
        allowed.question(0)
        allowed.driver.find_element(By.ID, "stop").click()
        failed, text, _ = pending.result(30)
        assert allowed.in_page(LOG) == "nothing yet"
        allowed.wait(lambda d: not (host_folder / "host.sock").exists(), message="the host was not disconnected")
        failed, text, _ = client.call_tool("read_page")
        assert failed and "TabAgent is not connected" in text


def test_with_the_setting_off_a_client_reaches_nothing(tabs, host_folder, site):
    allow_clients(tabs, False)
    tabs.show(site.url("actions.html"))
    conversations_before = tabs.run(STORED_KEYS)
    with StdioClient(host_folder) as client:
        failed, text, _ = client.call_tool("read_page")
        assert failed and "TabAgent is not connected" in text
        failed, text, _ = client.call_tool("click", locator="#subscribe")
        assert failed and tabs.in_page(LOG) == "nothing yet"
    assert not (host_folder / "host.sock").exists()
    after = tabs.run(STORED_KEYS)
    assert after == conversations_before  # no session was recorded: nothing was read


def test_red_team_a_second_program_on_the_socket_is_not_served_under_the_first_clients_allowance(allowed, host_folder):
    """The user allows the coding agent's clicks for its session; a second program connects to
    TabAgent calling itself by the same name. Its click is asked, in a session of its own, in
    the client's name (issue 46, 5); the first program's allowance still holds for it alone."""
    with StdioClient(host_folder) as first, StdioClient(host_folder) as second:
        pending = first.start("click", locator="#subscribe")
        asked = allowed.question(0)
        allowed.answer_question(0, "turn")
        assert not pending.result(30)[0]
        failed, text, _ = first.call_tool("click", locator="#subscribe")  # its own allowance: not asked
        assert not failed, text
        pending = second.start("click", locator="#subscribe")
        again = allowed.question(0)  # a conversation of its own, opened in the panel
        allowed.answer_question(0, "deny")
        failed, text, _ = pending.result(30)
        assert text.startswith("The user denied this click: nothing was done.")
        assert asked["actor"] == again["actor"] == f"The MCP client {CLIENT} asks:"
        assert allowed.in_page(LOG) == "subscribed after 2 press"  # the page's own words: two presses, both the first's
