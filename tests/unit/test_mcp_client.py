"""The MCP client against a real MCP server written with the official Python SDK
(tests/helpers/mcp_server.py), over each transport it speaks, stateful and stateless (`mcp`
2.3.0 serves no Tasks extension: its long tools are followed by progress and cancelled by
Stop; FastMCP's tasks are test_mcp_fastmcp.py's): the handshake, paged tools,
calls with structured results, errors and progress, resources and prompts, Stop and time
limits that cancel on the server, list_changed, an expired session, and failures in words."""

import asyncio
import http.server
import threading

import pytest

from tabagent.host import Response
from tabagent.hosts.cpython import CPythonHost
from tabagent.mcp import MCPClient, MCPError, connect, mcp_tools
from tabagent.mcp.errors import ToolCallError
from tests.helpers.mcp_server import MCPTestServer

pytestmark = pytest.mark.timeout(60)

# The same server in both eras: the SDK 2.x's (2026-07-28 first, the handshake for older clients)
# and, refusing server/discover as the SDK 1.x does, the handshake only.
TRANSPORTS = {"streamable-http, events": dict(transport="streamable-http"),
              "streamable-http, json": dict(transport="streamable-http", json_response=True),
              "streamable-http, handshake": dict(transport="streamable-http", handshake_only=True),
              # stateless_http, the SDK's deployment for many workers: no session in either era.
              "streamable-http, stateless": dict(transport="streamable-http", stateless=True),
              "streamable-http, stateless handshake": dict(transport="streamable-http", stateless=True,
                                                           handshake_only=True),
              "http+sse": dict(transport="sse")}
VERSION = {"streamable-http, events": "2026-07-28", "streamable-http, json": "2026-07-28",
           "streamable-http, stateless": "2026-07-28"}


@pytest.fixture(scope="module", params=list(TRANSPORTS))
def server(request):
    with MCPTestServer(**TRANSPORTS[request.param]) as running:
        running.kind = request.param
        yield running


def marked(source, text):
    return f"<untrusted from={source!r}>{text}</untrusted>"


async def test_the_server_and_the_version_both_speak_are_named(server):
    """server/discover first; the handshake when the server does not know it."""
    async with MCPClient(server.url, name="test") as client:
        assert client.protocol_version == VERSION.get(server.kind, "2025-11-25")
        assert client.server_info["name"] == "tabagent-test-server"
        assert "tools" in client.capabilities
        assert type(client.transport).__name__ == ("LegacySSE" if server.kind == "http+sse" else "StreamableHTTP")
        await client.ping()


async def test_tools_become_agent_tools_with_their_schema(server):
    async with MCPClient(server.url, name="files") as client:
        tools = {t.name: t for t in await mcp_tools(client, mark=marked)}
        assert {"files__echo", "files__add", "files__slow", "files__fail"} <= set(tools)
        add = tools["files__add"].to_openai()["function"]
        assert add["parameters"]["properties"].keys() == {"a", "b"}
        assert add["description"] == "(from the MCP server 'files') Adds two integers."
        assert "def files__add(a: int, b: int)" in tools["files__add"].python_signature()
        assert await tools["files__add"](a=2, b=40) == marked("MCP server files, tool add", '{\n  "sum": 42\n}')


async def test_a_tool_error_is_raised_marked_and_bad_arguments_never_reach_the_server(server):
    async with MCPClient(server.url, name="s") as client:
        tools = {t.name: t for t in await mcp_tools(client, mark=marked)}
        with pytest.raises(ToolCallError, match="<untrusted from='MCP server s, tool fail'>.*the disk is on fire"):
            await tools["s__fail"]()
        with pytest.raises(ValueError, match="argument 'a' should be integer"):
            await tools["s__add"](a="two", b=1)


async def test_progress_is_reported_as_it_comes(server):
    if server.json_response:
        pytest.skip("a server that answers with one JSON body sends no progress on the way")
    async with MCPClient(server.url) as client:
        seen = []
        result = await client.call_tool("slow", {"seconds": 0.3}, on_progress=lambda *p: seen.append(p))
        assert result["content"][0]["text"] == "waited 0.3 s"
        assert seen == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]


