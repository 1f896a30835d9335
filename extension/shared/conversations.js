// Conversations in chrome.storage.local. Each conversation is one record under
// "conversation:<id>"; a small index under "conversations" lists them for the history
// without loading every record. Any page may read; only the service worker writes, one
// change at a time, so event batches arriving together never overwrite each other.
//
// A record: { id, title, createdAt, updatedAt, memory, turns: [turn] } where a turn is
// { id, text, context, startedAt, status: "running" | "ok" | "error" | "cancelled" |
//   "max_steps" | "interrupted", events: [event] } and events follow docs/events.md.

import { mergeEvents } from "./events.js";

const INDEX = "conversations";
const recordKey = (id) => `conversation:${id}`;

export async function listConversations() {
  const { [INDEX]: index = {} } = await chrome.storage.local.get(INDEX);
  return Object.values(index).sort((a, b) => b.updatedAt - a.updatedAt);
}

export async function loadConversation(id) {
  const { [recordKey(id)]: record } = await chrome.storage.local.get(recordKey(id));
  return record ?? null;
}

export async function loadAllConversations() {
  const ids = (await listConversations()).map((entry) => recordKey(entry.id));
  const records = await chrome.storage.local.get(ids);
  return ids.map((key) => records[key]).filter(Boolean);
}

export function titleFrom(text) {
  const line = text.trim().split("\n")[0];
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || "New conversation";
}

// --- writes (service worker only) ---------------------------------------------------------

let queue = Promise.resolve();

function serially(change) {
  const result = queue.then(change);
  queue = result.catch(() => {});
  return result;
}

// `indexed: false` saves the record alone: live event batches, which arrive every few
// milliseconds while a reply streams, need not rewrite the index too (the turn's start and
// end update it).
async function save(record, { indexed = true } = {}) {
  if (!indexed) {
    await chrome.storage.local.set({ [recordKey(record.id)]: record });
    return record;
  }
  record.updatedAt = Date.now();
  const { [INDEX]: index = {} } = await chrome.storage.local.get(INDEX);
  index[record.id] = { id: record.id, title: record.title, createdAt: record.createdAt, updatedAt: record.updatedAt };
  await chrome.storage.local.set({ [recordKey(record.id)]: record, [INDEX]: index });
  return record;
}

function update(id, change, options) {
  return serially(async () => {
    const record = await loadConversation(id);
    if (!record) throw new Error(`There is no conversation ${id} (was it deleted?)`);
    change(record);
    return save(record, options);
  });
}

export function createConversation(title) {
  const now = Date.now();
  return serially(() => save({ id: crypto.randomUUID(), title, createdAt: now, updatedAt: now, memory: null, turns: [] }));
}

export function addTurn(id, turn) {
  return update(id, (record) => record.turns.push({ status: "running", events: [], ...turn }));
}

function findTurn(record, turnId) {
  const turn = record.turns.find((t) => t.id === turnId);
  if (!turn) throw new Error(`conversation ${record.id} has no turn ${turnId}`);
  return turn;
}

export function appendTurnEvents(id, turnId, events) {
  const change = (record) => {
    const turn = findTurn(record, turnId);
    turn.events = mergeEvents(turn.events, events);
  };
  return update(id, change, { indexed: false });
}

// The whole turn, as the offscreen document saw it: replaces what the batches left.
export function finishTurn(id, turnId, { status, memory, events }) {
  return update(id, (record) => {
    const turn = findTurn(record, turnId);
    turn.events = events;
    turn.status = status;
    turn.finishedAt = Date.now();
    if (memory) record.memory = memory;
  });
}

export function renameConversation(id, title) {
  return update(id, (record) => {
    record.title = title.trim() || record.title;
  });
}

export function deleteConversation(id) {
  return serially(async () => {
    const { [INDEX]: index = {} } = await chrome.storage.local.get(INDEX);
    delete index[id];
    await chrome.storage.local.remove(recordKey(id));
    await chrome.storage.local.set({ [INDEX]: index });
  });
}

export async function deleteOlderThan(days) {
  const cutoff = Date.now() - days * 24 * 3600 * 1000;
  const old = (await listConversations()).filter((entry) => entry.updatedAt < cutoff);
  for (const entry of old) await deleteConversation(entry.id);
  return old.length;
}

// Turns left "running" that nothing is running any more (the browser stopped mid-turn, or
// the turn's end never arrived) can never finish: say so. `liveTurnIds` resolves to the ids
// of the turns really running, or null when that cannot be known (then nothing is marked);
// it is asked inside the queue, so a turn started just after this call is never caught by it.
// `status` is what they become; returns how many were marked.
export function markInterruptedTurns(liveTurnIds, { conversationId = null, status = "interrupted" } = {}) {
  return serially(async () => {
    const live = await liveTurnIds();
    if (!live) return 0;
    let marked = 0;
    const records = conversationId ? [await loadConversation(conversationId)].filter(Boolean) : await loadAllConversations();
    for (const record of records) {
      const stuck = record.turns.filter((turn) => turn.status === "running" && !live.has(turn.id));
      if (stuck.length === 0) continue;
      for (const turn of stuck) turn.status = status;
      marked += stuck.length;
      await save(record);
    }
    return marked;
  });
}

// Imports records exported as JSON; an id already present gets a fresh one, never overwritten.
export function importConversations(records) {
  return serially(async () => {
    let imported = 0;
    for (const record of records) {
      if (!record || typeof record.id !== "string" || !Array.isArray(record.turns)) {
        throw new Error("This file is not a TabAgent conversation export.");
      }
      const exists = await loadConversation(record.id);
      const copy = { ...record, id: exists ? crypto.randomUUID() : record.id, title: String(record.title ?? "Imported") };
      copy.turns = copy.turns.map((turn) => (turn.status === "running" ? { ...turn, status: "interrupted" } : turn));
      await save(copy);
      imported += 1;
    }
    return imported;
  });
}
