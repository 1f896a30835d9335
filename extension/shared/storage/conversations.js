// Conversations in conversationStore. Each conversation is one record under
// "conversation:<id>"; a small index under "conversations" lists them for the history
// without loading every record. Any page may read; only the service worker writes, one
// change at a time, so event batches arriving together never overwrite each other.
//
// A record: { id, title, createdAt, updatedAt, memory, turns: [turn] } where a turn is
// { id, text, context, startedAt, status: "running" | "ok" | "error" | "cancelled" |
//   "max_steps" | "interrupted", events: [event] } and events follow docs/events.md. An imported
// record may also have importNotes: [text], what its import left out (background/imported-records.js).
// A scheduled run's record has scheduled: { scheduleId, name, missedAt } (never an imported one's).
// A turn's attached pictures are kept within a size across the conversation (kept-pictures.js).
// "unfinished-turns" lists, as { <id>: true }, the conversations with a turn marked running,
// so that settling turns nothing runs any more reads those alone, however long the history.

import { TurnStatus } from "../import-checks/conversation-schema.js";
import { joinTokens, mergeEvents } from "../protocol/events.js";
import { t } from "../ui/i18n.js";
import { keepPicturesWithin } from "./kept-pictures.js";
import { conversationStore, moveConversationsIn } from "../../platform/chrome/conversation-store.js";

const INDEX = "conversations";
const UNFINISHED = "unfinished-turns";
const recordKey = (id) => `conversation:${id}`;

export async function listConversations() {
  const { [INDEX]: index = {} } = await conversationStore.get(INDEX);
  return Object.values(index).sort((a, b) => b.updatedAt - a.updatedAt);
}

export async function loadConversation(id) {
  const { [recordKey(id)]: record } = await conversationStore.get(recordKey(id));
  return record ?? null;
}