async def test_resources_and_prompts(server):
    async with MCPClient(server.url) as client:
        assert [r["uri"] for r in await client.list_resources()] == ["note://hello"]
        assert (await client.read_resource("note://hello"))["contents"][0]["text"] == "Hello from a resource."
        prompt = (await client.list_prompts())[0]
        assert prompt["name"] == "summarise" and prompt["arguments"][0]["name"] == "topic"
        got = await client.get_prompt("summarise", {"topic": "MCP"})
        assert got["messages"][0]["content"]["text"] == "Summarise MCP in three lines."


async def wait_for(predicate, seconds=10):
    for _ in range(int(seconds * 20)):
        if predicate():
            return True
        await asyncio.sleep(0.05)
    return predicate()


async def test_stop_cancels_the_call_on_the_server(server):
    if server.json_response:
        pytest.skip("covered by the other transports: the same cancellation message")
    async with MCPClient(server.url) as client:
        before = server.cancelled_calls()
        started = asyncio.Event()
        call = asyncio.ensure_future(client.call_tool("slow", {"seconds": 20}, on_progress=lambda *p: started.set()))
        await asyncio.wait_for(started.wait(), 10)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        assert await wait_for(lambda: server.cancelled_calls() == before + 1)


async def test_a_call_past_its_time_limit_fails_in_words_and_is_cancelled(server):
    if server.kind == "streamable-http, json":
        pytest.skip("2026-07-28 cancels by ending the request, which a server answering in one JSON body never sees")
    async with MCPClient(server.url, name="slowpoke") as client:
        before = server.cancelled_calls()
        with pytest.raises(MCPError, match="slowpoke did not answer tools/call within 0.5 s"):
            await client.call_tool("slow", {"seconds": 20}, timeout=0.5)
        assert await wait_for(lambda: server.cancelled_calls() == before + 1)


async def test_a_changed_tool_list_is_noticed(server):
    if server.json_response:
        pytest.skip("a JSON reply carries no notification")
    if server.kind == "streamable-http, stateless handshake":
        pytest.skip("a stateless server of the handshake era keeps no stream of its own to announce on")
    async with MCPClient(server.url) as client:
        heard = []
        client.on_tools_changed = lambda: heard.append(True)
        assert "late" not in [t["name"] for t in await client.list_tools()]
        await client.call_tool("grow", {})
        assert await wait_for(lambda: client.tools_changed and heard)  # on the server's own stream
        assert "late" in [t["name"] for t in await client.list_tools()]
        assert not client.tools_changed


async def test_headers_of_the_server_settings_are_sent(server):
    async with MCPClient(server.url, headers={"authorization": "Bearer s3cret", "x-team": "blue"}) as client:
        result = await client.call_tool("whoami", {})
        assert "authorization=Bearer s3cret" in result["content"][0]["text"]
        assert "x-team=blue" in result["content"][0]["text"]


async def test_results_are_cut_with_a_note():
    with MCPTestServer() as running:
        async with MCPClient(running.url, name="big") as client:
            huge = {t.name: t for t in await mcp_tools(client, max_chars=1000)}["big__huge"]
            text = await huge(chars=50_000)
            assert text.startswith("x" * 1000) and text.endswith("[result cut: 49,000 more characters not shown]")


async def test_an_expired_session_is_started_again_once():
    with MCPTestServer(handshake_only=True) as running:
        async with MCPClient(running.url) as client:
            first = client.transport.session_id
            running.restart()  # a server that restarts knows no session from before
            result = await client.call_tool("echo", {"text": "again"})
            assert result["content"][0]["text"] == "again"
            assert client.transport.session_id not in (None, first)


async def test_an_unreachable_server_is_told_in_words():
    url = MCPTestServer().url  # a free port nothing listens on: no server is started
    with pytest.raises(MCPError, match="could not reach the MCP server at http://127.0.0.1:.*check its address"):
        await connect(url, transport="streamable-http")


class Answering(http.server.BaseHTTPRequestHandler):
    status, headers, body = 401, {"WWW-Authenticate": 'Bearer realm="mcp", error="invalid_token"'}, b""

    def do_POST(self):
        self.send_response(self.status)
        for name, value in self.headers_to_send.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(self.body)

    headers_to_send = headers

    def log_message(self, *args):
        pass


