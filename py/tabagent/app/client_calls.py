"""Calls from an MCP client: TabAgent as an MCP server (mcp-server/, the `tabagent-mcp`
program), for the coding agents people already use.

A client's call is untrusted like the model's: it runs through the very page tools the agent
has (page_tools.py), with the same consent (consent.py: the user's site rules, then the
question in the panel) and the same marking of what comes from the page. A session is one
connection of one program to TabAgent (the host numbers them: mcp-server/tabagent_mcp/host.py):
its questions name the client ("the MCP client claude-code"), what the user allows it is its
own, and it ends with the connection; a second program is a second session, asked afresh.
Each session is a conversation the panel shows: every call a `tool_call` and its
`tool_result`, every action its `confirmation`, so the user sees what a client reads and
does, and the panel's Stop ends the session (the extension, extension/offscreen/python/client-calls.js).
"""

from __future__ import annotations

import time
import uuid

from ..events import Event
from ..images import image_url, is_image
from ..tools import ToolInputError, format_result
from .consent import Actor, Consent
from .page_tools import page_tools
from .site_rules import parse_site_rules
from .untrusted_content import reading_into, stop_reading
from .wire import CLIENT_TOOLS

AGENT = "MCP client"  # who the panel shows calling


class ClientSession:
    """One client connection's session: its events' numbering, and its consent service, which
    keeps what the user allowed the client ("allow for this turn" lasts the connection)."""

    def __init__(self, conversation_id: str, site_rules: str = "", seq: int = 0, client: str = ""):
        self.conversation_id, self.seq, self.step = conversation_id, seq, 0
        self.rules, _ = parse_site_rules(site_rules or "")
        self.allowed: list = []  # consent.Allowance: the client's, kept while its connection lasts
        self.actor = Actor("mcp_client", client or "an MCP client", key=conversation_id)
        self.read: list = []  # what the client read of pages: a one-time code in it goes nowhere else unasked

    def _emitter(self, emit):
        async def emit_event(kind: str, data: dict) -> None:
            self.seq += 1
            emit(Event(kind, self.conversation_id, AGENT, 0, self.step, self.seq, time.time(), data).to_dict())
        return emit_event

    def tools(self, bridge, emit_event) -> dict:
        consent = Consent(bridge, self.rules, emit_event, self.allowed)  # this call's bridge, the session's allowances
        return {t.name: t for t in page_tools(bridge, consent.asking(self.actor)) if t.name in CLIENT_TOOLS}

    async def run_client_call(self, name: str, args: dict, bridge, emit) -> dict:
        """Runs one call as a step of the session: {"ok": true, "result", "images"?} or {"ok": false, "error"}."""
        emit_event = self._emitter(emit)
        tools = self.tools(bridge, emit_event)
        if name not in tools:
            return {"ok": False, "error": f"TabAgent offers no tool named {name!r}; it offers: {', '.join(tools)}."}
        self.step += 1
        call_id = uuid.uuid4().hex[:12]
        await emit_event("step_start", {})
        await emit_event("tool_call", {"id": call_id, "name": name, "arguments": args})
        reading = reading_into(self.read)
        try:
            value = await tools[name](**args)
        except (ToolInputError, TypeError) as error:
            await emit_event("tool_result", {"id": call_id, "name": name, "result": str(error), "is_error": True})
            return {"ok": False, "error": str(error)}
        finally:
            stop_reading(reading)
        text = format_result(value)
        await emit_event("tool_result", {"id": call_id, "name": name, "result": text, "is_error": False})
        pictures = [image_url(part) for part in getattr(value, "parts", []) if is_image(part)]
        return {"ok": True, "result": text, **({"images": pictures} if pictures else {})}


class ClientSessions:
    """The client sessions running in this interpreter, by conversation id."""

    def __init__(self) -> None:
        self.running: dict[str, ClientSession] = {}

    def session(self, conversation_id: str, site_rules: str, seq: int, client: str = "") -> ClientSession:
        if conversation_id not in self.running:
            self.running[conversation_id] = ClientSession(conversation_id, site_rules, seq, client)
        return self.running[conversation_id]

    def end(self, conversation_id: str) -> bool:
        return self.running.pop(conversation_id, None) is not None


sessions = ClientSessions()
