// The agent's Python on a thread of its own: a dedicated worker of the offscreen document,
// which owns the interpreter (interpreter.js). The offscreen document is an extension page and
// shares its renderer's main thread with the side panel: Python run there (reading the
// model's stream, making and serialising events) kept the panel from drawing the answer.
// What needs the page stays in the offscreen document (worker-link.js: extension messaging,
// the code sandboxes' frames, the built-in model, canvases); the objects Python is handed for
// them here are stand-ins that call it through rpc.js. fetch stays here: a worker of an
// extension page keeps the extension's host permissions (no CORS for the model endpoint).

import { Rpc } from "./rpc.js";
import { startPython } from "./interpreter.js";
import { WHY_NO_CODE_SANDBOX } from "../../platform/chrome/code-sandbox.js";
import { ENTRY_POINTS, EventKind } from "../../shared/wire.js";

const python = startPython();
let module = null; // tabagent.app.json_entry_points, once Python is up
const toolHandlers = new Map(); // call id -> the Python function answering a sandbox's tool calls
let nextCallId = 1;

async function api() {
  const { pyodide } = await python;
  module ??= pyodide.pyimport("tabagent.app.json_entry_points");
  return module;
}

// Python's entry points (wire.py ENTRY_POINTS), called by name with their arguments as text;
// what each is lent crosses as stand-ins that call the offscreen document back by the key.
const STAND_INS = {
  emit: (key) => eventsOut(key),
  page_bridge: (key) => remotePage(key),
  browser_model: (key) => remoteModel(key),
  device_model: (key) => remoteDeviceModel(key),
  sandbox_for: (key) => (agentName) => remoteSandbox(key, agentName),
};

async function callEntryPoint(name, key, texts) {
  const spec = Object.hasOwn(ENTRY_POINTS, name) ? ENTRY_POINTS[name] : null;
  if (!spec) throw new Error(`${name} is not one of Python's entry points`);
  if (texts.length !== spec.takes.length) throw new Error(`${name} takes ${spec.takes.join(", ") || "nothing"}`);
  const lent = Object.fromEntries(spec.lends.map((what) => [what, STAND_INS[what](key)]));
  return (await api())[name].callKwargs(...texts, lent);
}

const rpc = new Rpc(self, {
  info: async () => (await python).info,
  entry: (name, key, ...texts) => callEntryPoint(name, key, texts),
  toolCall: (callId, name, argsJson) => {
    const answer = toolHandlers.get(callId);
    if (!answer) throw new Error("that code run has ended");
    return answer(name, argsJson);
  },
  run: (key, code) => runForDebugging(key, code),
});

// The turn's events, parsed here rather than on the document's thread (the panel's). Tokens
// and thoughts made in one go (one network read) cross together once Python yields; any other
// event goes at once, with those before it, so a step, a tool call or an error never waits
// while Python goes on computing (a long tool of the user's, say).
const STREAMED = new Set([EventKind.token, EventKind.reasoning]);

function eventsOut(key) {
  return (json) => {
    const event = JSON.parse(json);
    rpc.notifyGathered("emit", key, event);
    if (!STREAMED.has(event.kind)) rpc.flushGathered();
  };
}

// The page bridge (page-bridge.js pageBridge) lent for `key`.
function remotePage(key) {
  return {
    runPageTool: (requestJson) => rpc.request("page_bridge", key, "runPageTool", requestJson),
    confirm: (id, message) => rpc.request("page_bridge", key, "confirm", id, message),
    ask: (id, question) => rpc.request("page_bridge", key, "ask", id, question),
    signIn: (serverId, challenge, interactive) => rpc.request("page_bridge", key, "signIn", serverId, challenge, interactive),
  };
}

// Chrome's built-in model (builtin-model.js); stream() resolves to a transferred ReadableStream.
function remoteModel(key) {
  return {
    availability: () => rpc.request("browser_model", key, "availability"),
    seesImages: () => rpc.request("browser_model", key, "seesImages"),
    stream: (...args) => rpc.request("browser_model", key, "stream", ...args),
    abort: (requestId) => rpc.notify("browser_model", key, "abort", requestId),
  };
}

// The on-device model (on-device/device-model.js); complete() resolves to a transferred ReadableStream.
function remoteDeviceModel(key) {
  return {
    complete: (...args) => rpc.request("device_model", key, "complete", ...args),
    window: () => rpc.request("device_model", key, "window"),
    abort: (requestId) => rpc.notify("device_model", key, "abort", requestId),
  };
}

// An agent's code sandbox (code-sandbox.js CodeSandbox). Where the browser has none, the
// model's code is refused here, at once, as Sandboxes.forAgent would refuse it.
function remoteSandbox(key, agentName) {
  if (WHY_NO_CODE_SANDBOX) throw new Error(WHY_NO_CODE_SANDBOX);
  return {
    warm: () => rpc.notify("sandbox_for", key, agentName, "warm"),
    reset: () => rpc.request("sandbox_for", key, agentName, "reset"),
    stop: () => rpc.notify("sandbox_for", key, agentName, "stop"),
    async runJson(code, optionsJson, onToolCall) {
      const callId = nextCallId++;
      toolHandlers.set(callId, onToolCall);
      try {
        return await rpc.request("sandboxRun", key, agentName, code, optionsJson, callId);
      } finally {
        toolHandlers.delete(callId);
      }
    },
  };
}

// The debug handle's run(code) (offscreen.js): code in a scope of its own, with sandbox_for.
async function runForDebugging(key, code) {
  const { pyodide } = await python;
  const scope = pyodide.globals.get("dict")();
  scope.set("sandbox_for", (agentName) => remoteSandbox(key, agentName));
  try {
    const value = await pyodide.runPythonAsync(code, { globals: scope });
    if (!value?.toJs) return value;
    try {
      return value.toJs({ dict_converter: Object.fromEntries });
    } finally {
      value.destroy();
    }
  } finally {
    scope.destroy();
  }
}
