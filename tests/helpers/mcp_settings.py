"""MCP servers saved and checked through the background, as the settings page does."""

from __future__ import annotations

from tests.e2e.chat import ask_background


def server_entry(mcp, tools=None, name="lab", enabled=True):
    return {"id": f"id-{name}", "name": name, "url": mcp.url, "enabled": enabled, "tools": tools or {}}


def use_servers(browser, *servers, secrets=None):
    return ask_background(browser, "save-mcp-servers", servers=list(servers), secrets=secrets or {})


def check(browser, server_id="id-lab"):
    return ask_background(browser, "check-mcp-server", serverId=server_id)
