"""Signing in to an MCP server from the terminal (`python -m tabagent --mcp NAME=URL --sign-in NAME`),
as a native app does (RFC 8252): the authorization address is printed (and opened in the
browser when there is one), the browser comes back to a one-time listener on 127.0.0.1 at a port
the system picks (§7.3: a loopback IP literal, never "localhost", never another interface), the
code is exchanged with PKCE (tabagent/mcp/oauth.py does the protocol, as for the extension), and
the record is kept in the user's own file, read and written by them only (0600, in a 0700
folder: $XDG_CONFIG_HOME/tabagent, else ~/.config/tabagent).

The listener takes one answer: the first that carries this sign-in's state. Any other request
(another path, another state, a second answer) is told no and changes nothing; it stops when
the sign-in ends. A kept token goes to the server it was given for only (its `server_url`, not
the name), and is refreshed when it expires, before a turn and mid-turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import webbrowser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from ..mcp import MCPError, oauth
from ..mcp.oauth_discovery import canonical

SIGN_IN_SECONDS = 300
REFRESH_MARGIN = 60  # seconds before expiry: a token that would end mid-request is refreshed first
SIGNED_IN_PAGE = (b"<!doctype html><title>TabAgent</title><p>Signed in. You can close this tab and go back "
                  b"to the terminal.</p>")


def config_folder() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "tabagent"


class SignIns:
    """The kept sign-ins, by the server's address, in a file only its owner may read."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path else config_folder() / "mcp-sign-ins.json"

    def all(self) -> dict:
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            raise MCPError(f"cannot read the kept sign-ins in {self.path}: {error}") from None
        return kept if isinstance(kept, dict) else {}

    def get(self, server_url: str) -> dict | None:
        record = self.all().get(canonical(server_url))
        same = isinstance(record, dict) and canonical(str(record.get("server_url"))) == canonical(server_url)
        return record if same else None

    def keep(self, record: dict) -> None:
        self._write({**self.all(), canonical(record["server_url"]): record})

    def forget(self, server_url: str) -> dict | None:
        kept = self.all()
        gone = kept.pop(canonical(server_url), None)
        self._write(kept)
        return gone

    def _write(self, kept: dict) -> None:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(self.path.parent, 0o700)
        new = self.path.with_name(self.path.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            new.unlink()
        descriptor = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(kept, file, indent=1)
        os.replace(new, self.path)


class LoopbackRedirect:
    """One sign-in's redirect address, http://127.0.0.1:PORT/callback, and the one answer it takes."""

    def __init__(self):
        self.state, self.server = None, None

    async def __aenter__(self) -> "LoopbackRedirect":
        self.ended = asyncio.get_running_loop().create_future()
        self.server = await asyncio.start_server(self._answer, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        self.redirect_uri = f"http://127.0.0.1:{self.port}/callback"
        return self

    async def __aexit__(self, *exc) -> None:
        self.server.close()
        await self.server.wait_closed()

    def expect(self, state: str) -> None:
        """Takes, from now on, the one answer that carries this sign-in's state."""
        self.state = state

    async def wait(self, timeout: float) -> str:
        """The address the browser came back to."""
        try:
            return await asyncio.wait_for(asyncio.shield(self.ended), timeout)
        except asyncio.TimeoutError:
            raise MCPError(f"no sign-in came back within {timeout:.0f} s: nothing was kept.") from None

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), 10)
            target = line.decode("latin-1").split(" ")[1] if line.count(b" ") >= 2 else ""
            status, page = self._take(target)
            writer.write(b"HTTP/1.1 %d %s\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: %d\r\n"
                         b"cache-control: no-store\r\nconnection: close\r\n\r\n%s"
                         % (status, b"OK" if status == 200 else b"Refused", len(page), page))
            await writer.drain()
        except (asyncio.TimeoutError, ConnectionError, IndexError):
            pass
        finally:
            writer.close()

    def _take(self, target: str) -> tuple[int, bytes]:
        parts = urlsplit(target)
        if parts.path != "/callback":
            return 404, b"Not here."
        state = (parse_qs(parts.query).get("state") or [None])[0]
        if self.state is None or state != self.state or self.ended.done():
            return 400, b"This is not the answer TabAgent is waiting for: nothing was taken."
        self.ended.set_result(f"http://127.0.0.1:{self.port}{target}")
        return 200, SIGNED_IN_PAGE


async def sign_in(name: str, url: str, sign_ins: SignIns, host, client_id: str = "", client_secret: str = "",
                  header: str | None = None, say=None, open_browser: bool = True,
                  timeout: float = SIGN_IN_SECONDS) -> dict:
    """Signs in to the server `name` at `url` through the user's browser; the kept record."""
    say = say or (lambda words: print(words, file=sys.stderr, flush=True))
    async with LoopbackRedirect() as redirect:
        plan = await oauth.plan_sign_in(url, redirect.redirect_uri, client_id, host, client_secret, header,
                                        sign_ins.get(url))
        redirect.expect(plan["state"])
        say(f"To sign in to the MCP server {name}, open this address in your browser "
            f"(TabAgent waits {timeout:.0f} s):\n\n  {plan['authorize_url']}\n")
        if open_browser:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(webbrowser.open, plan["authorize_url"])
        record = await oauth.finish_sign_in(plan, await redirect.wait(timeout), host)
    sign_ins.keep(record)
    return record


class TerminalSignIn:
    """The sign-ins of the --mcp servers, for a conversation: kept tokens as their headers, and
    the consent bridge's `sign_in` (mcp_requests.py) when a server asks mid-turn."""

    def __init__(self, servers: list[dict], sign_ins: SignIns, host, can_ask: bool):
        self.urls = {server["id"]: server["url"] for server in servers}
        self.sign_ins, self.host, self.can_ask = sign_ins, host, can_ask

    async def headers(self, given: dict) -> dict:
        """The --mcp-header headers, with a kept token (refreshed if it is ending) for each
        server that was given none of its own."""
        headers = {name: dict(fields) for name, fields in given.items()}
        for name, url in self.urls.items():
            if any(field.lower() == "authorization" for field in headers.get(name, {})):
                continue
            record = self.sign_ins.get(url)
            if record is None:
                continue
            if (record.get("expires_at") or float("inf")) - self.host.now() < REFRESH_MARGIN:
                record = await self._refreshed(record)
            if record is not None:
                headers.setdefault(name, {})["Authorization"] = f"Bearer {record['access_token']}"
        return headers

    async def sign_in(self, server_id: str, challenge: str, interactive: bool) -> dict:
        url = self.urls.get(server_id)
        if url is None:
            return {"ok": False, "error": "no such MCP server"}
        try:
            record = await self._signed(server_id, url, challenge, interactive)
        except MCPError as error:
            return {"ok": False, "error": str(error)}
        if record is None:
            return {"ok": False, "error": f"sign in first: python -m tabagent --mcp {server_id}={url} --sign-in {server_id}"}
        return {"ok": True, "authorization": f"Bearer {record['access_token']}"}

    async def _signed(self, name: str, url: str, challenge: str, interactive: bool) -> dict | None:
        if not interactive:
            record = self.sign_ins.get(url)
            return await self._refreshed(record) if record else None
        if not self.can_ask:
            return None
        return await sign_in(name, url, self.sign_ins, self.host, header=challenge or None)

    async def _refreshed(self, record: dict) -> dict | None:
        try:
            fresh = await oauth.refresh(record, self.host)
        except MCPError:
            return None
        self.sign_ins.keep(fresh)
        return fresh
