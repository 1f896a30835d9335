"""MCP's Streamable HTTP transport: every message is a POST to one endpoint, answered with
one JSON body or a stream of server-sent events that ends with our response.

Every POST says what it carries in its headers, as the 2026-07-28 revision asks (and older
servers ignore): `Mcp-Method`, `Mcp-Name` (the tool, prompt or resource a request names) and
the client's `Mcp-Param-*` mirrors of a tool's arguments (client.py decides them), besides
`MCP-Protocol-Version` once a version is agreed.

In the handshake era (2025-11-25 and before) the server names a session in `Mcp-Session-Id`
when we initialise; every later request carries it, and a 404 (or 400) to one means the server
forgot it (the client starts a new one and sends the request again, once). The 2026-07-28
revision has no session: each request stands alone.

A stream cut before our response, cleanly or by a broken connection, is resumed with
`Last-Event-ID` when its events had ids, after the time the server asked for in `retry:`.
A 401 or a 403 naming `insufficient_scope` raises `SignInNeeded` with the server's challenge, for
the client to have the user sign in (again, with more scope) and send the request once more. A
refusal the server explains in a JSON-RPC error (an unsupported protocol version, -32022) is
returned as the response it is, for the client to read.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import re

from ..host import Host, NetworkError, RequestTimeout
from . import messages
from .errors import MCPError, SessionExpired, SignInNeeded, http_error
from .messages import OnMessage, StreamPosition

ACCEPT = "application/json, text/event-stream"
RESUME_ATTEMPTS = 3
DEFAULT_RETRY_MS = 250  # before resuming a stream whose server named no `retry:`
MAX_RETRY_MS = 30_000   # a server asking for longer is waited on this long
# the request's parameter whose value `Mcp-Name` mirrors, by method
NAMED_BY = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
_HEADER_SAFE = re.compile(r"[\x20-\x7e]*")


def header_value(value: str) -> str:
    """A value as an HTTP header carries it: plain printable ASCII as it is, anything else
    (other characters, edge spaces) in the specification's `=?base64?...?=` form."""
    if _HEADER_SAFE.fullmatch(value) and value == value.strip() and not value.startswith("=?base64?"):
        return value
    return f"=?base64?{base64.b64encode(value.encode()).decode('ascii')}?="


def described(message: dict) -> dict:
    """The headers that say what a message is: its method, and the name it names."""
    method = message.get("method")
    if not isinstance(method, str):
        return {}
    headers = {"mcp-method": method}
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    named = params.get(NAMED_BY.get(method, ""))
    if isinstance(named, str):
        headers["mcp-name"] = header_value(named)
    return headers


