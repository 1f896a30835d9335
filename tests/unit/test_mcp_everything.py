"""The MCP client against the MCP project's own reference server, server-everything (npm,
the TypeScript SDK), over Streamable HTTP and the older HTTP+SSE: the same client speaks to
servers of both official SDKs."""

import re

import pytest

from tabagent import CodeAgent, ToolCallingAgent
from tabagent.app.sandbox_executor import SandboxExecutor
from tabagent.mcp import MCPClient, mcp_tools
from tabagent.mcp.tools import result_text
from tabagent.testing import ScriptedModel
from tests.helpers.mcp_server import EverythingServer, MCPTestServer
from tests.helpers.relay import Relay
from tests.helpers.in_process_sandbox import InProcessSandbox

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(scope="module", params=["streamable-http", "sse"])
def everything(request):
    with EverythingServer(request.param) as server:
        yield server


async def test_the_reference_server_is_met_and_its_tools_called(everything):
    async with MCPClient(everything.url, name="everything") as client:
        assert client.protocol_version == "2025-11-25"
        assert client.server_info["name"] == "mcp-servers/everything"
        tools = {t.remote_name: t for t in await mcp_tools(client)}
        assert {"echo", "get-sum", "get-tiny-image", "get-structured-content", "trigger-long-running-operation"} <= set(tools)
        assert tools["echo"].name == "everything__echo"  # names the model may use
        assert tools["get-sum"].name == "everything__get-sum"
        assert await tools["echo"](message="hi") == "Echo: hi"
        assert await tools["get-sum"](a=1, b=2) == "The sum of 1 and 2 is 3."


async def test_images_resource_links_and_structured_content_become_text(everything):
    async with MCPClient(everything.url) as client:
        image = result_text(await client.call_tool("get-tiny-image", {}))
        assert image.startswith("Here's the image you requested:\n\n[image: image/png, ")
        assert "not shown to the model" in image
        links = result_text(await client.call_tool("get-resource-links", {"count": 2}))
        assert "[resource link: demo://resource/dynamic/blob/1 Blob Resource 1]" in links
        weather = await client.call_tool("get-structured-content", {"location": "New York"})
        assert weather["structuredContent"]["conditions"] and '"conditions"' in result_text(weather)


async def test_a_long_operation_reports_its_progress(everything):
    async with MCPClient(everything.url) as client:
        seen = []
        result = await client.call_tool("trigger-long-running-operation", {"duration": 1, "steps": 3},
                                        on_progress=lambda *p: seen.append(p[:2]))
        assert "Long running operation completed" in result_text(result)
        assert seen == [(1, 3), (2, 3), (3, 3)]


async def test_resources_and_prompts_of_the_reference_server(everything):
    async with MCPClient(everything.url) as client:
        resources = await client.list_resources()
        assert resources and all("uri" in r for r in resources)
        read = await client.read_resource(resources[0]["uri"])
        assert read["contents"][0]["uri"] == resources[0]["uri"]
        assert "simple-prompt" in [p["name"] for p in await client.list_prompts()]


# --- Both agents against the reference server: its tools are named get-sum, get-tiny-image...


@pytest.fixture(scope="module")
def everything_http():
    with EverythingServer("streamable-http") as server:
        yield server


def code_reply(code: str) -> str:
    return f"I will run this.\n```python\n{code}\n```"


@pytest.mark.parametrize("where", ["local", "sandbox"])
async def test_the_code_agent_calls_the_reference_servers_hyphenated_tools(everything_http, where):
    """13 of the reference server's 14 tools (get-roots-list is offered to a client with roots)
    have a '-' in their name: the model writes a Python name, the call reaches the tool by its
    real name, results come back to the code."""
    async with MCPClient(everything_http.url, name="everything") as client:
        model = ScriptedModel([
            code_reply("total = everything__get_sum(a=2, b=40)\nprint(total)\n"
                       "print(everything__get_structured_content(location='Chicago')[:40])"),
            code_reply("final_answer(total)")])
        events = []
        executor = SandboxExecutor(InProcessSandbox()) if where == "sandbox" else None
        agent = CodeAgent(model, await mcp_tools(client), executor=executor, listeners=[events.append])
        assert await agent.run("What is 2 + 40?") == "The sum of 2 and 40 is 42."
    prompt = model.calls[0]["messages"][0]["content"]
    listed = re.findall(r"^- (\S+?)\(", prompt, re.MULTILINE)  # listed as calls, never as definitions
    assert "everything__get_sum" in listed and len([n for n in listed if n.startswith("everything__")]) == 14
    assert all(name.isidentifier() for name in listed), listed
    assert 'location: "New York" | "Chicago" | "Los Angeles"' in prompt  # the values it takes
    observed = model.calls[1]["messages"][-1]["content"]
    assert "The sum of 2 and 40 is 42." in observed and "NameError" not in observed, observed
    assert "\"temperature\"" in observed  # the structured result, as text
    assert [e.data["name"] for e in events if e.kind == "tool_call"] == [
        "everything__get-sum", "everything__get-structured-content"]  # the real names, as the user is asked


