// Helpers over the agent's event stream (the schema is docs/events.md).

import { EventKind } from "../wire.js";

// Joins consecutive token (or reasoning) events of the same agent, depth and step into one,
// so a saved turn is small. The joined event keeps the first piece's seq and notes the last one.
export function joinTokens(events) {
  const joined = [];
  for (const event of events) {
    const last = joined.at(-1);
    if (
      (event.kind === EventKind.token || event.kind === EventKind.reasoning) &&
      last?.kind === event.kind &&
      last.agent === event.agent &&
      last.depth === event.depth &&
      last.step === event.step &&
      event.seq === lastSeq(last) + 1 // a gap (a batch lost) is not papered over
    ) {
      joined[joined.length - 1] = { ...last, seq_end: event.seq, data: { text: last.data.text + event.data.text } };
    } else {
      joined.push(event);
    }
  }
  return joined;
}

// The highest seq an event covers (a joined token event covers a range).
export function lastSeq(event) {
  return event.seq_end ?? event.seq;
}

// Adds events not already present (by seq) and keeps the list in seq order.
export function mergeEvents(existing, incoming) {
  const covered = new Set();
  for (const event of existing) for (let s = event.seq; s <= lastSeq(event); s++) covered.add(s);
  const added = incoming.filter((event) => !covered.has(event.seq));
  if (added.length === 0) return existing;
  return [...existing, ...added].sort((a, b) => a.seq - b.seq);
}