class StreamableHTTP:
    def __init__(self, url: str, host: Host, headers: dict | None = None) -> None:
        self.url, self.host = url, host
        self.extra_headers = dict(headers or {})
        self.session_id: str | None = None
        self.protocol_version: str | None = None  # sent once negotiated
        self._listener: asyncio.Task | None = None

    def _headers(self, message: dict | None = None, **more) -> dict:
        headers = {"content-type": "application/json", "accept": ACCEPT, **self.extra_headers}
        if self.session_id:
            headers["mcp-session-id"] = self.session_id
        if self.protocol_version:
            headers["mcp-protocol-version"] = self.protocol_version
        headers.update(described(message or {}))
        headers.update(more)
        return headers

    async def _post(self, message: dict, timeout: float | None, headers: dict | None = None):
        body = messages.json_bytes(message)
        try:
            response = await self.host.request("POST", self.url, self._headers(message, **(headers or {})), body,
                                               timeout, follow_redirects=False)
        except NetworkError as e:
            raise MCPError(f"could not reach the MCP server at {self.url} ({e}): check its "
                           f"address and that it is running.") from None
        except RequestTimeout:
            raise MCPError(f"the MCP server at {self.url} did not answer within {timeout:g} s.") from None
        if response.status in (401, 403):
            await self._refused_sign_in(response)
        if response.status in (400, 404) and self.session_id:
            # 404 is what the spec says a server answers when it forgot our session; many say 400
            # ("no valid session ID", the TypeScript SDK's servers after a restart). The client
            # starts a new session and sends the request again, once: a request that was bad in
            # itself is refused again, and that refusal is what the user reads.
            raise SessionExpired(f"the MCP server at {self.url} no longer knows our session.",
                                 refusal=await _http_error(self.url, response))
        if not 200 <= response.status < 300:  # a redirect too: not followed
            return await self._explained(response, message)
        if "mcp-session-id" in response.headers:
            self.session_id = response.headers["mcp-session-id"]
        return response

    async def _refused_sign_in(self, response) -> None:
        """A 401, or a 403 that names the scope it lacks: the user is to sign in (again)."""
        challenge = response.headers.get("www-authenticate", "")
        if response.status == 401 or "insufficient_scope" in challenge:
            await response.close()
            raise SignInNeeded(http_error(self.url, response.status, response.headers, b""),
                               status=response.status, challenge=challenge)

    async def _explained(self, response, message: dict):
        """A refusal the server explains in a JSON-RPC error to this request, as that error
        (a -32022, a -32601); any other one as the HTTP error it is."""
        body = await messages.read_body(response, self.url, 64 * 1024, cut=True)
        try:
            said = json.loads(body)
        except ValueError:
            said = None
        if isinstance(said, dict) and isinstance(said.get("error"), dict) and said.get("id") == message.get("id") \
                and "id" in message:
            return _Answered(said)
        raise http_error(self.url, response.status, response.headers, body)

    async def notify(self, message: dict, timeout: float | None = 30) -> None:
        response = await self._post(message, timeout)
        await response.close()

    async def request(self, message: dict, on_message: OnMessage, timeout: float | None = None,
                      headers: dict | None = None) -> dict:
        """Sends a request and returns its response; the notifications and requests the
        server sends meanwhile go to `on_message(message)`. `headers`: more for this request."""
        response = await self._post(message, timeout, headers)
        if isinstance(response, _Answered):
            return response.message
        kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "text/event-stream":
            return await self._from_stream(response, message["id"], on_message, timeout)
        body = await messages.read_body(response, self.url)
        if not body.strip():  # a 204 or 202 to a request, or a body the server never wrote
            raise MCPError(f"the MCP server at {self.url} answered {message['method']} without any "
                           f"message (HTTP {response.status}): is this the address of its MCP endpoint?")
        for incoming in messages.parse(body, self.url):
            if messages.is_response(incoming) and incoming.get("id") == message["id"]:
                return incoming
            await on_message(incoming)
        raise MCPError(f"the MCP server at {self.url} did not answer {message['method']}.")

    async def _from_stream(self, response, id_, on_message, timeout) -> dict:
        read = StreamPosition()
        for attempt in range(RESUME_ATTEMPTS + 1):
            try:
                found = await self._read_events(response, id_, on_message, read)
            except (NetworkError, RequestTimeout) as e:  # the connection broke mid-stream
                if read.last_event_id is None or isinstance(e, RequestTimeout):
                    raise MCPError(f"the stream from the MCP server at {self.url} broke before "
                                   f"its answer ({e}).") from None
                found = None
            if found is not None:
                return found
            if read.last_event_id is None or attempt == RESUME_ATTEMPTS:
                break
            await self.wait_before_reconnecting(read)
            response = await self._resume(read.last_event_id, timeout)
        raise MCPError(f"the MCP server at {self.url} ended its stream without an answer.")

    async def wait_before_reconnecting(self, read: StreamPosition) -> None:
        """As long as the server's `retry:` asked (the spec's MUST), else a short while."""
        wait = read.retry_ms if read.retry_ms is not None else DEFAULT_RETRY_MS
        await self.host.sleep(min(wait, MAX_RETRY_MS) / 1000)

    async def _read_events(self, response, id_, on_message, read: StreamPosition):
        """Our response (None when the stream ended without it); `read` keeps the id of the
        last event read and the server's `retry:`, also when reading breaks, for the stream to
        be resumed from there."""
        try:
            async with contextlib.aclosing(messages.events(response, self.url, read)) as stream:
                async for event in stream:
                    if not event.data.strip():
                        continue  # a priming event: an id to resume from, no message
                    for incoming in messages.parse(event.data, self.url):
                        if id_ is not None and messages.is_response(incoming) and incoming.get("id") == id_:
                            return incoming
                        await on_message(incoming)
        finally:
            await response.close()
        return None

    def _stream_headers(self, **more) -> dict:
        headers = self._headers(**more)
        headers.pop("content-type")
        headers["accept"] = "text/event-stream"
        return headers

    async def _resume(self, last_event_id: str, timeout):
        headers = self._stream_headers(**{"last-event-id": last_event_id})
        try:
            response = await self.host.request("GET", self.url, headers, None, timeout, follow_redirects=False)
        except (NetworkError, RequestTimeout) as e:
            raise MCPError(f"could not resume the stream from the MCP server at {self.url} ({e}).") from None
        if not 200 <= response.status < 300:  # a redirect too: not followed
            raise await _http_error(self.url, response)
        return response

    def listen(self, on_message: OnMessage, subscribe: dict | None = None) -> None:
        """Opens the stream on which the server says what no request asked for (a changed
        tool list, mostly), read in the background until close. Handshake era: a GET (a
        server without one answers 405 and is left alone), opened again after a new session.
        2026-07-28: `subscribe` is the `subscriptions/listen` request, POSTed."""
        if self._listener is None or self._listener.done():
            self._listener = asyncio.ensure_future(self._listen(on_message, subscribe))

    async def _listen(self, on_message, subscribe: dict | None) -> None:
        """Read until the server ends the stream; reopened after its `retry:` when it asked for
        one (a server that closes streams to be polled), resumed from its last event."""
        read = StreamPosition()
        with contextlib.suppress(NetworkError, RequestTimeout, MCPError):
            while True:
                if subscribe is not None:
                    response = await self._post(subscribe, None)
                else:
                    more = {"last-event-id": read.last_event_id} if read.last_event_id else {}
                    response = await self.host.request("GET", self.url, self._stream_headers(**more), None, None,
                                                       follow_redirects=False)
                if isinstance(response, _Answered) or response.status != 200:
                    if not isinstance(response, _Answered):
                        await response.close()
                    return
                read.retry_ms = None
                await self._read_events(response, None, on_message, read)
                if read.retry_ms is None:
                    return
                await self.wait_before_reconnecting(read)

    async def close(self) -> None:
        """Ends the session on the server, as the spec asks of a client that is done."""
        await messages.stop_reading(self._listener)
        self._listener = None
        if not self.session_id:
            return
        headers = self._stream_headers()
        headers["accept"] = ACCEPT
        with contextlib.suppress(NetworkError, RequestTimeout):
            response = await self.host.request("DELETE", self.url, headers, None, 5, follow_redirects=False)
            await response.close()
        self.session_id = None


class _Answered:
    """A JSON-RPC error that came with an HTTP error status: the request's response."""

    def __init__(self, message: dict) -> None:
        self.message = message

    async def close(self) -> None:
        pass


async def _http_error(url: str, response) -> Exception:
    return http_error(url, response.status, response.headers, await messages.read_body(response, url, 64 * 1024, cut=True))
