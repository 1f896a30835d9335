// The messages between the offscreen document (the parent), the sandbox page and the
// sandbox's worker, named and checked in one place. The worker runs code a model wrote, so
// everything that comes out of the sandbox is untrusted: each side checks every message
// against these shapes before acting on it, and drops what does not fit.

import { SANDBOX, SANDBOX_MESSAGES, SandboxMessage } from "../wire.js";

// Parent -> sandbox. The messages the sandbox's Python reads or writes are wire.js's
// (SANDBOX_MESSAGES, declared in wire.py); the others are between JavaScript pages only.
export const ToSandbox = Object.freeze({
  boot: "boot", // the files the worker starts Pyodide from (ArrayBuffers, transferred)
  run: SandboxMessage.run, // run code with these tool stubs and limits
  toolResult: SandboxMessage.tool_result, // the answer to a tool call, as JSON text
});

// Sandbox -> parent.
export const FromSandbox = Object.freeze({
  ready: "ready", // Pyodide is up: the sandbox takes code
  bootFailed: "boot-failed",
  toolCall: SandboxMessage.tool_call, // sandboxed code called a tool: run it in the parent
  result: SandboxMessage.result, // the run ended: output, error, final answer
  memoryExceeded: "memory-exceeded", // the heap grew past the run's limit
  settled: "settled", // after a run: did the sandbox go quiet, or does something of the run still run?
});

export const MAX_CODE_CHARS = SANDBOX.max_code_chars;
// Tool arguments and results, outputs and final answers (wire.py SANDBOX).
export const MAX_TEXT_CHARS = SANDBOX.max_text_chars;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const isText = (limit) => (v) => typeof v === "string" && v.length <= limit;
const is = {
  id: (v) => Number.isSafeInteger(v) && v > 0,
  count: (v) => Number.isSafeInteger(v) && v >= 0,
  boolean: (v) => typeof v === "boolean",
  name: (v) => typeof v === "string" && NAME.test(v),
  code: isText(MAX_CODE_CHARS),
  text: isText(MAX_TEXT_CHARS),
  message: isText(10_000),
  bytes: (v) => v instanceof ArrayBuffer,
  maybeBytes: (v) => v === null || v instanceof ArrayBuffer,
  url: (v) => typeof v === "string" && v.startsWith(new URL("../../vendor/", import.meta.url).href),
  object: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
  wheels: (v) => Array.isArray(v) && v.every((w) => is.object(w) && is.message(w.name) && is.bytes(w.bytes)),
  tools: (v) => Array.isArray(v) && v.length <= 256 && v.every(isToolSpec),
};

// A tool as the sandbox's stub needs it: name, docstring and parameters (defaults as JSON).
function isToolSpec(spec) {
  return (
    is.object(spec) &&
    is.name(spec.name) &&
    typeof spec.doc === "string" &&
    spec.doc.length <= 20_000 &&
    Array.isArray(spec.params) &&
    spec.params.length <= 64 &&
    spec.params.every((p) => is.object(p) && is.name(p.name) && is.boolean(p.required) && (p.required || typeof p.default === "string"))
  );
}

// How each field of the Python messages is checked; which fields a type has is wire.js's.
const PYTHON_FIELDS = {
  run_id: is.id, call_id: is.id, code: is.code, tools: is.tools, max_output_chars: is.count,
  memory_limit_bytes: is.count, reply: is.text, name: is.name, args: is.text, output: is.text,
  is_error: is.boolean, is_final: is.boolean, final_value: is.text,
};
const pythonShapes = Object.fromEntries(Object.entries(SANDBOX_MESSAGES).map(
  ([type, fields]) => [type, Object.fromEntries(fields.map((field) => [field, PYTHON_FIELDS[field]]))]));

// Each message type and its fields (exactly these: an extra field is an error too).
const SHAPES = {
  ...pythonShapes,
  [ToSandbox.boot]: {
    indexURL: is.url, wasm: is.bytes, stdlib: is.bytes, lock: is.object, snapshot: is.maybeBytes,
    packageZip: is.bytes, wheels: is.wheels,
  },
  [FromSandbox.ready]: { startupMs: is.count, fromSnapshot: is.boolean },
  [FromSandbox.bootFailed]: { error: is.message },
  [FromSandbox.memoryExceeded]: { usedBytes: is.count },
  [FromSandbox.settled]: { run_id: is.id, quiet: is.boolean },
};

const TO_SANDBOX = new Set(Object.values(ToSandbox));
const FROM_SANDBOX = new Set(Object.values(FromSandbox));

// Returns what is wrong with `message` as one of `direction`'s types, or null if nothing is.
function problemWith(message, types) {
  if (!is.object(message) || Object.getPrototypeOf(message) !== Object.prototype) return "not a plain object";
  const { type, ...fields } = message;
  if (!types.has(type)) return `unknown type ${JSON.stringify(String(type)).slice(0, 80)}`;
  const shape = SHAPES[type];
  for (const key of Object.keys(fields)) if (!(key in shape)) return `${type}: unexpected field ${key.slice(0, 40)}`;
  for (const [key, valid] of Object.entries(shape)) if (!valid(fields[key])) return `${type}: bad or missing ${key}`;
  return null;
}

export const problemToSandbox = (message) => problemWith(message, TO_SANDBOX);
export const problemFromSandbox = (message) => problemWith(message, FROM_SANDBOX);
