// The offscreen document's side of the agent's Python, which runs in a worker
// (worker.js) so that it never holds up the side panel's drawing. `runEntryPoint(name, args,
// lent)` runs one of Python's entry points, as wire.py's ENTRY_POINTS declares it: the
// arguments whose declared name ends in _json are written as JSON here, the answer is read
// from JSON when the entry point answers an object, and what it is lent (the page bridge, the
// event emitter, the built-in model, the code sandboxes) must be exactly what it declares.
// Lent objects stay here, under a key, for as long as the call runs; the worker's stand-ins
// call them back by that key, and only by the methods wire.py's LENT allows.

import { Rpc } from "./rpc.js";
import { ENTRY_POINTS, LENT } from "../../shared/wire.js";

function callOne(object, what, method, args) {
  const allowed = LENT[what];
  if (!allowed.includes(method)) throw new Error(`${method} is not one of ${allowed.join(", ")}`);
  return object[method](...args);
}

// The arguments as they cross: JSON text for a declared *_json, the string itself otherwise.
function asTexts(name, declared, args) {
  if (args.length !== declared.length) throw new Error(`${name} takes ${declared.length} argument(s): ${declared.join(", ")}`);
  return args.map((value, i) => (declared[i].endsWith("_json") ? JSON.stringify(value ?? null) : String(value)));
}

function checkLent(name, declared, lent) {
  const given = Object.keys(lent);
  const wrong = given.filter((what) => !declared.includes(what));
  const missing = declared.filter((what) => !given.includes(what));
  if (wrong.length || missing.length) throw new Error(`${name} is lent ${declared.join(", ") || "nothing"}, not ${given.join(", ") || "nothing"}`);
}

export class PythonLink {
  // `failedEarly`: a promise of the worker's first error event, for a worker started before
  // this listens (worker-start.js).
  constructor(worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" }), failedEarly = null) {
    this.lent = new Map(); // key -> { emit, page_bridge, browser_model, device_model, sandbox_for }, while their call runs
    // (emit is given the events Python made in one go, in order)
    this.nextKey = 1;
    this.rpc = new Rpc(worker, this.#handlers());
    const failed = (event) => this.rpc.fail(new Error(`Python's worker failed: ${event.message || "it did not load"}`));
    worker.addEventListener("error", failed);
    failedEarly?.then(failed);
    this.ready = this.rpc.request("info"); // resolves to the start's figures once Python is up
  }

  // One entry point of Python's (wire.js EntryPoint), with its arguments as values.
  async runEntryPoint(name, args = [], lent = {}) {
    const spec = Object.hasOwn(ENTRY_POINTS, name) ? ENTRY_POINTS[name] : null;
    if (!spec) throw new Error(`${name} is not one of Python's entry points`);
    const texts = asTexts(name, spec.takes, args);
    checkLent(name, spec.lends, lent);
    const answer = await this.#lending(lent, (key) => this.rpc.request("entry", name, key, ...texts));
    return spec.answers ? JSON.parse(answer) : answer;
  }

  // For the debug handle: `code` run in the agent's interpreter (top-level await allowed),
  // with sandbox_for(agent_name) giving the sandbox `sandboxFor` returns; resolves to its value.
  run(code, sandboxFor = null) {
    return this.#lending({ sandbox_for: sandboxFor }, (key) => this.rpc.request("run", key, code));
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
      page_bridge: (key, method, ...args) => callOne(this.#lentAs(key, "page_bridge"), "page_bridge", method, args),
      browser_model: (key, method, ...args) => callOne(this.#lentAs(key, "browser_model"), "browser_model", method, args),
      device_model: (key, method, ...args) => callOne(this.#lentAs(key, "device_model"), "device_model", method, args),
      sandbox_for: (key, agentName, method, ...args) => callOne(this.#lentAs(key, "sandbox_for")(agentName), "sandbox_for", method, args),
      // The sandbox's tool calls go back to the Python function the worker holds for this run.
      sandboxRun: (key, agentName, code, optionsJson, callId) =>
        this.#lentAs(key, "sandbox_for")(agentName).runJson(code, optionsJson, (name, argsJson) => this.rpc.request("toolCall", callId, name, argsJson)),
    };
  }
}