@pytest.fixture
def refusing_server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answering)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/mcp"
    httpd.shutdown()


async def test_a_401_says_what_the_server_asks_for(refusing_server):
    with pytest.raises(MCPError, match=r"needs authorisation \(it asks for: Bearer realm=\"mcp\"") as caught:
        await connect(refusing_server)
    assert caught.value.code == 401


# What a server of the handshake era (the Python SDK 1.x) answers `server/discover`: no session, no request.
OLD_SERVER = (400, {"content-type": "text/plain"}, [b"Bad Request: Missing session ID"])


class CannedHost(CPythonHost):
    """Answers each request with the next canned (status, headers, body)."""

    def __init__(self, *answers):
        super().__init__()
        self.answers, self.requests = list(answers), []

    async def request(self, method, url, headers, body=None, timeout=None, follow_redirects=True):
        self.requests.append((method, url, headers, body))
        listening = method == "GET" and "last-event-id" not in headers and url.endswith("/mcp")
        status, headers_back, chunks = (405, {}, [b""]) if listening else self.answers.pop(0)

        class Canned(Response):
            async def chunks(self):
                for piece in chunks:
                    yield piece

            async def close(self):
                pass

        return Canned(status, headers_back)


async def test_a_server_of_an_unknown_protocol_version_is_refused_in_words():
    body = b'{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"1999-01-01","capabilities":{}}}'
    host = CannedHost(OLD_SERVER, (200, {"content-type": "application/json"}, [body]))
    with pytest.raises(MCPError, match="speaks protocol version '1999-01-01', which TabAgent does not"):
        await connect("http://127.0.0.1:9/mcp", host=host)


async def test_an_old_style_server_may_not_send_our_messages_to_another_site():
    stream = [b"event: endpoint\ndata: http://elsewhere.example/messages?session=1\n\n"]
    host = CannedHost((405, {}, [b""]), (200, {"content-type": "text/event-stream"}, stream))
    with pytest.raises(MCPError, match=r"asked for our messages to go to another site \(elsewhere.example\): refused"):
        await connect("http://127.0.0.1:9/sse", host=host, headers={"authorization": "Bearer s3cret"}, timeout=5)
    assert all("elsewhere" not in url for _, url, _, _ in host.requests)


async def test_a_stream_cut_before_the_answer_is_resumed_from_its_last_event():
    first = [b'id: 7\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"x","progress":1}}\n\n']
    rest = [b'id: 8\ndata: {"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"echo"}]}}\n\n']
    init = b'{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}'
    host = CannedHost(OLD_SERVER, (200, {"content-type": "application/json", "mcp-session-id": "abc"}, [init]),
                      (202, {}, [b""]),
                      (200, {"content-type": "text/event-stream"}, first),
                      (200, {"content-type": "text/event-stream"}, rest))
    client = await connect("http://127.0.0.1:9/mcp", host=host)
    assert [t["name"] for t in await client.list_tools()] == ["echo"]
    method, _, headers, _ = host.requests[-1]
    assert method == "GET" and headers["last-event-id"] == "7" and headers["mcp-session-id"] == "abc"
    assert headers["mcp-protocol-version"] == "2025-11-25"


async def test_a_paged_tool_list_is_read_to_its_end():
    init = b'{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}'
    page1 = b'{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a"},{"name":"b"}],"nextCursor":"p2"}}'
    page2 = b'{"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":"c"}]}}'
    json_ = {"content-type": "application/json"}
    host = CannedHost(OLD_SERVER, (200, json_, [init]), (202, {}, [b""]), (200, json_, [page1]), (200, json_, [page2]))
    client = await connect("http://127.0.0.1:9/mcp", host=host)
    assert [t["name"] for t in await client.list_tools()] == ["a", "b", "c"]
    assert b'"cursor":"p2"' in host.requests[-1][3]


