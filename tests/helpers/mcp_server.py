"""A real MCP server, written with the official Python SDK (`mcp`), that the tests control:
run in its own process on 127.0.0.1, over Streamable HTTP (SSE or JSON replies) or the older
HTTP+SSE transport.

Its tools: echo, add (structured output with an output schema), slow (progress, and it
counts the calls the client cancelled), fail (isError), huge (a long result), grow (adds a
tool and announces list_changed), whoami (the headers it was sent). A resource and a prompt.
With `resumable`, its events carry ids and a stream cut short is resumed (Last-Event-ID).

    with MCPTestServer(transport="streamable-http") as server:
        server.url  # http://127.0.0.1:PORT/mcp
"""


import argparse
import asyncio
import os
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from tests.helpers.server_forks import forked
from tests.helpers.processes import end_within, listens_on

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PortTaken(RuntimeError):
    """The server could not bind its port: another process holds it."""


class MCPTestServer:
    def __init__(self, transport: str = "streamable-http", json_response: bool = False,
                 description: str | None = None, extra_tools: int = 0, resumable: bool = False,
                 resources: bool = True, handshake_only: bool = False, stateless: bool = False):
        self.transport, self.json_response, self.description = transport, json_response, description
        self.handshake_only = handshake_only  # as a server of the SDK 1.x: no server/discover
        self.stateless = stateless  # `stateless_http`: no session even in the handshake era
        self.resumable = resumable  # events get ids, and a stream cut short can be resumed
        self.resources = resources  # False: the resources capability, but not one resource
        self.extra_tools = extra_tools  # that many more tools, tool_0..., with long descriptions
        self.port = _free_port()
        path = "/mcp" if transport == "streamable-http" else "/sse"
        self.url = f"http://127.0.0.1:{self.port}{path}"
        self.process = None

    def __enter__(self) -> "MCPTestServer":
        for _attempt in range(3):
            try:
                self._start()
                return self
            except PortTaken:  # another test's server took the port between our pick and our bind
                self._new_ports()
            except BaseException:  # never listened, or the test was stopped: no server is left running
                if self.process is not None and self.process.poll() is None:
                    self._stop()
                raise
        raise RuntimeError("three free ports in a row were taken before the MCP test server could listen")

    def _new_ports(self) -> None:
        old, self.port = self.port, _free_port()
        self.url = self.url.replace(f":{old}/", f":{self.port}/")

    def restart(self) -> None:
        """A new server process on the same port: it knows none of the old sessions."""
        self._stop()
        self._start()

    def _start(self) -> None:
        args = ["--port", str(self.port),
                "--transport", self.transport]
        if self.json_response:
            args.append("--json")
        if self.description:
            args += ["--description", self.description]
        if self.extra_tools:
            args += ["--extra-tools", str(self.extra_tools)]
        if self.resumable:
            args.append("--resumable")
        if not self.resources:
            args.append("--no-resources")
        if self.handshake_only:
            args.append("--handshake-only")
        if self.stateless:
            args.append("--stateless")
        self.process = forked("tests.helpers.mcp_server", args)
        self._wait_until_listening()

    def _wait_until_listening(self, timeout: float = 30, port: int | None = None) -> None:
        """Until the server's own process listens on `port` (its MCP port unless said)."""
        port = port or self.port
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                said = self.process.stderr.read().decode()[-2000:]
                if "address already in use" in said.lower():
                    raise PortTaken(said)
                raise RuntimeError(f"the MCP test server exited: {said}")
            if listens_on(self.process.pid, port):  # ours: not another test's on a reused port
                return
            time.sleep(0.1)
        raise RuntimeError("the MCP test server never listened")

    def cancelled_calls(self) -> int:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/test/cancelled", timeout=5) as reply:
            return int(reply.read())

    def __exit__(self, *exc) -> None:
        self._stop()

    def _stop(self) -> None:
        self.process.terminate()
        end_within(self.process, 10)


def build(description: str | None, extra_tools: int = 0, resources: bool = True):
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import BaseModel
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse

    server = MCPServer("tabagent-test-server")
    counts = {"cancelled": 0}

    @server.tool(description=description or "Says the text back.")
    def echo(text: str) -> str:
        return text

    class Sum(BaseModel):
        sum: int

    @server.tool(description="Adds two integers.")
    def add(a: int, b: int) -> Sum:
        return Sum(sum=a + b)

    @server.tool(description="Waits, reporting progress every tenth of a second.")
    async def slow(seconds: float, ctx: Context) -> str:
        steps = max(1, int(seconds * 10))
        try:
            for step in range(steps):
                await ctx.report_progress(step + 1, steps, f"step {step + 1}")
                await asyncio.sleep(0.1)
        except asyncio.CancelledError:
            counts["cancelled"] += 1
            raise
        return f"waited {seconds} s"

    @server.tool(description="Always fails.")
    def fail() -> str:
        raise ToolError("the disk is on fire")

    @server.tool(description="A long result.")
    def huge(chars: int) -> str:
        return "x" * chars

    @server.tool(description="Adds a tool named late and tells the client the list changed.")
    async def grow(ctx: Context) -> str:
        @server.tool(description="Came later.")
        def late() -> str:
            return "late"

        if (ctx.protocol_version or "") >= "2026":
            await ctx.notify_tools_changed()  # to the subscriptions/listen streams
        else:
            await ctx.session.send_tool_list_changed()
        return "grown"

    @server.tool(description="The headers the request carried.")
    def whoami(ctx: Context) -> str:
        request = ctx.request_context.request
        headers = getattr(request, "headers", {}) or {}
        return ", ".join(f"{k}={v}" for k, v in sorted(headers.items()) if k in ("authorization", "x-team", "origin"))

    for number in range(extra_tools):
        def numbered(value: str, number: int = number) -> str:
            return f"tool {number}: {value}"

        server.add_tool(numbered, name=f"tool_{number}",
                        description=f"Tool number {number}. " + "It does one small thing, described at length. " * 8)

    if resources:
        @server.resource("note://hello", description="A short note.")
        def hello() -> str:
            return "Hello from a resource."

    @server.prompt(description="Asks for a summary of a topic.")
    def summarise(topic: str) -> str:
        return f"Summarise {topic} in three lines."

    @server.custom_route("/test/redirect", methods=["GET", "POST"])
    async def redirect(request: Request):
        from starlette.responses import RedirectResponse

        return RedirectResponse(request.query_params["to"], status_code=307)

    @server.custom_route("/test/no-body", methods=["GET", "POST", "DELETE"])
    async def no_body(request: Request):
        from starlette.responses import Response

        return Response(status_code=204)  # a response without a body: JavaScript's null

    @server.custom_route("/test/cancelled", methods=["GET"])
    async def cancelled(request: Request) -> PlainTextResponse:
        return PlainTextResponse(str(counts["cancelled"]))

    return server


