"""TabAgent's MCP server (mcp-server/) over Streamable HTTP, for the conformance suite's server
scenarios, which reach a server by its address. An MCP client starts TabAgent's server over stdio;
this front serves the very server `tabagent_mcp.server.build()` makes, unchanged, on 127.0.0.1
(the SDK's own Streamable HTTP transport), with no extension behind it: a tool call is answered
"TabAgent is not connected", as it is to a client whose browser is closed.

    python -m tests.conformance.http_front --port 8123   # http://127.0.0.1:8123/mcp
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "mcp-server"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    options = parser.parse_args()
    from tabagent_mcp.server import build

    build().run("streamable-http", host="127.0.0.1", port=options.port)


if __name__ == "__main__":
    main()
