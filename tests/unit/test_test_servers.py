"""The test servers the suite starts: each test talks to its own server, even when another
test's server took the port it picked (the free port is closed before the server binds it)."""

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers.mcp_server import MCPTestServer

ROOT = Path(__file__).resolve().parents[2]


def test_a_server_whose_port_was_taken_moves_to_another_and_is_the_one_reached():
    server = MCPTestServer()
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", server.port))
    squatter.listen()  # accepts connections, as another test's server would
    taken = server.port
    try:
        with server:
            assert server.port != taken and f":{server.port}/" in server.url
            assert server.cancelled_calls() == 0  # a route only our server answers
    finally:
        squatter.close()


def test_a_server_that_never_listens_is_ended_not_left_running():
    class Mute(MCPTestServer):
        def _wait_until_listening(self, timeout: float = 30, port: int | None = None) -> None:
            raise RuntimeError("the MCP test server never listened")

    server = Mute()
    with pytest.raises(RuntimeError, match="never listened"):
        server.__enter__()
    assert server.process.wait(timeout=10) is not None  # ended by __enter__ itself, not left behind


def test_a_server_ends_when_the_test_process_that_started_it_is_killed(tmp_path):
    started = tmp_path / "pid"
    script = ("import sys, time\n"
              "from tests.helpers.mcp_server import MCPTestServer\n"
              "server = MCPTestServer().__enter__()\n"
              f"open({str(started)!r}, 'w').write(str(server.process.pid))\n"
              "time.sleep(600)\n")
    test_process = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while not started.exists() or not started.read_text():
            assert test_process.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
        server_pid = int(started.read_text())
        assert alive(server_pid)
    finally:
        test_process.kill()  # as a job stopped midway would be: no fixture's teardown runs
        test_process.wait()
    deadline = time.monotonic() + 30
    while alive(server_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(server_pid)


def alive(pid: int) -> bool:
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
