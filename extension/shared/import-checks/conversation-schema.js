// What a stored conversation may look like (conversations.js describes it; events follow
// docs/events.md), checked field by field. An imported file is untrusted: a record that
// does not fit is refused with the reason, before anything is stored, so nothing that
// reads conversations later (history, search, export, the panel) meets a shape it does not
// expect. Pure JavaScript: no extension APIs, so Node's test runner checks it too.

import { EventKind, Status } from "../wire.js";

// A stored turn's status: how an agent's run ends (wire.js Status), and what only storage
// knows: still going, or never ended (the browser stopped mid-turn). Compared by name:
// TurnStatus.running, never "running".
export const TurnStatus = Object.freeze({ running: "running", ...Status, interrupted: "interrupted" });
export const TURN_STATUSES = Object.values(TurnStatus);
const ID = /^[A-Za-z0-9_-]{1,100}$/;
const KIND = /^[a-z][a-z0-9_]{0,39}$/;
const MAX_TITLE = 10_000;
const MAX_NAME = 200;
// A joined token event covers the seqs of its pieces; the panel walks that range.
const MAX_SEQ_RANGE = 1_000_000;

export class SchemaError extends Error {}

function fail(where, what) {
  throw new SchemaError(`${where} ${what}`);
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isCount = (value, max = Number.MAX_SAFE_INTEGER) => Number.isSafeInteger(value) && value >= 0 && value <= max;
const isTime = (value) => typeof value === "number" && Number.isFinite(value) && value >= 0;

function checkString(value, where, max = Infinity) {
  if (typeof value !== "string") fail(where, `must be text, not ${describe(value)}`);
  if (value.length > max) fail(where, `is longer than ${max} characters`);
}

function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

// The fields each kind's `data` must have, as far as the panel, search and export read them.
const DATA_FIELDS = {
  token: { text: "string" },
  tool_call: { id: "string", name: "string" },
  tool_result: { id: "string", name: "string", result: "string" },
  code: { code: "string" },
  code_output: { output: "string" },
  confirmation: { id: "string", tool: "string", message: "string" },
  error: { message: "string", kind: "string" },
  done: { status: "string" },
};

function checkEvent(event, where) {
  if (!isObject(event)) fail(where, `must be an object, not ${describe(event)}`);
  if (typeof event.kind !== "string" || !KIND.test(event.kind)) fail(`${where}.kind`, "must be a lower-case event kind");
  checkString(event.agent, `${where}.agent`, MAX_NAME);
  if (!isCount(event.depth, 100)) fail(`${where}.depth`, "must be a whole number from 0 to 100");
  if (!isCount(event.step)) fail(`${where}.step`, "must be a whole number of at least 0");
  if (!isCount(event.seq)) fail(`${where}.seq`, "must be a whole number of at least 0");
  if (event.seq_end !== undefined && !(isCount(event.seq_end) && event.seq_end >= event.seq && event.seq_end - event.seq <= MAX_SEQ_RANGE)) {
    fail(`${where}.seq_end`, `must be a whole number from seq to seq + ${MAX_SEQ_RANGE}`);
  }
  if (event.time !== undefined && !isTime(event.time)) fail(`${where}.time`, "must be a time in seconds");
  if (event.conversation_id !== undefined) checkString(event.conversation_id, `${where}.conversation_id`, MAX_NAME);
  if (!isObject(event.data)) fail(`${where}.data`, `must be an object, not ${describe(event.data)}`);
  for (const [field, type] of Object.entries(DATA_FIELDS[event.kind] ?? {})) {
    if (typeof event.data[field] !== type) fail(`${where}.data.${field}`, `must be ${type === "string" ? "text" : type}, not ${describe(event.data[field])}`);
  }
  if (event.kind === EventKind.final_answer && !("answer" in event.data)) fail(`${where}.data.answer`, "is missing");
}

function checkContext(context, where) {
  if (context === null || context === undefined) return;
  if (!isObject(context)) fail(where, `must be an object or null, not ${describe(context)}`);
  for (const field of ["selection", "title", "url"]) {
    if (context[field] !== undefined && context[field] !== null) checkString(context[field], `${where}.${field}`);
  }
}

function checkTurn(turn, where) {
  if (!isObject(turn)) fail(where, `must be an object, not ${describe(turn)}`);
  checkString(turn.id, `${where}.id`, MAX_NAME);
  checkString(turn.text, `${where}.text`);
  checkContext(turn.context, `${where}.context`);
  if (!TURN_STATUSES.includes(turn.status)) fail(`${where}.status`, `must be one of ${TURN_STATUSES.join(", ")}`);
  for (const field of ["startedAt", "finishedAt"]) {
    if (turn[field] !== undefined && turn[field] !== null && !isTime(turn[field])) fail(`${where}.${field}`, "must be a time in milliseconds");
  }
  if (!Array.isArray(turn.events)) fail(`${where}.events`, `must be a list, not ${describe(turn.events)}`);
  turn.events.forEach((event, i) => checkEvent(event, `${where}.events[${i}]`));
}

// The agent's memory, as the next turn hands it to Python: JSON text of an object (or that
// object), or nothing yet.
function checkMemory(memory) {
  if (memory === null || memory === undefined || isObject(memory)) return;
  if (typeof memory !== "string") fail("memory", `must be JSON text or null, not ${describe(memory)}`);
  let parsed;
  try {
    parsed = JSON.parse(memory);
  } catch {
    fail("memory", "is not JSON");
  }
  if (!isObject(parsed)) fail("memory", `must hold a JSON object, not ${describe(parsed)}`);
}

// Throws a SchemaError saying which field is wrong and why.
export function checkConversation(record) {
  if (!isObject(record)) fail("the conversation", `must be an object, not ${describe(record)}`);
  if (typeof record.id !== "string" || !ID.test(record.id)) fail("id", "must be 1 to 100 letters, digits, - or _");
  checkString(record.title, "title", MAX_TITLE);
  if (!isTime(record.createdAt)) fail("createdAt", "must be a time in milliseconds");
  if (record.updatedAt !== undefined && !isTime(record.updatedAt)) fail("updatedAt", "must be a time in milliseconds");
  checkMemory(record.memory);
  if (!Array.isArray(record.turns)) fail("turns", `must be a list, not ${describe(record.turns)}`);
  record.turns.forEach((turn, i) => checkTurn(turn, `turns[${i}]`));
}

// Every record of an import, or an error naming the first one that does not fit (1-based,
// with its title when it has one): nothing is imported unless all fit.
export function checkConversations(records) {
  if (!Array.isArray(records)) throw new SchemaError("This file is not a TabAgent conversation export.");
  records.forEach((record, i) => {
    try {
      checkConversation(record);
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      const title = typeof record?.title === "string" && record.title ? ` (“${record.title.slice(0, 60)}”)` : "";
      throw new SchemaError(`Nothing was imported: conversation ${i + 1}${title} does not fit: ${error.message}.`);
    }
  });
  return records;
}
