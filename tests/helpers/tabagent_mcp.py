"""TabAgent as an MCP server, as an MCP client uses it: the official Python SDK's stdio client
starting `tabagent-mcp` (mcp-server/), and the native host registered into a test browser's
profile or a temporary HOME, never the real user's.

`StdioClient` keeps one SDK Client open on a loop of its own, so a test can start a call,
answer the question it asks in the panel, then take the call's result (`start(...).result()`).
It speaks either era of the protocol (ERAS): the stateless 2026-07-28 one (server/discover,
client info in every request's `_meta`, no initialize) or the initialize handshake."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "mcp-server"
CLIENT = "e2e-coding-agent"  # the name the test's client gives itself
# The SDK's connect modes, by the protocol version each must end in: "auto" sends
# server/discover first (a 2026-07-28 server answers it); "legacy" is the initialize handshake.
ERAS = {"2026-07-28": "auto", "2025-11-25": "legacy"}


def socket_folder() -> Path:
    """A meeting folder of the test's own (0700, as the host makes it), not the user's."""
    return Path(tempfile.mkdtemp(prefix="tabagent-mcp-test-"))


def register(home: Path, socket_dir: Path, *args: str) -> list[str]:
    """Runs `tabagent-mcp register` as a user would, with HOME a folder of the test's."""
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(PACKAGE)}
    done = subprocess.run([sys.executable, "-m", "tabagent_mcp", "register", "--socket-dir", str(socket_dir), *args],
                          env=env, capture_output=True, text=True, check=True)
    return done.stdout.split()


class StdioClient:
    """The SDK's stdio client with TabAgent's MCP server started by it."""

    def __init__(self, socket_dir: Path, era: str = "2026-07-28", name: str = CLIENT):
        self.socket_dir, self.era, self.name = socket_dir, era, name
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> "StdioClient":
        self.thread.start()
        self.ready = threading.Event()
        self.life = self._run(self._live())
        if not self.ready.wait(60):
            raise RuntimeError(f"the MCP server never started: {self.life.exception(0) if self.life.done() else 'no answer'}")
        return self

    def __exit__(self, *_exc) -> None:
        self.loop.call_soon_threadsafe(self.closing.set)
        self.life.result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    async def _live(self) -> None:
        """Opens the session, and closes it in the same task (anyio's rule) when told to."""
        from mcp import Client, types
        from mcp.client.stdio import StdioServerParameters

        self.closing = asyncio.Event()
        params = StdioServerParameters(command=sys.executable, args=["-m", "tabagent_mcp"],
                                       env={"TABAGENT_MCP_DIR": str(self.socket_dir), "PYTHONPATH": str(PACKAGE)})
        async with Client(params, mode=ERAS[self.era], client_info=types.Implementation(name=self.name, version="1")) as client:
            if client.protocol_version != self.era:
                raise RuntimeError(f"the session speaks {client.protocol_version}, not {self.era}")
            self.session = client
            self.server_name = client.server_info.name if client.server_info else None
            self.ready.set()
            await self.closing.wait()

    def tool_names(self) -> list[str]:
        async def names():
            return [tool.name for tool in (await self.session.list_tools()).tools]
        return self._run(names()).result(30)

    def start(self, name: str, **arguments):
        """The call under way: .result(timeout) gives (is_error, text, pictures)."""
        async def called():
            result = await self.session.call_tool(name, arguments)
            texts = [part.text for part in result.content if part.type == "text"]
            pictures = [part for part in result.content if part.type == "image"]
            return result.is_error, "\n".join(texts), pictures
        return self._run(called())

    def call_tool(self, name: str, timeout: float = 60, **arguments):
        return self.start(name, **arguments).result(timeout)


class BrowserEnd:
    """The browser's side of a native host: the host process on pipes, as Chrome starts it."""

    def __init__(self, folder: Path):
        env = {**os.environ, "TABAGENT_MCP_DIR": str(folder), "PYTHONPATH": str(PACKAGE)}
        self.process = subprocess.Popen([sys.executable, "-m", "tabagent_mcp", "host", "chrome-extension://x/"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.socket = folder / "host.sock"
        deadline = time.monotonic() + 20
        while not self.socket.exists():
            assert self.process.poll() is None, self.process.stderr.read().decode()
            assert time.monotonic() < deadline, "the host never listened"
            time.sleep(0.02)

    def receive(self) -> dict:
        return _framing().read_message(self.process.stdout)

    def send(self, message: dict) -> None:
        _framing().write_message(self.process.stdin, message)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(10)


def ask(path: Path, call: dict) -> socket.socket:
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(str(path))
    client.sendall(json.dumps(call).encode() + b"\n")
    return client


def _framing():
    """The package's native messaging framing (mcp-server/ is not installed in the test environment)."""
    if str(PACKAGE) not in sys.path:
        sys.path.insert(0, str(PACKAGE))
    from tabagent_mcp import native_messaging
    return native_messaging


def answered_click(client, panel, n: int, decision: str) -> tuple[bool, str]:
    """A client's click on the page's #subscribe, asked in the panel (tests/helpers/panel_driver.py)
    as its n-th question and answered `decision`: (failed, text) as the client got it."""
    pending = client.start("click", locator="#subscribe")
    panel.question(n)
    panel.answer_question(n, decision)
    failed, text, _ = pending.result(30)
    return failed, text
