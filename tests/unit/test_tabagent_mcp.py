"""tabagent-mcp (mcp-server/), the MCP server and native host, without a browser: the host
passes a call to the browser and its answer back (native messaging's framing on real pipes);
`register` writes each browser's manifest with the extension's id; the tools offered are
TabAgent's own, with their parameters. Its red team is in test_tabagent_mcp_red_team.py."""

from __future__ import annotations

import inspect
import json
import os
import sys
from pathlib import Path

import pytest

from tests.helpers.tabagent_mcp import PACKAGE, BrowserEnd, ask, register, socket_folder

sys.path.insert(0, str(PACKAGE))

from tabagent_mcp import HOST_NAME, tools  # noqa: E402
from tabagent_mcp.register import FIREFOX_ADDON_ID, unpacked_extension_id  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_the_host_passes_a_call_to_the_browser_and_its_answer_back():
    browser = BrowserEnd(socket_folder())
    try:
        client = ask(browser.socket, {"tool": "read_page", "args": {"page": 2}, "client": "inspector"})
        call = browser.receive()
        assert call == {"id": call["id"], "tool": "read_page", "args": {"page": 2}, "client": "inspector",
                        "connection": call["connection"]} and len(call["connection"]) == 32
        browser.send({"id": call["id"], "ok": True, "result": "the page"})
        assert json.loads(client.makefile().readline()) == {"ok": True, "result": "the page"}
        client.close()
        assert browser.receive() == {"connection": call["connection"], "ended": True}  # its session ends with it
        assert oct(browser.socket.stat().st_mode & 0o777) == "0o600"
    finally:
        browser.close()
    assert not browser.socket.exists()  # gone with the host: nobody to reach


def test_each_connection_is_a_session_of_its_own_whatever_name_its_client_gives():
    """A second program on the socket, calling itself what the first does, is another session:
    the browser tells them apart by their connection, not by the name (issue 46, 5)."""
    browser = BrowserEnd(socket_folder())
    try:
        first = ask(browser.socket, {"tool": "click", "args": {"locator": "#a"}, "client": "claude-code"})
        one = browser.receive()
        forged = {"tool": "click", "args": {"locator": "#a"}, "client": "claude-code", "connection": one["connection"]}
        second = ask(browser.socket, forged)  # a second program writing the first one's id: not taken
        two = browser.receive()
        assert (one["client"], two["client"]) == ("claude-code", "claude-code") and one["connection"] != two["connection"]
        first.sendall(json.dumps({"tool": "read_page", "args": {}}).encode() + b"\n")
        assert browser.receive()["connection"] == one["connection"]  # the same connection, the same session
        first.close()
        assert browser.receive() == {"connection": one["connection"], "ended": True}
        second.close()
    finally:
        browser.close()


def test_a_call_that_is_not_one_is_answered_without_reaching_the_browser():
    browser = BrowserEnd(socket_folder())
    try:
        client = ask(browser.socket, {"args": {}})
        assert json.loads(client.makefile().readline())["ok"] is False
        ask(browser.socket, {"tool": "list_tabs"})
        assert browser.receive()["tool"] == "list_tabs"  # the first never reached it
    finally:
        browser.close()


def test_red_team_a_call_longer_than_any_is_refused_before_it_is_read_whole():
    """A local program sends the host a line with no end: it is refused once it passes the longest
    call, and the host never waits for the rest (it read a whole line before checking it)."""
    import socket
    import time

    from tabagent_mcp.host import MOST_FROM_CLIENT

    browser = BrowserEnd(socket_folder())
    try:
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(str(browser.socket))
        client.sendall(b'{"tool": "click", "args": {"locator": "' + b"x" * (MOST_FROM_CLIENT + 1024))  # and no end
        client.settimeout(10)
        started = time.monotonic()
        answer = client.makefile().readline()
        assert json.loads(answer) == {"ok": False, "error": "That call is too long."}
        assert time.monotonic() - started < 10
        assert browser.receive().get("ended") is True  # that connection's session ends with it
        ask(browser.socket, {"tool": "list_tabs"})
        assert browser.receive()["tool"] == "list_tabs"  # the long one never reached the browser
    finally:
        browser.close()


