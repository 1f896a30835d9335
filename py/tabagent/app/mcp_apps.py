"""MCP Apps in TabAgent: a tool call whose tool names a `ui://` resource is shown in its step
as that app (the panel's sidepanel/app-view.js, in a walled frame: app-frame/), and what the
app asks of its server goes through here.

- After a call the user allowed, the `tool_app` event tells the panel which app to show with
  which arguments and result (the server's words, bounded): mcp_servers.py, `tool_app_event`.
- `read_app`: the app's page (`resources/read`), checked (mcp/apps.py), with the network it
  declares: the panel builds the frame's walls from that and nothing else.
- `AppCall`: a tool call the app makes back. The app is an actor of its own: it reaches only
  its own server (the one whose tool showed it: the panel names the server, never the app),
  only tools whose `_meta.ui.visibility` lets apps call them, and each call passes the very
  consent a model's call of that tool does (the settings' policy, a changed definition asked
  again, the question in the panel), with allowances of its own: what the user allowed the
  model for the conversation does not pass to the app, nor the app's to the model.
"""

from __future__ import annotations

import json
import time
import uuid

from ..events import Event
from ..mcp import MCPClient, MCPError
from ..mcp.apps import NotAnApp, app_page, shown_result, visible_to
from ..mcp.tools import result_text
from ..unseen import bounded, shown_within
from .mcp_servers import CALL_TIMEOUT, CONNECT_TIMEOUT, AskedMCPTool, server_headers
from .consent import Actor, Consent

AGENT = "MCP app"  # who the panel shows calling
MAX_ARGUMENT_BYTES = 64 * 1024  # of an app's call's arguments
# What the user allowed an app "for this turn" (consent.Allowance): for as long as that app is on
# screen (by its view's id), the app's alone (consent.py: an actor of its own).
_allowed_for_app: dict[str, list] = {}


async def read_app(server: dict, headers: dict, uri: str, host=None) -> dict:
    """{"ok": true, "html", "csp", "prefers_border"} of the app at `uri` on `server`, or {"ok": false, "error"}."""
    if not isinstance(uri, str) or not uri.startswith("ui://"):
        return {"ok": False, "error": "An MCP App's address starts with ui://."}
    client = MCPClient(server["url"], name=server["name"], host=host,
                       headers=server_headers(headers, server["id"]), timeout=CONNECT_TIMEOUT)
    try:
        await client.connect()
        return {"ok": True, **app_page(await client.read_resource(uri), uri)}
    except (MCPError, NotAnApp) as error:
        return {"ok": False, "error": f"The app of the MCP server {server['name']} could not be shown: {error}"}
    finally:
        await client.close()


class AppTool(AskedMCPTool):
    """A server's tool as its app calls it: asked as the model's call is, in the app's words."""

    ASKING = "The app of the MCP server {server} asks to call one of its tools"


class AppCall:
    """One call an app makes to its server's tool, as a step the panel shows beside the app."""

    def __init__(self, server: dict, headers: dict, conversation_id: str, app_id: str, emit, host=None):
        self.server, self.headers, self.host, self.app_id = server, headers, host, app_id
        # The app's allowances, apart from the model's in the same conversation.
        self.actor = f"app:{server['id']}:{conversation_id}"
        self.conversation_id, self.emit_json, self.seq = conversation_id, emit, 0

    async def emit(self, kind: str, data: dict) -> None:
        self.seq += 1
        self.emit_json(json.dumps(Event(kind, self.conversation_id, AGENT, 0, 1, self.seq, time.time(), data).to_dict()))

    async def run(self, name: str, arguments: dict, bridge) -> dict:
        """{"ok": true, "result"} (the server's result, whole) or {"ok": false, "error"} in words."""
        if len(json.dumps(arguments, ensure_ascii=False)) > MAX_ARGUMENT_BYTES:
            return {"ok": False, "error": "The app's call is too long."}
        client = MCPClient(self.server["url"], name=self.server["name"], host=self.host,
                           headers=server_headers(self.headers, self.server["id"]), timeout=CONNECT_TIMEOUT)
        try:
            await client.connect()
            client.timeout = CALL_TIMEOUT
            tool, refused = self._tool(await client.list_tools(), name, client, bridge)
            if refused:
                return {"ok": False, "error": refused}
            return await self._called(tool, arguments)
        except MCPError as error:
            return {"ok": False, "error": f"The MCP server {self.server['name']} answered: {bounded(str(error), 500)}"}
        finally:
            await client.close()

    def _tool(self, definitions: list[dict], name: str, client, bridge) -> tuple[AppTool | None, str | None]:
        definition = next((d for d in definitions if d.get("name") == name), None)
        if definition is None:
            return None, f"The MCP server {self.server['name']} has no tool named {bounded(str(name), 80)!r}."
        if not visible_to(definition, "app"):
            return None, f"The tool {bounded(name, 80)!r} of {self.server['name']} is not one its apps may call."
        allowed = _allowed_for_app.setdefault(f"{self.actor}:{self.app_id}", [])
        asking = Consent(bridge, [], self.emit, allowed).asking(Actor("app", self.server["name"], key=f"{self.actor}:{self.app_id}"))
        tool = AppTool(client, definition, self.server, asking, self.actor)
        if tool.policy == "off":
            return None, f"The tool {bounded(name, 80)!r} of {self.server['name']} is off in TabAgent's settings."
        return tool, None

    async def _called(self, tool: AppTool, arguments: dict) -> dict:
        call_id = uuid.uuid4().hex[:12]
        await self.emit("tool_call", {"id": call_id, "name": tool.name, "arguments": shown_within(arguments)})
        if not await tool._allowed(arguments):
            await self.emit("tool_result", {"id": call_id, "name": tool.name, "result": "denied", "is_error": True})
            return {"ok": False, "error": f"The user denied this call of {tool.remote_name}: nothing was done."}
        result = await tool.server_result(arguments)
        text = bounded(result_text(result), 2000)
        await self.emit("tool_result", {"id": call_id, "name": tool.name, "result": text, "is_error": bool(result.get("isError"))})
        return {"ok": True, "result": shown_result(result)}
