"""TabAgent as an MCP server: TabAgent's page tools for any MCP client (Claude Code, Cursor,
the MCP Inspector), through the TabAgent extension and its consent in the panel.

Two processes, because each end starts its own: the MCP client starts `tabagent-mcp` over
stdio (server.py), and the browser starts `tabagent-mcp host` when the extension connects
to its native messaging host (host.py). They meet on a unix socket in a folder only this
user can open (meeting_place.py). register.py writes the native host manifests.
"""

HOST_NAME = "tabagent_mcp"  # the native messaging host's name, as the extension connects to it
