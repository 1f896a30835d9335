// The offscreen document's side of the agent's Python, which runs in a worker
// (python-worker.js) so that it never holds up the side panel's drawing. It offers the entry
// points of py/tabagent/app/json_entry_points.py under their own names, as promises. The
// objects a call hands Python (the page bridge, the event emitter, the built-in model, the
// code sandboxes) stay here, lent under a key for as long as the call runs; the worker's
// stand-ins call them back by that key.

import { Rpc } from "./rpc.js";

// What the worker may call on each lent object, and nothing else.
const PAGE_CALLS = new Set(["call", "confirm"]);
const MODEL_CALLS = new Set(["availability", "seesImages", "stream", "abort"]);
const SANDBOX_CALLS = new Set(["warm", "reset", "stop"]);

function callOne(object, allowed, method, args) {
  if (!allowed.has(method)) throw new Error(`${method} is not one of ${[...allowed].join(", ")}`);
  return object[method](...args);
}

export class PythonLink {
  constructor(worker = new Worker(new URL("python-worker.js", import.meta.url), { type: "module" })) {
    this.lent = new Map(); // key -> { emit, page, browser_model, sandbox_for }, while their call runs
    // (emit is given the events Python made in one go, in order)
    this.nextKey = 1;
    this.rpc = new Rpc(worker, this.#handlers());
    worker.addEventListener("error", (event) => this.rpc.fail(new Error(`Python's worker failed: ${event.message || "it did not load"}`)));
    this.ready = this.rpc.call("info"); // resolves to the start's figures once Python is up
  }

  run_turn_json(requestJson, emit, { page, browser_model, sandbox_for }) {
    return this.#lending({ emit, page, browser_model, sandbox_for }, (key) => this.rpc.call("runTurn", key, requestJson));
  }

  list_tools_json(page) {
    return this.#lending({ page }, (key) => this.rpc.call("listTools", key));
  }

  call_tool_json(name, argsJson, page) {
    return this.#lending({ page }, (key) => this.rpc.call("callTool", key, name, argsJson));
  }

  stop_turn(conversationId) {
    return this.rpc.call("text", "stop_turn", conversationId);
  }

  list_mcp_tools_json(...texts) {
    return this.rpc.call("text", "list_mcp_tools_json", ...texts);
  }

  list_mcp_prompts_json(...texts) {
    return this.rpc.call("text", "list_mcp_prompts_json", ...texts);
  }

  get_mcp_prompt_json(...texts) {
    return this.rpc.call("text", "get_mcp_prompt_json", ...texts);
  }

  check_mcp_server_json(...texts) {
    return this.rpc.call("text", "check_mcp_server_json", ...texts);
  }

  // For the debug handle: `code` run in the agent's interpreter (top-level await allowed),
  // with sandbox_for(agent_name) giving the sandbox `sandboxFor` returns; resolves to its value.
  run(code, sandboxFor = null) {
    return this.#lending({ sandbox_for: sandboxFor }, (key) => this.rpc.call("run", key, code));
  }

  async #lending(objects, work) {
    const key = this.nextKey++;
    this.lent.set(key, objects);
    try {
      return await work(key);
    } finally {
      this.lent.delete(key);
    }
  }

  #lentAs(key, what) {
    const found = this.lent.get(key)?.[what];
    if (!found) throw new Error(`the call that lent a ${what} has ended`);
    return found;
  }

  #handlers() {
    return {
      emit: (key, events) => this.#lentAs(key, "emit")(events),
      page: (key, method, ...args) => callOne(this.#lentAs(key, "page"), PAGE_CALLS, method, args),
      model: (key, method, ...args) => callOne(this.#lentAs(key, "browser_model"), MODEL_CALLS, method, args),
      sandbox: (key, agentName, method, ...args) => callOne(this.#lentAs(key, "sandbox_for")(agentName), SANDBOX_CALLS, method, args),
      // The sandbox's tool calls go back to the Python function the worker holds for this run.
      sandboxRun: (key, agentName, code, optionsJson, callId) =>
        this.#lentAs(key, "sandbox_for")(agentName).runJson(code, optionsJson, (name, argsJson) => this.rpc.call("toolCall", callId, name, argsJson)),
    };
  }
}