async def test_a_server_that_pages_forever_is_cut_off():
    init = b'{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}'
    json_ = {"content-type": "application/json"}
    pages = [(200, json_, [f'{{"jsonrpc":"2.0","id":{i + 1},"result":{{"tools":[{{"name":"t{i}"}}],"nextCursor":"more"}}}}'.encode()])
             for i in range(2, 60)]
    client = await connect("http://127.0.0.1:9/mcp", host=CannedHost(OLD_SERVER, (200, json_, [init]), (202, {}, [b""]), *pages))
    assert len(await client.list_tools()) == 50  # MAX_PAGES, then it stops asking


async def test_a_result_larger_than_a_message_may_be_is_refused_not_read_to_its_end():
    init = b'{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}'
    served = []

    def endless():  # a body that never ends, a megabyte at a time
        while True:
            served.append(1)
            yield b'{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"' if len(served) == 1 else b"x" * 2**20

    json_ = {"content-type": "application/json"}
    client = await connect("http://127.0.0.1:9/mcp", host=CannedHost(OLD_SERVER, (200, json_, [init]), (202, {}, [b""]), (200, json_, endless())))
    with pytest.raises(MCPError, match="sent a message larger than 8 MB: TabAgent stopped reading it"):
        await client.call_tool("anything", {})
    assert len(served) < 12


async def test_an_event_that_never_ends_is_refused_too():
    init = b'{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}'

    def endless():
        yield b"data: "
        while True:
            yield b"y" * 2**20

    client = await connect("http://127.0.0.1:9/mcp", host=CannedHost(OLD_SERVER,
        (200, {"content-type": "application/json"}, [init]), (202, {}, [b""]), (200, {"content-type": "text/event-stream"}, endless())))
    with pytest.raises(MCPError, match="larger than 8 MB"):
        await client.call_tool("anything", {})


@pytest.mark.parametrize("endpoint", ["http://elsewhere.example\\@127.0.0.1:9/messages",
                                      "/\\elsewhere.example/messages"])
async def test_an_old_style_endpoint_the_browser_would_read_as_another_site_is_refused(endpoint):
    """Python's urlsplit reads 127.0.0.1:9 in these; the browser's fetch would go to elsewhere.example."""
    stream = [f"event: endpoint\ndata: {endpoint}\n\n".encode()]
    host = CannedHost((405, {}, [b""]), (200, {"content-type": "text/event-stream"}, stream),
                      (202, {}, [b""]), (202, {}, [b""]))
    with pytest.raises(MCPError, match="refused"):
        await connect("http://127.0.0.1:9/sse", host=host, headers={"authorization": "Bearer s3cret"}, timeout=2)
    assert [(method, url) for method, url, _, _ in host.requests] == [("POST", "http://127.0.0.1:9/sse"), ("GET", "http://127.0.0.1:9/sse")]


async def test_a_request_refused_with_400_in_a_new_session_too_is_the_servers_refusal():
    """A 400 to a request in a session may mean the server forgot it: a new session, and the
    request once more; refused again, it is the request that is wrong, and the user reads why."""
    init = b'{"jsonrpc":"2.0","id":%d,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}'
    json_ = {"content-type": "application/json", "mcp-session-id": "s1"}
    refused = (400, {"content-type": "application/json"}, [b'{"error":{"message":"cursor is malformed"}}'])
    host = CannedHost(OLD_SERVER, (200, json_, [init % 2]), (202, {}, [b""]), refused,
                      (200, json_, [init % 4]), (202, {}, [b""]), refused)
    client = await connect("http://127.0.0.1:9/mcp", host=host)
    with pytest.raises(MCPError, match=r"answered HTTP 400: .*cursor is malformed") as caught:
        await client.list_tools()
    assert caught.value.code == 400
    assert [(m, (b or b"")[:40]) for m, _, _, b in host.requests].count(("POST", b'{"jsonrpc":"2.0","id":4,"method":"initia')) == 1


@pytest.mark.parametrize("kind", [MCPError, *MCPError.__subclasses__()])
def test_every_mcp_error_can_be_made_again_with_its_text_marked(kind):
    """mcp.tools.asking_server raises a server's error again as type(error)(marked, code=...)."""
    again = kind("marked text", code=400)
    assert str(again) == "marked text" and again.code == 400
