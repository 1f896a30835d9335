// Runs the user's turns in Python and streams their events out. Events are sent in small
// batches (every few milliseconds) to every listener at once: the service worker saves
// them, open side panels render them. When a turn ends, the whole turn goes out once more,
// with token pieces joined, so storage ends up complete even if a batch was lost while the
// service worker was stopped.

import { Broadcast } from "../../shared/protocol/messages.js";
import { joinTokens } from "../../shared/protocol/events.js";
import { builtinModel } from "./builtin-model.js";
import { deviceModel } from "../on-device/device-model.js";
import { fitted } from "../fit-message.js";
import { pageBridge } from "./page-bridge.js";
import { Sandboxes } from "../code-sandboxes/sandboxes.js";
import { turnRequest } from "./turn-request.js";
import { EntryPoint, EventKind, Fatal, Status } from "../../shared/wire.js";

const BATCH_MS = 8;

export function send(message) {
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

export class EventBatcher {
  constructor(conversationId, turnId) {
    this.ids = { conversationId, turnId };
    this.pending = [];
    this.all = [];
    this.timer = null;
    this.sentAt = -Infinity; // when the last batch went out
  }

  // Events go out at once when nothing went out in the last BATCH_MS (a token of a reply
  // streamed at a steady pace waits for no timer), and those that came together (Python's
  // events of one network read) leave together; events that come quicker than that leave
  // together when the time is up.
  push(...events) {
    for (const event of events) {
      this.pending.push(event);
      this.all.push(event);
    }
    if (this.timer) return;
    const wait = this.sentAt + BATCH_MS - performance.now();
    if (wait > 0) this.timer = setTimeout(() => this.flush(), wait);
    else this.flush();
  }

  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return;
    this.sentAt = performance.now();
    const events = this.pending;
    this.pending = [];
    send({ type: Broadcast.turnEvents, ...this.ids, events });
  }
}

export class TurnRunner {
  constructor(python, idle, runner) {
    this.python = python; // a promise of the PythonLink (worker-link.js), once Python is up
    this.runner = runner; // the on-device model (on-device/model-runner.js), loaded when a turn needs it
    this.idle = idle; // counts the turns running, so that Python is not closed under one
    this.sandboxes = new Sandboxes();
    this.waiting = new Set(); // conversations whose turn waits for Python to start; stop() empties it
    this.live = new Set(); // ids of the turns running here
  }

  liveTurnIds() {
    return [...this.live];
  }

  // Python's entry points (py/tabagent/app/json_entry_points.py), through worker-link.js.
  api() {
    return this.python;
  }

  // Starts a turn and returns at once, even while Python is still starting (the turn then
  // runs as soon as it is ready); its events stream out as it runs.
  start(message) {
    const { conversationId, turnId, memory, agentTab, unattended, deviceModel: record } = message;
    const batcher = new EventBatcher(conversationId, turnId);
    const request = turnRequest(message);
    // The page tools reach the user's tabs, and ask the user before acting, through this.
    const page = pageBridge(conversationId, agentTab, { unattended: Boolean(unattended) });
    this.idle.turnStarted();
    this.waiting.add(conversationId);
    const running = this.api().then((api) => {
      if (!this.waiting.delete(conversationId)) return { status: Status.cancelled, memory };
      return api.runEntryPoint(EntryPoint.run_turn_json, [request], {
        emit: (events) => batcher.push(...events),
        page_bridge: page,
        browser_model: builtinModel,
        device_model: deviceModel(this.runner, record ?? null),
        sandbox_for: (agentName) => this.sandboxes.forAgent(conversationId, agentName),
      });
    });
    this.live.add(turnId);
    running
      .then(
        (result) => this.finish(batcher, result),
        (error) => this.failed(batcher, memory, error),
      )
      .finally(() => {
        this.waiting.delete(conversationId);
        this.live.delete(turnId);
        page.close();
        this.idle.turnEnded();
      });
    return Promise.resolve({ started: true });
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

  // Python failed outside the agent (it refused the turn, or broke): the turn still ends the
  // way an agent's failure does, with an error and a done that say why, never a bare "error".
  failed(batcher, memory, error) {
    // A Python exception's message is its whole traceback: its last line says what went wrong.
    const message = String(error?.message || error).trim().split("\n").at(-1);
    const seq = batcher.all.at(-1)?.seq ?? lastMemorySeq(memory);
    const at = { conversation_id: batcher.ids.conversationId, agent: "TabAgent", depth: 0, step: 0, time: Date.now() / 1000 };
    batcher.push({ ...at, kind: EventKind.error, seq: seq + 1, data: { message, kind: Fatal.agent } });
    batcher.push({ ...at, kind: EventKind.done, seq: seq + 2, data: { status: Status.error, steps: 0, usage: {}, error: message } });
    this.finish(batcher, { status: Status.error, memory: null }); // null: the memory stays as stored
  }

  async stop({ conversationId }) {
    if (this.waiting.delete(conversationId)) return { stopped: true }; // stopped before it began
    const api = await this.api();
    return { stopped: await api.runEntryPoint(EntryPoint.stop_turn, [conversationId]) };
  }
}

// Where the conversation's events had got to: a refused turn's events continue from there.
function lastMemorySeq(memory) {
  try {
    return JSON.parse(memory).seq ?? 0;
  } catch {
    return 0; // a new conversation (no memory yet)
  }
}