def test_red_team_a_length_from_the_browser_above_what_it_may_send_is_never_read():
    import io
    import struct

    from tabagent_mcp.native_messaging import MOST_FROM_BROWSER, read_message

    class Counting(io.BytesIO):
        asked = 0

        def read(self, size=-1):
            Counting.asked = max(Counting.asked, size)
            return super().read(size)

    stream = Counting(struct.pack("=I", 0xFFFFFFFF) + b"{}")
    assert read_message(stream) is None and Counting.asked <= 4  # the 4 GB body was never asked for
    fine = io.BytesIO(struct.pack("=I", 2) + b"{}")
    assert read_message(fine) == {} and MOST_FROM_BROWSER == 64 * 1024 * 1024


def test_register_writes_each_browsers_manifest_with_the_extension_id(tmp_path):
    home, profile = tmp_path / "home", tmp_path / "profile"
    (home / ".mozilla").mkdir(parents=True)
    (home / ".config" / "chromium").mkdir(parents=True)
    written = register(home, tmp_path / "meet", "--chrome-profile", str(profile), "--chrome-extension-id", "a" * 32)
    chromium = json.loads((profile / "NativeMessagingHosts" / f"{HOST_NAME}.json").read_text())
    firefox = json.loads((home / ".mozilla" / "native-messaging-hosts" / f"{HOST_NAME}.json").read_text())
    assert chromium["allowed_origins"] == [f"chrome-extension://{'a' * 32}/", f"chrome-extension://{unpacked_extension_id(ROOT)}/"]
    assert firefox["allowed_extensions"] == [FIREFOX_ADDON_ID]
    assert chromium["path"] == firefox["path"] and os.access(chromium["path"], os.X_OK)
    assert not (home / ".config" / "chromium" / "NativeMessagingHosts").exists()  # only the profile named
    assert sorted(written) == sorted(["wrote", str(profile / "NativeMessagingHosts" / f"{HOST_NAME}.json"), "wrote",
                                      str(home / ".mozilla" / "native-messaging-hosts" / f"{HOST_NAME}.json")])


def test_the_firefox_id_is_the_manifests():
    manifest = json.loads((ROOT / "manifest.json").read_text())
    assert manifest["browser_specific_settings"]["gecko"]["id"] == FIREFOX_ADDON_ID
    assert "nativeMessaging" in manifest["permissions"]


def test_the_tools_offered_are_tabagents_own_with_their_parameters():
    from tabagent.app.page_tools import page_tools
    from tabagent.app.consent import CalledByHand
    from tabagent.app.wire import CLIENT_TOOLS

    own = {t.name: t for t in page_tools(object(), CalledByHand())}  # listed, never called
    assert [f.__name__ for f in tools.TOOLS] == list(CLIENT_TOOLS)
    for function in tools.TOOLS:
        offered = set(inspect.signature(function).parameters) - {"ctx"}  # the SDK's, not the model's
        assert offered <= set(inspect.signature(own[function.__name__].forward).parameters), function.__name__


@pytest.mark.parametrize("tool", ["read_page", "click"])
def test_a_tool_with_no_tabagent_to_reach_says_how_to_switch_it_on(tool, tmp_path, monkeypatch):
    import asyncio

    from mcp.server.mcpserver.exceptions import ToolError

    monkeypatch.setenv("TABAGENT_MCP_DIR", str(socket_folder()))
    with pytest.raises(ToolError, match="Let MCP clients use TabAgent"):
        asyncio.run(getattr(tools, tool)(**({"locator": "#x"} if tool == "click" else {})))


def test_each_client_connection_is_told_apart_whatever_name_it_claims():
    """Red team: a second client names itself as the first (its clientInfo, in either era, is its
    own word) to use what the user allowed the first. Each server process (one per client
    connection) stamps its calls with an id of its own, which the extension keys sessions by."""
    from tests.helpers.tabagent_mcp import CLIENT, StdioClient

    folder = socket_folder()
    browser = BrowserEnd(folder)
    seen = []
    try:
        with StdioClient(folder, "2026-07-28") as first, StdioClient(folder, "2025-11-25", name=CLIENT) as impostor:
            for client in (first, first, impostor):
                pending = client.start("read_page")
                call = browser.receive()
                seen.append((call["client"], call["connection"]))
                browser.send({"id": call["id"], "ok": True, "result": "the page"})
                assert pending.result(30)[1] == "the page"
    finally:
        browser.close()
    (name_1, first_id), (_, again), (name_2, impostor_id) = seen
    assert name_1 == name_2 == CLIENT  # the same claimed name ...
    assert first_id == again and len(first_id) == 32 and impostor_id != first_id  # ... two connections
