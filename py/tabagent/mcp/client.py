"""The MCP protocol over either transport, in both eras of the specification.

- 2026-07-28, stateless: `server/discover` first; then every request carries the protocol
  version, TabAgent's name and capabilities in its `_meta`; what a server needs to ask (a form,
  a completion, the roots) comes back as an `InputRequiredResult` and the request is sent again
  with the answers (input_required.py); list changes come on a `subscriptions/listen` stream;
  a long tool call may become a task (tasks.py).
- 2025-11-25 and before: when the server does not know `server/discover`, the initialize
  handshake with version negotiation, a session, server-initiated requests on the streams; and
  the older HTTP+SSE transport only when the server refuses Streamable HTTP's POST.

Either way: ping, tools (paged lists, calls with progress, cancellation on Stop), resources and
prompts, the notifications a server sends meanwhile, a server's "sign in" (a 401, or a 403
naming more scope) handed to `sign_in` and the request sent again, once per call.

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

from ..host import Host
from ..hosts import default_host
from ..unseen import bounded, shown
from . import apps, messages
from .errors import MCPError, SessionExpired, SignInNeeded
from .input_required import InputRounds
from .legacy_sse import LegacySSE
from .messages import OnProgress
from .streamable_http import StreamableHTTP
from .tool_headers import checked_tools, param_headers
from .tasks import TASKS, follow_task

MODERN = "2026-07-28"  # stateless: no handshake, `_meta` on every request
HANDSHAKE_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
PROTOCOL_VERSION = HANDSHAKE_VERSIONS[0]  # the newest we propose in a handshake
SUPPORTED_VERSIONS = (MODERN, *HANDSHAKE_VERSIONS)
CLIENT_INFO = {"name": "TabAgent", "version": "1"}
META = "io.modelcontextprotocol/"
MAX_PAGES = 50       # of a paged list: a server that pages forever is cut off
MAX_TOOLS = 1000
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
UNSUPPORTED_VERSION = -32022
TIMED_OUT = -32001  # the SDKs' code for a request that got no answer in time
# answer(method, params): the result of a request the server sent (elicitation, sampling), or
# MCPError for a refusal; the client offers what the surface that asks the user can answer.
Answer = Callable[[str, dict], Awaitable[dict]]
# sign_in(needed): the headers to send from now on (a new bearer token), once the user signed
# in as the server asked (needed.status 401, or 403 for more scope; needed.challenge); None when
# they did not.
SignIn = Callable[[SignInNeeded], Awaitable[Union[dict, None]]]
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
        self._tool_headers: dict[str, dict] = {}  # tool -> {argument: Mcp-Param header}
        self.answer: Answer | None = None  # set before connect: elicitation and sampling offered
        self.sign_in: SignIn | None = None  # set before connect: a server's 401 or step-up asked
        self.on_log = None  # on_log(params of notifications/message), plain or async

    @property
    def modern(self) -> bool:
        return self.protocol_version == MODERN

    def capabilities_offered(self) -> dict:
        """Roots always, as none (TabAgent shares no files), and MCP Apps; elicitation (form only)
        and sampling when someone is there to answer them; tasks in the 2026-07-28 era."""
        offered: dict = {"roots": {}, "extensions": dict(apps.OFFERED)}  # MCP Apps: shown in the panel
        if self.answer is not None:
            offered.update(elicitation={"form": {}}, sampling={})
        if self.modern:
            offered["extensions"][TASKS] = {}
        return offered

    # -- the lifecycle ---------------------------------------------------------------------

    async def connect(self) -> "MCPClient":
        if self.transport_kind in ("auto", "streamable-http"):
            self.transport = StreamableHTTP(self.url, self.host, self.headers)
            try:
                if not await self._discover():
                    await self._initialize()
                return self
            except MCPError as e:
                # A server of the older transport refuses the POST (404, 405) or says 400.
                if self.transport_kind != "auto" or isinstance(e, SignInNeeded) or e.code not in (400, 404, 405):
                    raise
        self.transport = LegacySSE(self.url, self.host, self.headers)
        await self.transport.open(self.timeout)
        await self._initialize()
        return self

    async def _discover(self) -> bool:
        """Whether the server speaks 2026-07-28 (then its answer is adopted); False when it does
        not know `server/discover` or names only versions of the handshake."""
        self.protocol_version = self.transport.protocol_version = MODERN
        try:
            result = await self._request("server/discover", {}, retry_session=False)
        except SignInNeeded:
            raise
        except MCPError as refused:
            self.protocol_version = self.transport.protocol_version = None
            if (refused.code == 405 and self.transport_kind == "auto") or refused.code == TIMED_OUT:
                raise  # no POST at all (a server of HTTP+SSE); or no answer, which says nothing of its era
            if refused.code == UNSUPPORTED_VERSION and not set(supported(refused)) & set(HANDSHAKE_VERSIONS):
                raise unsupported(self.url, refused) from None
            return False
        if MODERN not in (result.get("supportedVersions") or []):
            self.protocol_version = self.transport.protocol_version = None
            return False
        self._adopt(result, _said_by(result))
        if (self.capabilities.get("tools") or {}).get("listChanged"):
            self.transport.listen(self._receive, self._stamped(messages.request(
                f"listen-{next(self._ids)}", "subscriptions/listen", {"notifications": {"toolsListChanged": True}})))
        return True

    def _adopt(self, result: dict, server_info: Any) -> None:
        """What a server says of itself: its words, kept bounded and shown (a server may call
        itself anything: the user's own name for it is what questions and tools carry)."""
        info = server_info if isinstance(server_info, dict) else {}
        self.server_info = {key: bounded(shown(str(info[key])), 120) for key in ("name", "version", "title") if key in info}
        self.capabilities = result.get("capabilities") if isinstance(result.get("capabilities"), dict) else {}
        self.instructions = result.get("instructions") if isinstance(result.get("instructions"), str) else None

    async def _initialize(self) -> None:
        self.transport.protocol_version = self.protocol_version = None
        self.transport.session_id = None
        result = await self._request("initialize", {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": self.capabilities_offered(), "clientInfo": CLIENT_INFO,
        }, retry_session=False)
        version = result.get("protocolVersion")
        if version not in HANDSHAKE_VERSIONS:
            raise MCPError(f"the MCP server at {self.url} speaks protocol version {bounded(str(version), 40)!r}, "
                           f"which TabAgent does not (it speaks {', '.join(SUPPORTED_VERSIONS)}).")
        self.protocol_version = self.transport.protocol_version = version
        self._adopt(result, result.get("serverInfo"))
        await self.transport.notify(self._stamped(messages.notification("notifications/initialized")))
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

    def _stamped(self, message: dict) -> dict:
        """A message as the era wants it: in 2026-07-28, `_meta` with the version, TabAgent's
        name and its capabilities (what the caller put in `_meta` kept)."""
        if not self.modern:
            return message
        params = dict(message.get("params") or {})
        params["_meta"] = {**(params.get("_meta") or {}), f"{META}protocolVersion": MODERN,
                           f"{META}clientInfo": CLIENT_INFO, f"{META}clientCapabilities": self.capabilities_offered(),
                           **({f"{META}logLevel": "info"} if self.on_log else {})}  # logs are asked for per request
        return {**message, "params": params}

    async def _request(self, method: str, params: dict | None = None, timeout: float | None = None,
                       retry_session: bool = True, signed: list | None = None) -> dict:
        """The request's result. `signed`: the sign-ins made for the call this request is part
        of (each call asks the user at most once, whatever its rounds)."""
        signed = [] if signed is None else signed
        while True:
            try:
                return await self._once(method, params, timeout or self.timeout, retry_session)
            except SignInNeeded as needed:
                if self.sign_in is None or signed:
                    raise
                signed.append(needed)
                headers = await self.sign_in(needed)
                if not headers:
                    raise
                self.transport.extra_headers.update(headers)

    async def _once(self, method: str, params: dict | None, timeout: float, retry_session: bool) -> dict:
        message = self._stamped(messages.request(next(self._ids), method, params))
        try:
            reply = await self._exchange(message, timeout)
        except SessionExpired:
            if not retry_session:
                raise
            await self._initialize()  # the server forgot us: a new session, once
            message = self._stamped(messages.request(next(self._ids), method, params))
            try:
                reply = await self._exchange(message, timeout)
            except SessionExpired as again:  # refused in a new session too: the request itself
                raise again.refusal or again from None
        try:
            return messages.result_of(reply, method, self.url)
        except MCPError as refused:
            if refused.code == UNSUPPORTED_VERSION and method != "server/discover":
                raise unsupported(self.url, refused) from None
            raise

    async def _exchange(self, message: dict, timeout: float) -> dict:
        """The request's response; on Stop or past `timeout`, the server is told to cancel."""
        headers = param_headers(self._tool_headers, message) if self.modern else {}
        try:
            return await asyncio.wait_for(self.transport.request(message, self._receive, timeout,
                                                                 **({"headers": headers} if headers else {})), timeout)
        except asyncio.TimeoutError:
            await self._cancel(message, "timed out")
            raise MCPError(f"the MCP server {self.name} did not answer {message['method']} within "
                           f"{timeout:g} s.", code=TIMED_OUT) from None
        except asyncio.CancelledError:
            await asyncio.shield(self._cancel(message, "the user stopped the turn"))
            raise

    async def _cancel(self, message: dict, reason: str) -> None:
        # The spec forbids cancelling the handshake; in 2026-07-28 ending the request (its POST
        # aborted) is the cancellation, and a client sends no notifications over HTTP.
        if message["method"] in ("initialize", "server/discover") or self.modern:
            return
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
        """Our response to a request of the server's (handshake era): as `answer_input` says."""
        try:
            return messages.response(id_, await self.answer_input(method, params))
        except MCPError as refused:
            return messages.response(id_, error={"code": refused.code or INVALID_PARAMS, "message": str(refused)})

    async def answer_input(self, method: str, params: dict) -> dict:
        """What TabAgent answers a server's question, in either era: pings, roots (none),
        elicitation and sampling by whoever answers them (the user: the same consent either
        way); MCPError for what is not offered."""
        if method == "ping":
            return {}
        if method == "roots/list":
            return {"roots": []}
        if method in ANSWERED_HERE and self.answer is not None:
            return await self.answer(method, params)
        raise MCPError(f"TabAgent does not offer {bounded(str(method), 60)}", code=METHOD_NOT_FOUND)

    async def ping(self) -> None:
        """Whether the server answers: `ping` in a session; 2026-07-28 has none, and
        `server/discover` (cheap, and cacheable) says the same."""
        await self._request("server/discover" if self.modern else "ping", {} if self.modern else None,
                            timeout=min(self.timeout, 10))

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
        """The server's tools; one whose definition asks for headers no client may send
        (a malformed `x-mcp-header`) is left out, the rest kept."""
        self.tools_changed = False
        tools, self._tool_headers = checked_tools(await self._paged("tools/list", "tools"))
        return tools

    async def _completed(self, method: str, params: dict, timeout: float | None = None,
                         on_progress: OnProgress | None = None) -> dict:
        """A request that may need the user's input first (2026-07-28's multi round-trip
        requests) or become a task: its final result."""
        signed: list = []
        rounds = InputRounds(self, method, params)
        result = await self._request(method, params, timeout, signed=signed)
        while rounds.needed(result):
            result = await self._request(method, await rounds.answered(result), timeout, signed=signed)
        if result.get("resultType") == "task" and self.modern:
            return await follow_task(self, result, on_progress, timeout)
        return result

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
            return await self._completed("tools/call", params, timeout, on_progress)
        finally:
            self._progress.pop(token, None)

    async def list_resources(self, limit: int = MAX_TOOLS) -> list[dict]:
        return await self._paged("resources/list", "resources", limit)

    async def list_resource_templates(self, limit: int = MAX_TOOLS) -> list[dict]:
        """The server's URI templates ({"uriTemplate", "name", ...}): resources made on demand."""
        return await self._paged("resources/templates/list", "resourceTemplates", limit)

    async def read_resource(self, uri: str) -> dict:
        return await self._completed("resources/read", {"uri": uri})

    async def list_prompts(self) -> list[dict]:
        return await self._paged("prompts/list", "prompts")

    async def get_prompt(self, name: str, arguments: dict | None = None) -> dict:
        return await self._completed("prompts/get", {"name": name, "arguments": arguments or {}})


def _said_by(result: dict) -> Any:
    """Who a discover answer says the server is: its `_meta` stamp, else the older field."""
    meta = result.get("_meta") if isinstance(result.get("_meta"), dict) else {}
    return meta.get(f"{META}serverInfo") or result.get("serverInfo")


def supported(refused: MCPError) -> list[str]:
    data = refused.data if isinstance(refused.data, dict) else {}
    versions = data.get("supported")
    return [str(v) for v in versions] if isinstance(versions, list) else []


def unsupported(url: str, refused: MCPError) -> MCPError:
    """A -32022 in words: which versions the server speaks, and which TabAgent does."""
    theirs = ", ".join(bounded(v, 40) for v in supported(refused)[:8]) or "none it named"
    return MCPError(f"the MCP server at {url} does not speak a protocol version TabAgent speaks: it speaks "
                    f"{theirs}; TabAgent speaks {', '.join(SUPPORTED_VERSIONS)}.", code=UNSUPPORTED_VERSION)


async def connect(url: str, **options: Any) -> MCPClient:
    return await MCPClient(url, **options).connect()


async def _maybe_await(value):
    if asyncio.iscoroutine(value):
        await value
