"""TabAgent as an MCP server, in Firefox as in Chromium (tests/e2e/test_mcp_server.py): the
official Python SDK's stdio client starts `tabagent-mcp`, lists its tools, reads a local page and
clicks on it once the question is answered in the chat page, through the native host Firefox
starts, in both eras of the protocol (a stateless 2026-07-28 client and a handshake one)
(registered with `tabagent-mcp register` into a HOME of the test's own, which this Firefox
is started with: never the user's). A denied click never happens."""

from __future__ import annotations

import shutil
import time

import pytest

from tests.helpers.firefox import Firefox
from tests.helpers.page_content import page_content
from tests.helpers.panel_backends import FirefoxPanel
from tests.helpers.tabagent_mcp import CLIENT, ERAS, StdioClient, answered_click, register, socket_folder

LOG = "document.getElementById('log').textContent"


@pytest.fixture(scope="module")
def firefox_host_folder(tmp_path_factory):
    folder = socket_folder()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def firefox_with_host(firefox_build, firefox_host_folder, tmp_path_factory):
    """A Firefox of this module's own, whose HOME holds the host's manifest."""
    home = tmp_path_factory.mktemp("home")
    (home / ".mozilla").mkdir()
    written = register(home, firefox_host_folder)
    assert any(".mozilla/native-messaging-hosts/tabagent_mcp.json" in line for line in written), written
    instance = Firefox(env={"HOME": str(home)}).start(firefox_build)
    yield instance
    problems = instance.take_problems()  # conftest's check looks at the `firefox` fixture only
    instance.quit()
    assert not problems, "errors in the extension:\n" + "\n".join(problems)


@pytest.fixture
def client_tab(firefox_with_host, firefox_host_folder, site):
    tab = FirefoxPanel.beside_a_page(firefox_with_host)
    tab.show(site.url("actions.html"))
    tab.ask_background("save-settings", settings={"mcp_clients": True})
    deadline = time.monotonic() + 30
    while not (firefox_host_folder / "host.sock").exists():
        assert time.monotonic() < deadline, "Firefox never started the native host"
        time.sleep(0.05)
    yield tab
    tab.ask_background("save-settings", settings={"mcp_clients": False})


@pytest.mark.parametrize("era", ERAS)
def test_a_client_lists_reads_and_acts_with_consent_in_the_chat(era, client_tab, firefox_host_folder, site):
    panel = client_tab
    with StdioClient(firefox_host_folder, era) as client:
        assert client.server_name == "tabagent"
        assert {"read_page", "click", "screenshot"} <= set(client.tool_names())
        failed, text, _ = client.call_tool("read_page")
        assert not failed, text
        source, content = page_content(text)
        assert source == site.url("actions.html") and "The quick brown fox" in content
        pending = client.start("click", locator="#subscribe")
        assert panel.question(0)["message"] == "Click the button “Subscribe”."
        assert CLIENT in panel.run("document.querySelector('article.turn:last-of-type')?.textContent ?? ''")
        assert panel.in_page(LOG) == "nothing yet"
        panel.answer_question(0, "once")
        failed, text, _ = pending.result(30)
        assert not failed, text
        assert panel.in_page(LOG) == "subscribed after 1 press"
        _, text = answered_click(client, panel, 1, "deny")
        assert text.startswith("The user denied this click: nothing was done.")
        assert panel.in_page(LOG) == "subscribed after 1 press"


def test_red_team_a_second_program_on_the_socket_is_not_served_under_the_first_clients_allowance(client_tab, firefox_host_folder):
    """As in Chromium: the user allows the coding agent's clicks for its session; a second program
    connected to TabAgent under the same name is asked, in a session of its own (issue 46, 5)."""
    panel = client_tab
    with StdioClient(firefox_host_folder) as first, StdioClient(firefox_host_folder) as second:
        pending = first.start("click", locator="#subscribe")
        asked = panel.question(0)
        panel.answer_question(0, "turn")
        assert not pending.result(30)[0]
        failed, text, _ = first.call_tool("click", locator="#subscribe")  # its own allowance: not asked
        assert not failed, text
        pending = second.start("click", locator="#subscribe")
        again = panel.question(0)  # a conversation of its own, opened in the chat
        panel.answer_question(0, "deny")
        assert pending.result(30)[1].startswith("The user denied this click: nothing was done.")
        assert asked["actor"] == again["actor"] == f"The MCP client {CLIENT} asks:"
        assert panel.in_page(LOG) == "subscribed after 2 press"
