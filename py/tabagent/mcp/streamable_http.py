"""MCP's Streamable HTTP transport: every message is a POST to one endpoint, answered with
one JSON body or a stream of server-sent events that ends with our response.

The server names a session in `Mcp-Session-Id` when we initialise; every later request
carries it, and a 404 (or 400) to one means the server forgot it (the client starts a new one
and sends the request again, once). A stream cut before our response, cleanly or by a broken
connection, is resumed with `Last-Event-ID` when its events had ids.
"""

from __future__ import annotations

import asyncio
import contextlib

from ..host import Host, NetworkError, RequestTimeout
from . import messages
from .errors import MCPError, SessionExpired, http_error
from .messages import OnMessage

ACCEPT = "application/json, text/event-stream"
RESUME_ATTEMPTS = 3


class StreamableHTTP:
    def __init__(self, url: str, host: Host, headers: dict | None = None) -> None:
        self.url, self.host = url, host
        self.extra_headers = dict(headers or {})
        self.session_id: str | None = None
        self.protocol_version: str | None = None  # sent once negotiated
        self._listener: asyncio.Task | None = None

    def _headers(self, **more) -> dict:
        headers = {"content-type": "application/json", "accept": ACCEPT, **self.extra_headers}
        if self.session_id:
            headers["mcp-session-id"] = self.session_id
        if self.protocol_version:
            headers["mcp-protocol-version"] = self.protocol_version
        headers.update(more)
        return headers

    async def _post(self, message: dict, timeout: float | None):
        body = messages.json_bytes(message)
        try:
            response = await self.host.request("POST", self.url, self._headers(), body, timeout,
                                               follow_redirects=False)
        except NetworkError as e:
            raise MCPError(f"could not reach the MCP server at {self.url} ({e}): check its "
                           f"address and that it is running.") from None
        except RequestTimeout:
            raise MCPError(f"the MCP server at {self.url} did not answer within {timeout:g} s.") from None
        if response.status in (400, 404) and self.session_id:
            # 404 is what the spec says a server answers when it forgot our session; many say 400
            # ("no valid session ID", the TypeScript SDK's servers after a restart). The client
            # starts a new session and sends the request again, once: a request that was bad in
            # itself is refused again, and that refusal is what the user reads.
            raise SessionExpired(f"the MCP server at {self.url} no longer knows our session.",
                                 refusal=await _http_error(self.url, response))
        if not 200 <= response.status < 300:  # a redirect too: not followed
            raise await _http_error(self.url, response)
        if "mcp-session-id" in response.headers:
            self.session_id = response.headers["mcp-session-id"]
        return response

    async def notify(self, message: dict, timeout: float | None = 30) -> None:
        response = await self._post(message, timeout)
        await response.close()

    async def request(self, message: dict, on_message: OnMessage, timeout: float | None = None) -> dict:
        """Sends a request and returns its response; the notifications and requests the
        server sends meanwhile go to `on_message(message)`."""
        response = await self._post(message, timeout)
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
            response = await self._resume(read.last_event_id, timeout)
        raise MCPError(f"the MCP server at {self.url} ended its stream without an answer.")

    async def _read_events(self, response, id_, on_message, read: "StreamPosition"):
        """Our response (None when the stream ended without it); `read` keeps the id of the
        last event read, also when reading breaks, for the stream to be resumed from there."""
        try:
            async with contextlib.aclosing(messages.events(response, self.url)) as stream:
                async for event in stream:
                    read.last_event_id = event.id or read.last_event_id
                    if not event.data.strip():
                        continue  # a priming event: an id to resume from, no message
                    for incoming in messages.parse(event.data, self.url):
                        if id_ is not None and messages.is_response(incoming) and incoming.get("id") == id_:
                            return incoming
                        await on_message(incoming)
        finally:
            await response.close()
        return None

    async def _resume(self, last_event_id: str, timeout):
        headers = self._headers(**{"last-event-id": last_event_id})
        headers.pop("content-type")
        headers["accept"] = "text/event-stream"
        try:
            response = await self.host.request("GET", self.url, headers, None, timeout, follow_redirects=False)
        except (NetworkError, RequestTimeout) as e:
            raise MCPError(f"could not resume the stream from the MCP server at {self.url} ({e}).") from None
        if not 200 <= response.status < 300:  # a redirect too: not followed
            raise await _http_error(self.url, response)
        return response

    def listen(self, on_message: OnMessage) -> None:
        """Opens the stream on which the server says what no request asked for (a changed
        tool list, mostly), read in the background until close; a server without one
        answers 405 and is left alone. Opened again after a new session (the old one ended
        with the session)."""
        if self._listener is None or self._listener.done():
            self._listener = asyncio.ensure_future(self._listen(on_message))

    async def _listen(self, on_message) -> None:
        headers = self._headers()
        headers.pop("content-type")
        headers["accept"] = "text/event-stream"
        with contextlib.suppress(NetworkError, RequestTimeout, MCPError):
            response = await self.host.request("GET", self.url, headers, None, None, follow_redirects=False)
            if response.status != 200:
                await response.close()
                return
            await self._read_events(response, None, on_message, StreamPosition())

    async def close(self) -> None:
        """Ends the session on the server, as the spec asks of a client that is done."""
        await messages.stop_reading(self._listener)
        self._listener = None
        if not self.session_id:
            return
        headers = self._headers()
        headers.pop("content-type")
        with contextlib.suppress(NetworkError, RequestTimeout):
            response = await self.host.request("DELETE", self.url, headers, None, 5, follow_redirects=False)
            await response.close()
        self.session_id = None


class StreamPosition:
    """How far a stream of events was read: the id of its last event, if it had ids."""

    last_event_id: str | None = None


async def _http_error(url: str, response) -> Exception:
    return http_error(url, response.status, response.headers, await messages.read_body(response, url, 64 * 1024, cut=True))
