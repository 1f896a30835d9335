"""MCP's older HTTP+SSE transport (protocol 2024-11-05), for servers that only speak it:
a GET opens one event stream for everything the server sends; its first event, `endpoint`,
names the URL our messages are POSTed to, and responses come back on the stream.

The endpoint must be on the server's own origin: a server may not send our messages (and
the headers that carry its token) anywhere else. The origin is decided by the parser that
will fetch the address (the host's `resolve_url`: the browser's own in the extension), never
by another one that might read the host differently.
"""

from __future__ import annotations

import asyncio
import contextlib

from ..host import Host, NetworkError, RequestTimeout
from ..unseen import bounded
from . import messages
from .errors import MCPError, http_error
from .messages import OnMessage


class LegacySSE:
    def __init__(self, url: str, host: Host, headers: dict | None = None) -> None:
        self.url, self.host = url, host
        self.extra_headers = dict(headers or {})
        self.session_id = None
        self.protocol_version: str | None = None
        self.endpoint: str | None = None
        self._pending: dict = {}  # request id -> future of its response
        self._on_message = None
        self._reader: asyncio.Task | None = None
        self._stream = None

    async def open(self, timeout: float | None = 30) -> None:
        headers = {"accept": "text/event-stream", **self.extra_headers}
        try:
            self._stream = await self.host.request("GET", self.url, headers, None, None, follow_redirects=False)
        except NetworkError as e:
            raise MCPError(f"could not reach the MCP server at {self.url} ({e}).") from None
        if not 200 <= self._stream.status < 300:
            raise http_error(self.url, self._stream.status, self._stream.headers,
                             await messages.read_body(self._stream, self.url, 64 * 1024, cut=True))
        found = asyncio.get_running_loop().create_future()
        self._reader = asyncio.ensure_future(self._read(found))
        try:
            self.endpoint = await asyncio.wait_for(asyncio.shield(found), timeout)
        except asyncio.TimeoutError:
            await self.close()
            raise MCPError(f"the MCP server at {self.url} opened its event stream but never "
                           f"named the address for messages (no 'endpoint' event).") from None

    async def _read(self, endpoint: asyncio.Future) -> None:
        failure = None
        try:
            async with contextlib.aclosing(messages.events(self._stream, self.url)) as stream:
                async for event in stream:
                    await self._event(event, endpoint)
        except (NetworkError, RequestTimeout) as e:
            failure = str(e)
        except MCPError as e:
            failure = str(e)
        self._fail(endpoint, MCPError(f"the event stream of the MCP server at {self.url} ended"
                                      f"{' (' + failure + ')' if failure else ''}."))

    async def _event(self, event, endpoint: asyncio.Future) -> None:
        if event.event == "endpoint":
            if not endpoint.done():
                endpoint.set_result(self._endpoint(event.data.strip()))
            return
        if event.event != "message" or not event.data.strip():
            return
        for incoming in messages.parse(event.data, self.url):
            waiting = self._pending.pop(incoming.get("id"), None) if messages.is_response(incoming) else None
            if waiting is not None and not waiting.done():
                waiting.set_result(incoming)
            elif self._on_message is not None:
                await self._on_message(incoming)

    def _endpoint(self, written: str) -> str:
        """The address the server named for our messages, if it is on the server's origin."""
        ours, theirs = self.host.resolve_url(self.url, self.url), self.host.resolve_url(written, self.url)
        if ours is None or theirs is None:
            raise MCPError(f"the MCP server at {self.url} named an address for our messages that "
                           f"TabAgent cannot read as the browser would ({bounded(written, 200)!r}): refused.")
        if theirs[1] != ours[1]:
            raise MCPError(f"the MCP server at {self.url} asked for our messages to go to "
                           f"another site ({bounded(theirs[1].split('://', 1)[-1], 200)}): refused.")
        return theirs[0]

    def _fail(self, endpoint: asyncio.Future, error: MCPError) -> None:
        if not endpoint.done():
            endpoint.set_exception(error)
        for waiting in self._pending.values():
            if not waiting.done():
                waiting.set_exception(error)
        self._pending.clear()

    async def _post(self, message: dict, timeout) -> None:
        headers = {"content-type": "application/json", **self.extra_headers}
        try:
            response = await self.host.request("POST", self.endpoint, headers, messages.json_bytes(message),
                                               timeout, follow_redirects=False)
        except (NetworkError, RequestTimeout) as e:
            raise MCPError(f"could not send to the MCP server at {self.url} ({e}).") from None
        body = await messages.read_body(response, self.url, 64 * 1024, cut=True)
        if not 200 <= response.status < 300:
            raise http_error(self.url, response.status, response.headers, body)

    async def notify(self, message: dict, timeout: float | None = 30) -> None:
        await self._post(message, timeout)

    async def request(self, message: dict, on_message: OnMessage, timeout: float | None = None) -> dict:
        self._on_message = on_message
        answer = asyncio.get_running_loop().create_future()
        self._pending[message["id"]] = answer
        try:
            await self._post(message, timeout)
            return await answer
        finally:
            self._pending.pop(message["id"], None)

    async def close(self) -> None:
        await messages.stop_reading(self._reader)
        self._reader = None
        if self._stream is not None:
            with contextlib.suppress(Exception):
                await self._stream.close()
            self._stream = None