async def test_the_tool_calling_agent_calls_the_reference_servers_tools(everything_http):
    async with MCPClient(everything_http.url, name="everything") as client:
        model = ScriptedModel([
            {"tool_calls": [{"name": "everything__get-sum", "arguments": {"a": 2, "b": 40}},
                            {"name": "everything__get-annotated-message", "arguments": {"messageType": "success"}}]},
            {"tool_calls": [{"name": "final_answer", "arguments": {"answer": "42"}}]}])
        agent = ToolCallingAgent(model, await mcp_tools(client))
        assert await agent.run("What is 2 + 40?") == "42"
    sent = {t["function"]["name"] for t in model.calls[0]["tools"]}
    assert {"everything__get-sum", "everything__get-annotated-message"} <= sent
    results = [m["content"] for m in model.calls[1]["messages"] if m["role"] == "tool"]
    assert "The sum of 2 and 40 is 42." in results[0]
    assert "Operation completed successfully" in results[1], results


# --- Real networks: a connection that drops mid-call, a server that restarts --------------


async def test_a_call_whose_connection_drops_mid_stream_completes_by_resuming_it():
    """The relay forwards the first progress event of a long call, then cuts the connection
    (no clean end of the body): the client asks for the rest with Last-Event-ID and gets it.
    The server is the Python SDK's with an event store: the reference server's own store
    answers a resume with the events it has, but attaches nothing that comes later to it. (A
    session's streams: the SDK's 2026-07-28 replies carry no event ids to resume from.)"""
    with MCPTestServer(resumable=True, handshake_only=True) as server, Relay(server.port, cut_after=b"notifications/progress") as relay:
        async with MCPClient(relay.url("/mcp"), name="slowpoke") as client:
            seen = []
            result = await client.call_tool("slow", {"seconds": 0.5}, on_progress=lambda *p: seen.append(p[0]))
    assert relay.cuts == 1
    assert result_text(result) == "waited 0.5 s"
    assert seen == [1, 2, 3, 4, 5]  # progress from before the cut and after it, none twice


async def test_a_reference_server_that_restarted_and_forgot_the_session_is_met_again():
    """The TypeScript SDK's server answers 400 (not 404) to a session it does not know."""
    with EverythingServer("streamable-http") as server:
        async with MCPClient(server.url, name="everything") as client:
            first = client.transport.session_id
            server.restart()
            assert result_text(await client.call_tool("get-sum", {"a": 1, "b": 2})) == "The sum of 1 and 2 is 3."
            assert client.transport.session_id not in (None, first)


async def test_the_resources_tool_lists_the_reference_servers_resources_and_templates(everything_http):
    from tabagent.app.mcp_servers import ServerConnections
    from tabagent.app.mcp_settings import check_server

    server = {"id": "e", "name": "everything", "url": everything_http.url}
    shown = {t["name"]: t for t in (await check_server(server, {}))["tools"]}
    server["tools"] = {"resources": {"policy": "always", "second_look": True, "fingerprint": shown["resources"]["fingerprint"]}}
    connections = await ServerConnections().open([server], {})
    try:
        [resources] = [t for t in connections.tools(consent=None, conversation_id="c") if t.remote_name == "resources"]
        listed = await resources()
    finally:
        await connections.close()
    assert '"uri": "demo://resource/static/document/' in listed  # a resource
    assert '"uriTemplate": "demo://resource/dynamic/text/{resourceId}"' in listed  # and a template to fill in
