"""MCP servers saved and checked through the background, as the settings page does."""

from __future__ import annotations

LAB_SECRET = {"X-Team": "blue-secret"}  # a header the lab server (tests/helpers/mcp_server.py) is sent, kept like the API key


def server_entry(mcp, tools=None, name="lab", enabled=True):
    return {"id": f"id-{name}", "name": name, "url": mcp.url, "enabled": enabled, "tools": tools or {}}


def use_servers(panel, *servers, secrets=None):
    return panel.ask_background("save-mcp-servers", servers=list(servers), secrets=secrets or {})


def check(panel, server_id="id-lab"):
    return panel.ask_background("check-mcp-server", serverId=server_id)


def with_mcp_server(panel, entry, secrets=None):
    """A fixture's body: `panel` with the MCP server `entry` saved (and its secret headers) until
    the test ends, then no server."""
    use_servers(panel, entry, secrets=secrets)
    yield panel
    use_servers(panel)
