"""The MCP protocol over either transport: the initialize handshake with version
negotiation, ping, tools (paged lists, calls with progress, cancellation on Stop),
resources and prompts, and the notifications a server sends meanwhile.

    client = await connect("http://127.0.0.1:3001/mcp", name="files")
    tools = await client.list_tools()
    result = await client.call_tool("read_file", {"path": "notes.txt"})
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Awaitable, Callable
from typing import Any, Union

from ..host import Host, default_host
from . import apps, messages
from .errors import MCPError, SessionExpired
from .legacy_sse import LegacySSE
from .streamable_http import StreamableHTTP

# The newest revision we speak first; a server may answer with an older one we also know.
PROTOCOL_VERSION = "2025-11-25"
SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
CLIENT_INFO = {"name": "TabAgent", "version": "1"}
MAX_PAGES = 50       # of a paged list: a server that pages forever is cut off
MAX_TOOLS = 1000
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
# on_progress(progress, total, message) as the server reports a call's progress; plain or async.
OnProgress = Callable[[Any, Any, Any], Union[None, Awaitable[None]]]
# answer(method, params): the result of a request the server sent (elicitation, sampling), or
# MCPError for a refusal; the client offers what the surface that asks the user can answer.
Answer = Callable[[str, dict], Awaitable[dict]]
ANSWERED_HERE = ("elicitation/create", "sampling/createMessage")


class MCPClient:
    def __init__(self, url: str, name: str = "server", host: Host | None = None,
                 headers: dict | None = None, transport: str = "auto", timeout: float = 60) -> None:
        self.url, self.name = url, name
        self.host = host or default_host()
        self.headers = dict(headers or {})
        self.transport_kind, self.timeout = transport, timeout
        self.transport = None
        self.protocol_version: str | None = None
        self.server_info: dict = {}
        self.capabilities: dict = {}
        self.instructions: str | None = None
        self.tools_changed = False  # set by notifications/tools/list_changed
        self.on_tools_changed = None  # called with no arguments when they change
        self._ids = itertools.count(1)
        self._progress: dict = {}  # progress token -> on_progress(progress, total, message)
        self.answer: Answer | None = None  # set before connect: elicitation and sampling offered
        self.on_log = None  # on_log(params of notifications/message), plain or async

    def capabilities_offered(self) -> dict:
        """Roots always, as none (TabAgent shares no files), and MCP Apps; elicitation (form only) and
        sampling when someone is there to answer them."""
        offered = {"roots": {}, "extensions": dict(apps.OFFERED)}  # MCP Apps: shown in the panel
        if self.answer is not None:
            offered.update(elicitation={"form": {}}, sampling={})
        return offered

    # -- the lifecycle ---------------------------------------------------------------------

    async def connect(self) -> "MCPClient":
        if self.transport_kind in ("auto", "streamable-http"):
            self.transport = StreamableHTTP(self.url, self.host, self.headers)
            try:
                await self._initialize()
                return self
            except MCPError as e:
                # A server of the older transport refuses the POST (404, 405) or says 400.
                if self.transport_kind != "auto" or e.code not in (400, 404, 405):
                    raise
        self.transport = LegacySSE(self.url, self.host, self.headers)
        await self.transport.open(self.timeout)
        await self._initialize()
        return self

    async def _initialize(self) -> None:
        self.transport.protocol_version = None
        self.transport.session_id = None
        result = await self._request("initialize", {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": self.capabilities_offered(), "clientInfo": CLIENT_INFO,
        }, retry_session=False)
        version = result.get("protocolVersion")
        if version not in SUPPORTED_VERSIONS:
            raise MCPError(f"the MCP server at {self.url} speaks protocol version {version!r}, "
                           f"which TabAgent does not (it speaks {', '.join(SUPPORTED_VERSIONS)}).")
        self.protocol_version = self.transport.protocol_version = version
        self.server_info = result.get("serverInfo") or {}
        self.capabilities = result.get("capabilities") or {}
        self.instructions = result.get("instructions")
        await self.transport.notify(messages.notification("notifications/initialized"))
        if isinstance(self.transport, StreamableHTTP):
            self.transport.listen(self._receive)

    async def close(self) -> None:
        if self.transport is not None:
            await self.transport.close()

    async def __aenter__(self) -> MCPClient:
        return await self.connect()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- requests ---------------------------------------------------------------------------

    async def _request(self, method: str, params: dict | None = None, timeout: float | None = None,
                       retry_session: bool = True) -> dict:
        timeout = timeout or self.timeout
        message = messages.request(next(self._ids), method, params)
        try:
            reply = await self._exchange(message, timeout)
        except SessionExpired:
            if not retry_session:
                raise
            await self._initialize()  # the server forgot us: a new session, once
            message = messages.request(next(self._ids), method, params)
            try:
                reply = await self._exchange(message, timeout)
            except SessionExpired as again:  # refused in a new session too: the request itself
                raise again.refusal or again from None
        return messages.result_of(reply, method, self.url)

    async def _exchange(self, message: dict, timeout: float) -> dict:
        """The request's response; on Stop or past `timeout`, the server is told to cancel."""
        try:
            return await asyncio.wait_for(self.transport.request(message, self._receive, timeout), timeout)
        except asyncio.TimeoutError:
            await self._cancel(message, "timed out")
            raise MCPError(f"the MCP server {self.name} did not answer {message['method']} within "
                           f"{timeout:g} s.") from None
        except asyncio.CancelledError:
            await asyncio.shield(self._cancel(message, "the user stopped the turn"))
            raise

    async def _cancel(self, message: dict, reason: str) -> None:
        if message["method"] == "initialize":
            return  # the spec forbids cancelling it
        note = messages.notification("notifications/cancelled", {"requestId": message["id"], "reason": reason})
        with contextlib.suppress(MCPError, asyncio.TimeoutError):
            await asyncio.wait_for(self.transport.notify(note, 5), 5)

    async def _receive(self, message: dict) -> None:
        """What the server sends besides our responses."""
        method = message.get("method")
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        if "id" in message and method:  # a request from the server
            reply = await self._answered(message["id"], method, params)
            with contextlib.suppress(MCPError):
                await self.transport.notify(reply)
        elif method == "notifications/tools/list_changed":
            self.tools_changed = True
            if self.on_tools_changed:
                self.on_tools_changed()
        elif method == "notifications/progress":
            report = self._progress.get(params.get("progressToken"))
            if report:
                await _maybe_await(report(params.get("progress"), params.get("total"), params.get("message")))
        elif method == "notifications/message" and self.on_log:
            await _maybe_await(self.on_log(params))

    async def _answered(self, id_, method: str, params: dict) -> dict:
        """Our response to a request of the server's: roots are none, elicitation and
        sampling go to whoever answers them, the rest is not offered."""
        if method == "ping":
            return messages.response(id_, {})
        if method == "roots/list":
            return messages.response(id_, {"roots": []})
        if method in ANSWERED_HERE and self.answer is not None:
            try:
                return messages.response(id_, await self.answer(method, params))
            except MCPError as refused:
                return messages.response(id_, error={"code": refused.code or INVALID_PARAMS, "message": str(refused)})
        return messages.response(id_, error={"code": METHOD_NOT_FOUND, "message": f"TabAgent does not offer {method}"})

    async def ping(self) -> None:
        await self._request("ping", timeout=min(self.timeout, 10))

    async def _paged(self, method: str, key: str, limit: int = MAX_TOOLS) -> list[dict]:
        items, cursor = [], None
        for _ in range(MAX_PAGES):
            result = await self._request(method, {"cursor": cursor} if cursor else None)
            page = result.get(key)
            if not isinstance(page, list):
                raise MCPError(f"the MCP server at {self.url} answered {method} without a list of {key}.")
            items += [item for item in page if isinstance(item, dict)]
            cursor = result.get("nextCursor")
            if not cursor or len(items) >= limit:
                break
        return items[:limit]

    async def list_tools(self) -> list[dict]:
        self.tools_changed = False
        return await self._paged("tools/list", "tools")

    async def call_tool(self, name: str, arguments: dict, timeout: float | None = None,
                        on_progress: OnProgress | None = None) -> dict:
        """The tool's result as the server sent it ({"content": [...], "isError": ...})."""
        params = {"name": name, "arguments": arguments}
        token = None
        if on_progress is not None:
            token = f"tabagent-{next(self._ids)}"
            params["_meta"] = {"progressToken": token}
            self._progress[token] = on_progress
        try:
            return await self._request("tools/call", params, timeout)
        finally:
            self._progress.pop(token, None)

    async def list_resources(self, limit: int = MAX_TOOLS) -> list[dict]:
        return await self._paged("resources/list", "resources", limit)

    async def list_resource_templates(self, limit: int = MAX_TOOLS) -> list[dict]:
        """The server's URI templates ({"uriTemplate", "name", ...}): resources made on demand."""
        return await self._paged("resources/templates/list", "resourceTemplates", limit)

    async def read_resource(self, uri: str) -> dict:
        return await self._request("resources/read", {"uri": uri})

    async def list_prompts(self) -> list[dict]:
        return await self._paged("prompts/list", "prompts")

    async def get_prompt(self, name: str, arguments: dict | None = None) -> dict:
        return await self._request("prompts/get", {"name": name, "arguments": arguments or {}})


async def connect(url: str, **options: Any) -> MCPClient:
    return await MCPClient(url, **options).connect()


async def _maybe_await(value):
    if asyncio.iscoroutine(value):
        await value
