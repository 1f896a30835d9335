"""The MCP client against the MCP project's own reference server, server-everything (npm,
the TypeScript SDK), over Streamable HTTP and the older HTTP+SSE: the same client speaks to
servers of both official SDKs."""

import pytest

from tabagent.mcp import MCPClient, mcp_tools
from tabagent.mcp.tools import result_text
from tests.helpers.mcp_server import EverythingServer

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
