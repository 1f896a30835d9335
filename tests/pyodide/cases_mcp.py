"""MCP client cases run inside Pyodide (and, for parity, in CPython), against a real MCP
server written with the official Python SDK (tests/helpers/mcp_server.py), whose address
comes in TABAGENT_MCP_SERVER. In Pyodide the host is the JavaScript-fetch one: these cases
prove the Streamable HTTP transport, its event streams and cancellation on that path."""

import asyncio
import os

from tabagent.mcp import MCPClient, mcp_tools
from tabagent.mcp.errors import ToolCallError


def url() -> str:
    return os.environ["TABAGENT_MCP_SERVER"]


async def test_mcp_discover_and_tools():
    """The SDK 2.x's server speaks 2026-07-28: discovered, no handshake, no session."""
    async with MCPClient(url(), name="srv") as client:
        assert client.protocol_version == "2026-07-28", client.protocol_version
        assert client.transport.session_id is None
        tools = {t.name: t for t in await mcp_tools(client)}
        assert "srv__add" in tools, sorted(tools)
        assert await tools["srv__add"](a=20, b=22) == '{\n  "sum": 42\n}'


async def test_mcp_progress_and_errors():
    async with MCPClient(url()) as client:
        seen = []
        result = await client.call_tool("slow", {"seconds": 0.2}, on_progress=lambda *p: seen.append(p))
        assert result["content"][0]["text"] == "waited 0.2 s", result
        assert [p[0] for p in seen] == [1, 2], seen
        tools = {t.remote_name: t for t in await mcp_tools(client)}
        try:
            await tools["fail"]()
        except ToolCallError as e:
            assert "the disk is on fire" in str(e)
        else:
            raise AssertionError("a failing tool did not raise")


async def stopped_at_its_first_progress(client: MCPClient, tool: str, arguments: dict, started_within: float,
                                        stopped_within: float) -> None:
    """Calls `tool`, presses Stop (cancels the call) once it reports progress, and checks the
    call ends, as stopped, within `stopped_within` seconds (cases_mcp_tasks.py too)."""
    started = asyncio.Event()
    call = asyncio.ensure_future(client.call_tool(tool, arguments, on_progress=lambda *p: started.set()))
    await asyncio.wait_for(started.wait(), started_within)
    call.cancel()
    try:
        await asyncio.wait_for(call, stopped_within)
    except asyncio.CancelledError:
        return
    raise AssertionError(f"the call of {tool} was not stopped")


async def test_mcp_stop_ends_a_long_call_at_once():
    async with MCPClient(url()) as client:
        await stopped_at_its_first_progress(client, "slow", {"seconds": 30}, started_within=10, stopped_within=5)
        assert (await client.call_tool("echo", {"text": "still here"}))["content"][0]["text"] == "still here"


async def test_mcp_a_redirect_is_refused_and_its_headers_never_follow():
    """A server that answers with a redirect to another site would take the headers set for it
    along (fetch keeps custom headers across origins): TabAgent follows no redirect."""
    from tabagent.mcp import MCPError

    target = os.environ["TABAGENT_TEST_SERVER"] + "/redirect-to-collector"
    client = MCPClient(url().rsplit("/", 1)[0] + "/test/redirect?to=" + target, headers={"X-Api-Key": "k-123"})
    try:
        await client.connect()
    except MCPError as e:
        assert "answered with a redirect, which TabAgent does not follow" in str(e), str(e)
    else:
        raise AssertionError("a redirect was followed")


async def test_mcp_an_endpoint_is_read_by_the_parser_that_fetches_it():
    """The host decides an old-transport endpoint's origin: in Pyodide with JavaScript's URL
    (the parser fetch uses), in CPython refusing what the two parsers might read differently.
    Python's urlsplit reads the first address as 127.0.0.1; fetch would go to evil.example."""
    from tabagent.hosts import default_host

    host, base = default_host(), "http://127.0.0.1:1234/sse"
    read = host.resolve_url("http://evil.example\\@127.0.0.1:1234/x", base)
    import sys

    if sys.platform == "emscripten":  # the browser's parser: the host fetch would really go to
        assert read == ("http://evil.example/@127.0.0.1:1234/x", "http://evil.example"), read
    else:  # not read as Python would have read it: refused
        assert read is None, read
    assert host.resolve_url("/messages?session_id=1", base) == ("http://127.0.0.1:1234/messages?session_id=1",
                                                                "http://127.0.0.1:1234")


async def test_mcp_a_server_that_answers_without_a_body_is_an_error_in_words():
    """A response with no body at all (a 204 here; a redirect in the browser) is JavaScript's
    null in Pyodide, not None: Test connection says what went wrong, and a turn goes on
    without that server."""
    from tabagent.app.mcp_servers import ServerConnections
    from tabagent.app.mcp_settings import check_server

    empty = url().rsplit("/", 1)[0] + "/test/no-body"
    checked = await check_server({"name": "empty", "url": empty}, {})
    assert checked["ok"] is False and "answered initialize without any message" in checked["error"], checked
    servers = [{"id": "empty", "name": "empty", "url": empty, "tools": {}},
               {"id": "good", "name": "good", "url": url(), "tools": {}}]
    connections = await ServerConnections().open(servers, {})
    try:
        assert [c.name for c in connections.clients] == ["good"], connections.clients
        assert len(connections.problems) == 1 and "empty is left out of this turn" in connections.problems[0]
        assert "Traceback" not in connections.problems[0] and "Error" not in connections.problems[0]
    finally:
        await connections.close()


async def test_mcp_a_call_whose_connection_drops_mid_stream_completes_by_resuming_it():
    """Behind the relay, the stream of each call is cut after its first progress event (in
    Pyodide the body's reader rejects): the client resumes it with Last-Event-ID."""
    async with MCPClient(os.environ["TABAGENT_MCP_RELAY"]) as client:
        seen = []
        result = await client.call_tool("slow", {"seconds": 0.3}, on_progress=lambda *p: seen.append(p[0]))
        assert result["content"][0]["text"] == "waited 0.3 s", result
        assert seen == [1, 2, 3], seen
