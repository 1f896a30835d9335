// The calls of MCP clients (TabAgent as an MCP server: background/mcp-clients.js), run in
// Python (py/tabagent/app/client_calls.py) with the page tools and consent of a turn. A
// client's session is a turn of a conversation of its own, recorded and shown like any other:
// each call streams its events (tool_call, confirmation, tool_result) to the service worker
// and the panels, and the panel's Stop ends the session: a question still open is answered
// "deny" (nothing is done), and the turn ends as stopped.

import { Broadcast } from "../../shared/protocol/messages.js";
import { joinTokens } from "../../shared/protocol/events.js";
import { EntryPoint, EventKind, Status } from "../../shared/wire.js";
import { pageBridge } from "./page-bridge.js";
import { EventBatcher, send } from "./turn-runner.js";

export class ClientCalls {
  constructor(python, idle) {
    this.python = python; // a promise of the PythonLink (worker-link.js)
    this.idle = idle; // a session counts as a running turn: Python is not closed under it
    this.sessions = new Map(); // conversation id -> { turnId, batcher, bridges }
  }

  liveTurnIds() {
    return [...this.sessions.values()].map((session) => session.turnId);
  }

  owns(conversationId) {
    return this.sessions.has(conversationId);
  }

  session({ conversationId, turnId }) {
    if (!this.sessions.has(conversationId)) {
      this.sessions.set(conversationId, { turnId, batcher: new EventBatcher(conversationId, turnId), bridges: new Set() });
      this.idle.turnStarted();
    }
    return this.sessions.get(conversationId);
  }

  async runClientCall(message) {
    const { conversationId, seq, client, site_rules: siteRulesText, name, args, agentTab } = message;
    const session = this.session(message);
    const page = pageBridge(conversationId, agentTab);
    session.bridges.add(page);
    try {
      const api = await this.python;
      return await api.runEntryPoint(EntryPoint.client_call_json, [{ conversation_id: conversationId, site_rules: siteRulesText ?? "", seq: seq ?? 0, client: client ?? "" }, { name, args: args ?? {} }], {
        emit: (events) => session.batcher.push(...events),
        page_bridge: page,
      });
    } finally {
      session.bridges.delete(page);
    }
  }

  // The panel's Stop: open questions are denied, Python forgets the session, and the turn ends.
  async stop({ conversationId }) {
    const session = this.sessions.get(conversationId);
    if (!session) return { stopped: false };
    this.sessions.delete(conversationId);
    for (const page of session.bridges) page.close();
    const api = await this.python;
    await api.runEntryPoint(EntryPoint.end_client_session, [conversationId]);
    const seq = session.batcher.all.at(-1)?.seq ?? 0;
    const at = { conversation_id: conversationId, agent: "MCP client", depth: 0, step: 0, time: Date.now() / 1000 };
    session.batcher.push({ ...at, kind: EventKind.done, seq: seq + 1, data: { status: Status.cancelled, steps: 0, usage: {} } });
    session.batcher.flush();
    const { turnId } = session;
    send({ type: Broadcast.turnFinished, conversationId, turnId, status: Status.cancelled, memory: null, events: joinTokens(session.batcher.all) });
    this.idle.turnEnded();
    return { stopped: true };
  }
}