def event_store():
    """The events of every stream, kept in memory, for a client that resumes a stream.

    A resume is replayed to the stream's end (its response), events stored meanwhile included:
    the SDK attaches a resumed stream to the live events only once the replay has returned, and
    an event stored between the two reaches no one (its own "replay -> live-tail ordering
    window"), which lost one progress event in about 20 resumes on a loaded machine."""
    from mcp.server.streamable_http import EventMessage, EventStore
    from mcp.types import JSONRPCError, JSONRPCResponse

    class InMemory(EventStore):
        def __init__(self):
            self.events: list[tuple[str, str, object]] = []  # (event id, stream id, message)
            self.stored = asyncio.Event()  # set, and replaced, as each event is stored

        async def store_event(self, stream_id, message):
            event_id = str(len(self.events) + 1)
            self.events.append((event_id, stream_id, message))
            self.stored.set()
            self.stored = asyncio.Event()
            return event_id

        async def replay_events_after(self, last_event_id, send_callback):
            known = [i for i, (event_id, _, _) in enumerate(self.events) if event_id == last_event_id]
            if not known:
                return None
            stream, at = self.events[known[0]][1], known[0] + 1
            while True:
                while at < len(self.events):
                    event_id, stream_id, message = self.events[at]
                    at += 1
                    if stream_id == stream and message is not None:
                        await send_callback(EventMessage(message, event_id))
                        if isinstance(message, JSONRPCResponse | JSONRPCError):
                            return stream
                await self.stored.wait()  # (a client that leaves ends this: send_callback raises)

    return InMemory()


def handshake_only(app):
    """The app as a server of the handshake era (the Python SDK 1.x) answers: `server/discover`
    is a request outside any session, refused with 400 as that SDK refuses it."""
    import json

    async def answered(scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await app(scope, receive, send)
        received, body = [], b""
        while not received or received[-1].get("more_body"):
            received.append(await receive())
            body += received[-1].get("body", b"")
        try:
            method = json.loads(body).get("method")
        except (ValueError, AttributeError):
            method = None
        if method == "server/discover":
            await send({"type": "http.response.start", "status": 400, "headers": [(b"content-type", b"text/plain")]})
            return await send({"type": "http.response.body", "body": b"Bad Request: Missing session ID"})

        async def replay():
            return received.pop(0) if received else await receive()
        return await app(scope, replay, send)
    return answered


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--transport", default="streamable-http")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--description")
    parser.add_argument("--extra-tools", type=int, default=0)
    parser.add_argument("--resumable", action="store_true")
    parser.add_argument("--no-resources", action="store_true")
    parser.add_argument("--handshake-only", action="store_true")
    parser.add_argument("--stateless", action="store_true")
    options = parser.parse_args()
    server = build(options.description, options.extra_tools, not options.no_resources)
    if options.transport == "sse":
        server.run("sse", host="127.0.0.1", port=options.port)
    elif options.handshake_only:
        import uvicorn

        app = server.streamable_http_app(json_response=options.json, stateless_http=options.stateless,
                                         event_store=event_store() if options.resumable else None)
        uvicorn.run(handshake_only(app), host="127.0.0.1", port=options.port, log_level="warning")
    else:
        server.run("streamable-http", host="127.0.0.1", port=options.port, json_response=options.json,
                   stateless_http=options.stateless,
                   event_store=event_store() if options.resumable else None)


if __name__ == "__main__":
    main()


class EverythingServer(MCPTestServer):
    """The MCP project's reference server, `@modelcontextprotocol/server-everything` (npm,
    written with the TypeScript SDK), over Streamable HTTP or HTTP+SSE."""

    def __init__(self, transport: str = "streamable-http"):
        super().__init__(transport)

    def _start(self) -> None:
        entry = ROOT / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
        mode = "streamableHttp" if self.transport == "streamable-http" else "sse"
        self.process = subprocess.Popen(["node", str(entry), mode], cwd=ROOT, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, env={**os.environ, "PORT": str(self.port)})
        self._wait_until_listening()
