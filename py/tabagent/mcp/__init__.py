"""A client for MCP (Model Context Protocol) servers: their tools become the agent's tools.

It speaks HTTP through the host like the model client does, so the same code runs in
CPython (tests, the command line) and in Pyodide (the extension). Transports:
Streamable HTTP (streamable_http.py) and the older HTTP+SSE (legacy_sse.py); the
protocol on top of either is client.py; tools.py turns a server's tools into `Tool`s.
"""

from .client import MCPClient, connect
from .errors import MCPError
from .tools import mcp_tools

__all__ = ["MCPClient", "MCPError", "connect", "mcp_tools"]
