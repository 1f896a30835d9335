"""Red team for tabagent-mcp's meeting place (mcp-server/tabagent_mcp/meeting_place.py): another
local user tries to drive the browser through the native host's socket, or to sit in the middle
by making the meeting folder first. Real processes of another uid (the tests run as root and
drop to `nobody` in a child)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from tests.helpers.tabagent_mcp import PACKAGE, BrowserEnd, ask, socket_folder

sys.path.insert(0, str(PACKAGE))

from tabagent_mcp import meeting_place  # noqa: E402

NOBODY = 65534

pytestmark = pytest.mark.skipif(os.getuid() != 0, reason="dropping to another user needs root")

AS_NOBODY = """
import json, os, socket, sys
os.setgid(65534); os.setuid(65534)
client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    client.connect(sys.argv[1])
except OSError as error:
    print("refused:", type(error).__name__); sys.exit()
try:
    client.sendall(json.dumps({"tool": "click", "args": {"locator": "#buy"}}).encode() + b"\\n")
    client.settimeout(5)
    print("answered:", client.recv(1000).decode() or "nothing (closed)")
except (BrokenPipeError, ConnectionResetError):
    print("answered: nothing (closed)")
"""


def as_nobody(path) -> str:
    return subprocess.run([sys.executable, "-c", AS_NOBODY, str(path)], capture_output=True, text=True, timeout=30).stdout.strip()


def test_another_user_cannot_open_the_folder_nor_be_heard_if_it_were_open():
    folder = socket_folder()
    browser = BrowserEnd(folder)
    try:
        assert as_nobody(browser.socket) == "refused: PermissionError"  # the folder is 0700
        # The walls opened by mistake (the folder and socket anyone's): the host still hears only its own user.
        os.chmod(folder, 0o755)
        os.chmod(browser.socket, 0o666)
        assert as_nobody(browser.socket) == "answered: nothing (closed)"
        ask(browser.socket, {"tool": "list_tabs"})
        assert browser.receive()["tool"] == "list_tabs"  # nobody's click never reached the browser
    finally:
        browser.close()


def test_a_folder_another_user_made_first_is_never_used(tmp_path):
    folder = tmp_path / "meet"
    folder.mkdir(mode=0o700)
    os.chown(folder, NOBODY, NOBODY)
    env = {**os.environ, "TABAGENT_MCP_DIR": str(folder), "PYTHONPATH": str(PACKAGE)}
    host = subprocess.run([sys.executable, "-m", "tabagent_mcp", "host"], input=b"", capture_output=True, env=env, timeout=30)
    assert host.returncode != 0 and b"belongs to another user" in host.stderr
    assert list(folder.iterdir()) == []
    with pytest.raises(meeting_place.NotSafe, match="another user"):
        os.environ["TABAGENT_MCP_DIR"] = str(folder)
        try:
            meeting_place.check_socket(meeting_place.socket_path())
        finally:
            del os.environ["TABAGENT_MCP_DIR"]


def test_a_folder_others_may_open_or_a_link_is_refused(tmp_path):
    open_folder = tmp_path / "open"
    open_folder.mkdir(mode=0o755)
    os.chmod(open_folder, 0o755)
    with pytest.raises(meeting_place.NotSafe, match="other users"):
        meeting_place.check_folder(open_folder)
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(private)
    with pytest.raises(meeting_place.NotSafe, match="not a folder"):
        meeting_place.check_folder(tmp_path / "link")


def test_the_server_refuses_a_socket_that_is_not_this_users(tmp_path):
    folder = socket_folder()
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listening.bind(str(folder / "host.sock"))
    os.chown(folder / "host.sock", NOBODY, NOBODY)  # someone else's listener put in its place
    with pytest.raises(meeting_place.NotSafe, match="not this user's socket"):
        meeting_place.check_socket(folder / "host.sock")
    listening.close()
