// Runs the user's turns in Python and streams their events out. Events are sent in small
// batches (every few milliseconds) to every listener at once: the service worker saves
// them, open side panels render them. When a turn ends, the whole turn goes out once more,
// with token pieces joined, so storage ends up complete even if a batch was lost while the
// service worker was stopped.

import { Broadcast } from "../shared/messages.js";
import { joinTokens } from "../shared/events.js";
import { builtinModel } from "./builtin-model.js";
import { fitted } from "./fit-message.js";
import { pageBridge } from "./page-bridge.js";
import { Sandboxes } from "./sandboxes.js";

const BATCH_MS = 8;

function send(message) {
  const warn = (error) => {
    // No listener alive at this instant: the turn-finished message will carry the events.
    console.warn("TabAgent: could not deliver turn events:", error.message);
  };
  try {
    // Chrome throws at once, rather than rejecting, for a message over its size limit.
    return chrome.runtime.sendMessage(fitted(message)).catch(warn);
  } catch (error) {
    warn(error);
    return Promise.resolve();
  }
}

class EventBatcher {
  constructor(conversationId, turnId) {
    this.ids = { conversationId, turnId };
    this.pending = [];
    this.all = [];
    this.timer = null;
  }

  push(event) {
    this.pending.push(event);
    this.all.push(event);
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    send({ type: Broadcast.turnEvents, ...this.ids, events });
  }
}

export class TurnRunner {
  constructor(python) {
    this.python = python; // a promise of { pyodide }
    this.sandboxes = new Sandboxes();
    this.live = new Set(); // ids of the turns running here
  }

  liveTurnIds() {
    return [...this.live];
  }

  // tabagent's JSON entry points (py/tabagent/json_api.py).
  async api() {
    const { pyodide } = await this.python;
    this.module ??= pyodide.pyimport("tabagent.json_api");
    return this.module;
  }

  // Starts a turn and returns at once; its events stream out as it runs.
  async start({ conversationId, turnId, task, context, attachedTabIds, memory, settings, apiKey }) {
    const api = await this.api();
    const batcher = new EventBatcher(conversationId, turnId);
    const request = JSON.stringify({
      conversation_id: conversationId, task, context, attached_tab_ids: attachedTabIds ?? [], memory, settings, api_key: apiKey,
    });
    // The page tools reach the user's tabs, and ask the user before acting, through this.
    const page = pageBridge(conversationId);
    const running = api.run_turn_json.callKwargs(request, (json) => batcher.push(JSON.parse(json)), {
      page,
      browser_model: builtinModel,
      sandbox_for: (agentName) => this.sandboxes.forAgent(conversationId, agentName),
    });
    this.live.add(turnId);
    const closePage = () => page.close();
    running.then(closePage, closePage);
    running.then(
      (resultJson) => this.finish(batcher, JSON.parse(resultJson)),
      (error) => this.finish(batcher, { status: "error", memory, error: String(error) }),
    );
    return { started: true };
  }

  finish(batcher, result) {
    this.live.delete(batcher.ids.turnId);
    batcher.flush();
    send({
      type: Broadcast.turnFinished,
      ...batcher.ids,
      status: result.status,
      memory: result.memory,
      events: joinTokens(batcher.all),
    });
  }

  async stop({ conversationId }) {
    const api = await this.api();
    return { stopped: api.stop_turn(conversationId) };
  }
}
