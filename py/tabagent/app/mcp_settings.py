"""The user's MCP servers as the settings and the panel see them, outside any turn: Test
connection, the Tools view's list, and the prompts offered as / commands."""

from __future__ import annotations

from ..mcp import MCPClient, MCPError
from ..mcp.tools import MAX_RESULT_CHARS, MCPTool, cut
from ..unseen import bounded, shown
from .mcp_servers import (CONNECT_TIMEOUT, RESOURCES, ServerConnections, annotations_shown, fingerprint,
                          offers_resources, server_headers)


async def check_server(server: dict, headers: dict, host=None) -> dict:
    """Test connection, for settings: what the server is and its tools as the model would
    see them (with their fingerprints), or why it failed, in words."""
    client = MCPClient(server.get("url", ""), name=server.get("name") or "server", host=host,
                       headers=server_headers(headers, str(server.get("id") or server.get("name"))),
                       timeout=CONNECT_TIMEOUT)
    try:
        await client.connect()
        tools = await client.list_tools()
        if await offers_resources(client):
            tools = [*tools, RESOURCES]
    except MCPError as error:
        return {"ok": False, "error": str(error)}
    except Exception as error:  # anything else is said in one line, never as a traceback
        return {"ok": False, "error": bounded(f"Test connection failed: {type(error).__name__}: {error}", 400)}
    finally:
        await client.close()
    name = bounded(client.server_info.get("name") or "an MCP server", 120)
    return {"ok": True, "server": name, "version": bounded(client.server_info.get("version") or "", 40),
            "protocol": client.protocol_version, "transport": type(client.transport).__name__,
            "tools": [shown_to_user(MCPTool(client, d)) for d in tools if d.get("name")]}


def shown_to_user(tool: MCPTool) -> dict:
    """A tool as settings show it: what the model is told (description, parameters with their
    descriptions), under the server's name for it, with the fingerprint of exactly that."""
    return {"name": tool.remote_name, "shown_name": bounded(tool.remote_name, 120), "description": tool.description,
            "fingerprint": fingerprint(tool), "parameters": tool.parameters,
            "annotations": annotations_shown(tool.definition),
            "output_schema": tool.definition.get("outputSchema") if isinstance(tool.definition.get("outputSchema"), dict)
            else None}


async def listed_tools(servers: list[dict], headers: dict, host=None) -> tuple[list, list[str]]:
    """For the panel's Tools view: every enabled server's tools as the model sees them (with
    the policy in force), and the servers that could not be reached, in words."""
    connections = await ServerConnections().open(servers, headers, host)
    try:
        tools = connections.tools(consent=None, conversation_id="")
        return tools, connections.problems
    finally:
        await connections.close()


async def listed_prompts(servers: list[dict], headers: dict, host=None) -> list[dict]:
    """The enabled servers' prompts, for the composer's / commands: {"server_id", "server",
    "name", "description", "arguments": [{"name", "description", "required"}]}."""
    found = []
    for server in servers:
        client = MCPClient(server["url"], name=server["name"], host=host,
                           headers=server_headers(headers, server["id"]), timeout=CONNECT_TIMEOUT)
        try:
            await client.connect()
            if "prompts" not in client.capabilities:
                continue
            for prompt in await client.list_prompts():
                arguments = [{"name": str(a.get("name")), "description": bounded(a.get("description") or "", 300),
                              "required": bool(a.get("required"))}
                             for a in prompt.get("arguments") or [] if isinstance(a, dict) and a.get("name")]
                found.append({"server_id": server["id"], "server": server["name"], "name": str(prompt.get("name")),
                              "description": bounded(prompt.get("description") or "", 300), "arguments": arguments})
        except MCPError:
            continue  # a server that cannot be reached offers no commands; its turn says why
        finally:
            await client.close()
    return found


async def prompt_text(server: dict, headers: dict, name: str, arguments: dict, host=None) -> str:
    """The text of a server's prompt, filled in: put in the message box for the user to read,
    change and send themselves (it is the server's words until they do)."""
    client = MCPClient(server["url"], name=server["name"], host=host,
                       headers=server_headers(headers, server["id"]), timeout=CONNECT_TIMEOUT)
    try:
        await client.connect()
        got = await client.get_prompt(name, {str(k): str(v) for k, v in arguments.items()})
    finally:
        await client.close()
    parts = []
    for message in got.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        items = content if isinstance(content, list) else [content]
        parts += [str(item.get("text", "")) for item in items if isinstance(item, dict) and item.get("type") == "text"]
    # What cannot be seen is written out: the user sends only what they could read.
    return cut(shown("\n\n".join(part for part in parts if part)), MAX_RESULT_CHARS)  # as a tool result is
