"""TabAgent as an MCP server, in each browser: the official Python SDK's stdio client starts
`tabagent-mcp`, lists its tools, and reads and acts on a local page in the test browser, through
the native host the extension connects to (registered with `tabagent-mcp register` into the test
Chromium's profile, or into a HOME of the test's own that a Firefox of this module's is started
with: never the user's). In both eras of the protocol (a stateless 2026-07-28 client, and one
that shakes hands). Every call appears in the panel, in a conversation of the client's own; the
click waits for the question there, answered like a person. Red team: with the setting off the
client reaches nothing; a denied action never runs; Stop cuts the client off mid-question; a
second program on the socket is not served under the first one's allowance."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers.page_content import page_content
from tests.helpers.panel_driver import LAST_TURN
from tests.helpers.tabagent_mcp import CLIENT, ERAS, StdioClient, answered_click, register, socket_folder
from tests.helpers.waiting import until

LOG = "document.getElementById('log').textContent"
STORED_KEYS = "chrome.storage.local.get(null).then((all) => Object.keys(all).length)"
# The tool calls the panel's last turn shows, as their names.
CALLS_SHOWN = f"[...{LAST_TURN}.querySelectorAll('details.tool[data-tool]')].map((step) => step.dataset.tool)"


@pytest.fixture(scope="module")
def host_folder(browser_name):
    """The folder where the host listens (one for each browser's run)."""
    folder = socket_folder()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def client_tabs(request, browser_name, host_folder, tmp_path_factory):
    """The panel beside the user's tab, in a browser whose native host is registered: the
    module's Chromium (into its profile), or a Firefox of this module's own (into its HOME)."""
    home = tmp_path_factory.mktemp("home")
    if browser_name == "chromium":
        browser = request.getfixturevalue("browser")
        register(home, host_folder, "--chrome-profile", str(browser.profile), "--chrome-extension-id", browser.extension_id)
        yield request.getfixturevalue("tabs")
        return
    yield from firefox_with_host(request.getfixturevalue("firefox_build"), home, host_folder)


def firefox_with_host(build, home, host_folder):
    from tests.helpers.firefox import Firefox
    from tests.helpers.panel_backends import FirefoxPanel

    (home / ".mozilla").mkdir()
    written = register(home, host_folder)
    assert any(".mozilla/native-messaging-hosts/tabagent_mcp.json" in line for line in written), written
    firefox = Firefox(env={"HOME": str(home)}).start(build)
    yield FirefoxPanel.beside_a_page(firefox)
    problems = firefox.take_problems()  # conftest's check looks at the `firefox` fixture only
    firefox.quit()
    assert not problems, "errors in the extension:\n" + "\n".join(problems)


def allow_clients(tabs, on: bool) -> None:
    """The settings saved with "Let MCP clients use TabAgent" on or off, as the settings page does."""
    tabs.ask_background("save-settings", settings={"mcp_clients": on})


@pytest.fixture
def allowed(client_tabs, host_folder, site):
    allow_clients(client_tabs, True)
    until(lambda: (host_folder / "host.sock").exists(), 30, "the extension never started the native host")
    client_tabs.show(site.url("actions.html"))
    yield client_tabs
    allow_clients(client_tabs, False)


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
        allowed.wait_for(f"{CALLS_SHOWN}.includes('read_page')", message="the read never showed in the panel")
        assert f"Calls from {CLIENT}" in allowed.run(f"{LAST_TURN}.textContent")
        pending = client.start("click", locator="#subscribe")
        asked = allowed.question(0)
        assert asked["message"] == "Click the button “Subscribe”."
        allowed.screenshot("mcp-client-click-asked")
        assert allowed.page_value(LOG) == "nothing yet"
        allowed.answer_question(0, "once")
        failed, text, _ = pending.result(30)
        assert not failed, text
        assert allowed.page_value(LOG) == "subscribed after 1 press"
        assert allowed.run(CALLS_SHOWN)[-2:] == ["read_page", "click"]
        _, text = answered_click(client, allowed, 1, "deny")  # "once" was for that click only
        assert text.startswith("The user denied this click: nothing was done.")
        assert allowed.page_value(LOG) == "subscribed after 1 press"


def test_a_denied_action_never_runs_and_the_client_is_told(allowed, host_folder):
    with StdioClient(host_folder) as client:
        _, text = answered_click(client, allowed, 0, "deny")
        assert text.startswith("The user denied this click: nothing was done.")
        assert allowed.page_value(LOG) == "nothing yet"


def test_stop_in_the_panel_cuts_the_client_off_mid_question(allowed, host_folder):
    with StdioClient(host_folder) as client:
        pending = client.start("click", locator="#subscribe")
        allowed.question(0)
        allowed.click("#stop")
        failed, text, _ = pending.result(30)
        assert allowed.page_value(LOG) == "nothing yet"
        until(lambda: not (host_folder / "host.sock").exists(), 30, "the host was not disconnected")
        failed, text, _ = client.call_tool("read_page")
        assert failed and "TabAgent is not connected" in text


def test_with_the_setting_off_a_client_reaches_nothing(client_tabs, host_folder, site):
    tabs = client_tabs
    allow_clients(tabs, False)
    tabs.show(site.url("actions.html"))
    stored_before, conversations_before = tabs.run(STORED_KEYS), len(tabs.stored_conversations())
    with StdioClient(host_folder) as client:
        failed, text, _ = client.call_tool("read_page")
        assert failed and "TabAgent is not connected" in text
        failed, text, _ = client.call_tool("click", locator="#subscribe")
        assert failed and tabs.page_value(LOG) == "nothing yet"
    assert not (host_folder / "host.sock").exists()
    # no session was recorded: nothing was read
    assert (tabs.run(STORED_KEYS), len(tabs.stored_conversations())) == (stored_before, conversations_before)


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
        assert allowed.page_value(LOG) == "subscribed after 2 press"  # the page's own words: two presses, both the first's
