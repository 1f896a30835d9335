"""MCP Apps without a browser (py/tabagent/mcp/apps.py, py/tabagent/app/mcp_apps.py), against a
real server of the official Python SDK whose apps are built on the official App SDK
(tests/helpers/mcp_app_server.py): what a server declares is kept only in a CSP source's safe
shape; an app's page is read and checked; an app's call reaches its own server only, only a tool
apps may call, only once the user allows it, with allowances apart from the model's."""

import asyncio
import json

import pytest

from tabagent.app.mcp_apps import AppCall, read_app
from tabagent.app.mcp_servers import ServerConnections
from tabagent.mcp.apps import NotAnApp, app_page, declared_domains, visible_to
from tests.helpers.mcp_app_server import MCPAppServer


def test_only_a_plain_origin_is_kept_of_what_an_app_declares():
    kept = declared_domains({"connectDomains": ["https://api.example.com", "https://x.example; script-src *",
                                                "https://*.cdn.example:8443", "*", "javascript:alert(1)", 7,
                                                "https://a.example/path", "wss://live.example"],
                             "frameDomains": ["https://anything.example"]})
    assert kept == {"connectDomains": ["https://api.example.com", "https://*.cdn.example:8443", "wss://live.example"],
                    "resourceDomains": []}


def test_visibility_and_an_app_s_page_as_checked():
    assert visible_to({}, "model") and visible_to({"_meta": {"ui": {"visibility": ["app"]}}}, "app")
    assert not visible_to({"_meta": {"ui": {"visibility": ["app"]}}}, "model")
    read = {"contents": [{"uri": "ui://a", "mimeType": "text/html", "text": "<p>"}]}
    with pytest.raises(NotAnApp, match="not an MCP App"):
        app_page(read, "ui://a")
    with pytest.raises(NotAnApp, match="no content"):
        app_page(read, "ui://b")


class Asked:
    def __init__(self, decision):
        self.decision, self.asked = decision, []

    async def confirm(self, id, tool, message, details):
        self.asked.append((message, details["tool"]))
        return self.decision


@pytest.fixture(scope="module")
def apps():
    with MCPAppServer() as server:
        yield server


def test_an_app_s_calls_reach_its_own_server_only_as_allowed(apps):
    server = {"id": "id-apps", "name": "apps", "url": apps.url, "tools": {}}

    async def run():
        page = await read_app(server, {}, "ui://counter/view.html")
        assert page["ok"] and "Counter app" in page["html"] and page["csp"] == {"connectDomains": [], "resourceDomains": []}
        events = []
        call = AppCall(server, {}, "conversation", "app-1", lambda event: events.append(json.loads(event)))
        denied, allowed = Asked("deny"), Asked("once")
        assert (await call.run("bump", {"by": 1}, denied))["ok"] is False and apps.bumps() == []
        assert denied.asked == [("The app of the MCP server apps asks to call one of its tools", "bump")]
        done = await call.run("bump", {"by": 2}, allowed)
        assert done["ok"] and done["result"]["structuredContent"] == {"count": 2} and apps.bumps() == [2]
        refused = Asked("once")
        assert "not one its apps may call" in (await call.run("model_only", {}, refused))["error"]
        assert "has no tool named 'add'" in (await call.run("add", {}, refused))["error"]
        assert refused.asked == [] and apps.bumps() == [2]
        connections = await ServerConnections().open([server], {})
        try:
            assert "apps__bump" not in {tool.name for tool in connections.tools(None, "conversation")}
        finally:
            await connections.close()
        assert [e["agent"] for e in events] == ["MCP app"] * len(events)

    asyncio.run(run())
