"""JSON-RPC 2.0 as MCP uses it: requests with ids, notifications without, and the bodies
servers send back, one message or a batch."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, Union

from ..sse import SSEParser
from ..unseen import bounded
from .errors import MCPError

if TYPE_CHECKING:
    from ..host import Response
    from ..sse import SSEEvent

# on_message(message): what a server sends that answers no request of ours.
OnMessage = Callable[[dict], Awaitable[None]]
# on_progress(progress, total, message) as the server reports a call's progress; plain or async.
OnProgress = Callable[[Any, Any, Any], Union[None, Awaitable[None]]]

# No message of a server's may be larger: a result far past what the model could read, or a
# body that never ends, is refused instead of filling the memory of the tab's Python.
MAX_MESSAGE_BYTES = 8 * 1024 * 1024


def request(id_: int, method: str, params: dict | None = None) -> dict:
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: dict | None = None) -> dict:
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def response(id_: Any, result: dict | None = None, error: dict | None = None) -> dict:
    if error is not None:
        return {"jsonrpc": "2.0", "id": id_, "error": error}
    return {"jsonrpc": "2.0", "id": id_, "result": result or {}}


def is_response(message: dict) -> bool:
    return "id" in message and "method" not in message and ("result" in message or "error" in message)


def parse(text: str | bytes, url: str) -> list[dict]:
    """The messages in one body or one event: a message or a batch of them."""
    try:
        data = json.loads(text)
    except ValueError:
        raise MCPError(f"the MCP server at {url} sent something that is not JSON: "
                       f"{bounded(str(text)[:120], 120)!r}.") from None
    messages = data if isinstance(data, list) else [data]
    if not all(isinstance(m, dict) for m in messages):
        raise MCPError(f"the MCP server at {url} sent a message that is not a JSON-RPC object.")
    return messages


def result_of(message: dict, method: str, url: str) -> dict:
    """A response's result, or its error raised in words (the server's own, shown and bounded:
    where they reach the model, mcp.tools marks the whole error)."""
    error = message.get("error")
    if error is not None:
        text = error.get("message") if isinstance(error, dict) else error
        code = error.get("code") if isinstance(error, dict) else None
        code = code if isinstance(code, int) and not isinstance(code, bool) else None
        raise MCPError(f"the MCP server at {url} answered {method} with an error: {bounded(str(text), 1000)}", code=code,
                       data=error.get("data") if isinstance(error, dict) else None)
    result = message.get("result")
    if not isinstance(result, dict):
        raise MCPError(f"the MCP server at {url} answered {method} without a result object.")
    return result


def json_bytes(message: dict) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()


async def read_body(response: Response, url: str, limit: int = MAX_MESSAGE_BYTES, cut: bool = False) -> bytes:
    """The whole body; past `limit` bytes the request is aborted and MCPError raised, or with
    `cut` the first `limit` bytes returned (enough of an error page to quote)."""
    body = bytearray()
    try:
        async with contextlib.aclosing(response.chunks()) as chunks:
            async for chunk in chunks:
                body += chunk
                if len(body) > limit:
                    if cut:
                        return bytes(body[:limit])
                    raise too_large(url, limit)
    finally:
        await response.close()
    return bytes(body)


def too_large(url: str, limit: int = MAX_MESSAGE_BYTES) -> MCPError:
    return MCPError(f"the MCP server at {url} sent a message larger than {limit // (1024 * 1024)} MB: "
                    f"TabAgent stopped reading it.")


class StreamPosition:
    """How far a stream of events was read: the id of its last event (to resume from), and the
    time the server asked to be left before a reconnection (its `retry:`, in milliseconds)."""

    last_event_id: str | None = None
    retry_ms: int | None = None


async def events(response: Response, url: str, position: StreamPosition | None = None) -> AsyncGenerator[SSEEvent, None]:
    """The server-sent events of a response, as they come; MCPError once more than a message's
    worth of bytes has come without a whole event (a line that never ends). `position` follows
    the stream's last event id and its `retry:` as they are read."""
    parser, unread = SSEParser(), 0
    position = position or StreamPosition()
    async with contextlib.aclosing(response.chunks()) as chunks:
        async for chunk in chunks:
            unread += len(chunk)
            if unread > MAX_MESSAGE_BYTES:
                raise too_large(url)
            found = parser.feed(chunk)
            position.last_event_id = parser.last_id or position.last_event_id
            position.retry_ms = parser.retry_ms if parser.retry_ms is not None else position.retry_ms
            for event in found:
                unread = 0
                yield event


async def stop_reading(task: asyncio.Future | None) -> None:
    """Ends a transport's background reader (the server's event stream), whatever state it is in."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