export async function loadAllConversations() {
  const ids = (await listConversations()).map((entry) => recordKey(entry.id));
  const records = await conversationStore.get(ids);
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

// Conversations an earlier version kept elsewhere are moved to where they are kept now
// (conversation-store.js), in the queue, so no write of this worker's meets the move halfway.
export function moveStoredConversations() {
  return serially(moveConversationsIn);
}

// `indexed: false` saves the record alone: live event batches, which arrive every few
// milliseconds while a reply streams, need not rewrite the index too (the turn's start and
// end update it).
async function save(record, { indexed = true } = {}) {
  if (!indexed) {
    await conversationStore.set({ [recordKey(record.id)]: record });
    return record;
  }
  record.updatedAt = Date.now();
  const { [INDEX]: index = {}, [UNFINISHED]: unfinished } = await conversationStore.get([INDEX, UNFINISHED]);
  index[record.id] = { id: record.id, title: record.title, createdAt: record.createdAt, updatedAt: record.updatedAt, ...scheduledMark(record) };
  await conversationStore.set({ [recordKey(record.id)]: record, [INDEX]: index, ...unfinishedAfter(unfinished, record) });
  return record;
}

// The list of conversations with a running turn, changed with the record in the same write
// when the record gains its first running turn or loses its last; {} when it is unchanged.
// No list yet (records an earlier version wrote) stays none: the first settling, which reads
// them all, writes it (markInterruptedTurns).
function unfinishedAfter(unfinished, record) {
  if (!unfinished) return {};
  const running = record.turns.some((turn) => turn.status === TurnStatus.running);
  if (running === Boolean(unfinished[record.id])) return {};
  const { [record.id]: _, ...others } = unfinished;
  return { [UNFINISHED]: running ? { ...others, [record.id]: true } : others };
}

// What the history shows of a scheduled run's conversation: its schedule's name, and when it
// was missed, if it was.
function scheduledMark({ scheduled }) {
  return scheduled ? { scheduled: { name: scheduled.name, missedAt: scheduled.missedAt ?? null } } : {};
}

function update(id, change, options) {
  return serially(async () => {
    const record = await loadConversation(id);
    if (!record) throw new Error(`There is no conversation ${id} (was it deleted?)`);
    change(record);
    return save(record, options);
  });
}

// marks: { scheduled } for a scheduled run's conversation (background/scheduled-runs.js).
export function createConversation(title, marks = null) {
  const now = Date.now();
  return serially(() => save({ id: crypto.randomUUID(), title, createdAt: now, updatedAt: now, memory: null, turns: [], ...marks }));
}

// A new turn, with the conversation's own settings if it brings them, and replacing a turn and
// all after it when it is a regenerated or edited one. Refused while another turn runs,
// checked in the same change that adds it: two panels sending at the same instant both read
// "nothing running" before either had added its turn, and both started one; and a refused
// regenerate must not have taken its turns away first. Returns the record as the turn starts
// from it (its memory and settings).
export function addTurn(id, turn, { overrides, replacing } = {}) {
  return update(id, (record) => {
    if (replacing) dropTurnsFrom(record, replacing);
    if (record.turns.some((other) => other.status === TurnStatus.running)) throw new Error(t("stillAnswering"));
    if (overrides) record.overrides = overrides;
    record.turns.push({ status: TurnStatus.running, events: [], memoryAt: memoryStepCount(record.memory), ...turn });
    record.turns = keepPicturesWithin(record.turns); // the oldest pictures give way first
  });
}

function findTurn(record, turnId) {
  const turn = record.turns.find((t) => t.id === turnId);
  if (!turn) throw new Error(`conversation ${record.id} has no turn ${turnId}`);
  return turn;
}

export function appendTurnEvents(id, turnId, events) {
  const change = (record) => {
    const turn = findTurn(record, turnId);
    // Pieces joined as they are saved: each batch rewrites the record, and a long reply (or a
    // reasoning stream before it) must not make every later save slower.
    turn.events = joinTokens(mergeEvents(turn.events, events));
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

// Each turn records how many of the agent's memory steps came before it (turn.memoryAt), so
// a turn can be taken back out of what the agent remembers: the steps from its memoryAt to
// the next turn's are its own. A memory of null means the agent starts afresh.
export function memoryStepCount(memory) {
  return memory ? JSON.parse(memory).steps.length : 0;
}

function withSteps(memory, change) {
  if (!memory) return memory;
  const parsed = JSON.parse(memory);
  parsed.steps = change(parsed.steps);
  return JSON.stringify(parsed);
}

function turnIndex(record, turnId) {
  const index = record.turns.findIndex((turn) => turn.id === turnId);
  if (index < 0) throw new Error(t("turnGone"));
  if (record.turns.slice(index).some((turn) => turn.status === TurnStatus.running)) {
    throw new Error(t("stillAnswering"));
  }
  if (record.turns[index].memoryAt === undefined) throw new Error(t("olderRecord"));
  return index;
}

// Replacing the rest: the turn and all after it go; the agent remembers what came before.
function dropTurnsFrom(record, turnId) {
  const index = turnIndex(record, turnId);
  const keep = record.turns[index].memoryAt;
  record.memory = withSteps(record.memory, (steps) => steps.slice(0, keep));
  record.turns = record.turns.slice(0, index);
}

export function deleteTurn(id, turnId) {
  return update(id, (record) => {
    const index = turnIndex(record, turnId);
    const start = record.turns[index].memoryAt;
    const end = record.turns[index + 1]?.memoryAt ?? memoryStepCount(record.memory);
    record.memory = withSteps(record.memory, (steps) => [...steps.slice(0, start), ...steps.slice(end)]);
    record.turns.splice(index, 1);
    for (const later of record.turns.slice(index)) if (later.memoryAt !== undefined) later.memoryAt -= end - start;
  });
}

export function renameConversation(id, title) {
  return update(id, (record) => {
    record.title = title.trim() || record.title;
  });
}

export function deleteConversation(id) {
  return serially(async () => {
    const { [INDEX]: index = {}, [UNFINISHED]: unfinished } = await conversationStore.get([INDEX, UNFINISHED]);
    delete index[id];
    await conversationStore.remove(recordKey(id));
    await conversationStore.set({ [INDEX]: index, ...(unfinished?.[id] && unfinishedAfter(unfinished, { id, turns: [] })) });
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
// Only the conversations the "unfinished-turns" list names are read: the cost of settling at
// every panel start and worker wake does not grow with the history. When there is no list
// (records an earlier version wrote), every conversation is read once, and the list written.
export function markInterruptedTurns(liveTurnIds, { conversationId = null, status = TurnStatus.interrupted } = {}) {
  return serially(async () => {
    const { [UNFINISHED]: unfinished } = conversationId ? {} : await conversationStore.get(UNFINISHED);
    if (unfinished && Object.keys(unfinished).length === 0) return 0;
    const live = await liveTurnIds();
    if (!live) return 0;
    let marked = 0;
    const records = conversationId ? [await loadConversation(conversationId)].filter(Boolean)
      : unfinished ? await loadConversations(Object.keys(unfinished)) : await loadAllConversations();
    for (const record of records) {
      const stuck = record.turns.filter((turn) => turn.status === TurnStatus.running && !live.has(turn.id));
      if (stuck.length === 0) continue;
      for (const turn of stuck) turn.status = status;
      marked += stuck.length;
      await save(record);
    }
    if (!conversationId) await writeUnfinished(records, unfinished);
    return marked;
  });
}

async function loadConversations(ids) {
  const records = await conversationStore.get(ids.map(recordKey));
  return ids.map((id) => records[recordKey(id)]).filter(Boolean);
}

// The list as the records just read show it: those still running (live turns), and none of a
// conversation since deleted or with no turn running. Written when it is not that already.
async function writeUnfinished(records, before) {
  const running = (record) => record.turns.some((turn) => turn.status === TurnStatus.running);
  const after = Object.fromEntries(records.filter(running).map((record) => [record.id, true]));
  const same = before && Object.keys(before).length === Object.keys(after).length && Object.keys(after).every((id) => before[id]);
  if (!same) await conversationStore.set({ [UNFINISHED]: after });
}

// Stores checked records (conversation-schema.js) from an export, all or nothing: if
// storing any of them fails, those already stored are removed again, and the index, which
// is what makes them visible, is written last. An id already present (or twice in the
// file) gets a fresh one, never overwritten.
export function importConversations(records) {
  return serially(async () => {
    const { [INDEX]: index = {} } = await conversationStore.get(INDEX);
    const taken = new Set(Object.keys(index));
    const copies = records.map((record) => {
      const id = taken.has(record.id) ? crypto.randomUUID() : record.id;
      taken.add(id);
      const turns = keepPicturesWithin(record.turns.map((turn) => (turn.status === TurnStatus.running ? { ...turn, status: TurnStatus.interrupted } : turn)));
      return { ...record, id, turns, updatedAt: Date.now() };
    });
    const written = [];
    try {
      for (const batch of inBatches(copies)) {
        await conversationStore.set(Object.fromEntries(batch.map((record) => [recordKey(record.id), record])));
        written.push(...batch.map((record) => recordKey(record.id)));
      }
      for (const { id, title, createdAt, updatedAt } of copies) index[id] = { id, title, createdAt, updatedAt };
      await conversationStore.set({ [INDEX]: index });
    } catch (error) {
      await conversationStore.remove(written).catch(() => {});
      throw new Error(t("importNotStored", error.message));
    }
    return copies.length;
  });
}

// Records in groups of about 8 MB, so no single storage write is huge.
function* inBatches(records, size = 8_000_000) {
  let batch = [];
  let length = 0;
  for (const record of records) {
    const bytes = JSON.stringify(record).length;
    if (batch.length && length + bytes > size) {
      yield batch;
      [batch, length] = [[], 0];
    }
    batch.push(record);
    length += bytes;
  }
  if (batch.length) yield batch;
}
