// Chrome refuses a runtime message over 64 MiB. A turn's end that cannot be delivered would
// leave its conversation "running" for ever, so a message too large is cut to fit: its
// longest texts (an enormous answer, its trace) keep their beginning and say how much was
// cut. Memory, a JSON text, is cut inside, so the conversation can still go on.

export const MESSAGE_LIMIT_CHARS = 16 * 2 ** 20; // as JSON text; far enough under Chrome's bytes limit

function cutText(text, keep) {
  if (text.length <= keep) return text;
  return `${text.slice(0, keep)}\n\n[TabAgent cut this text to fit in one message: it had ${text.length.toLocaleString("en")} characters; the first ${keep.toLocaleString("en")} are kept.]`;
}

function cutStrings(value, keep) {
  if (typeof value === "string") return cutText(value, keep);
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, keep));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutStrings(item, keep)]));
  }
  return value;
}

function cutMemory(memory, keep) {
  if (typeof memory !== "string" || memory.length <= keep) return memory;
  try {
    return JSON.stringify(cutStrings(JSON.parse(memory), keep));
  } catch {
    return null; // not JSON: better no memory than a broken one (the service worker keeps the last)
  }
}

// `message` as it is when it fits, or with its texts cut until it does.
export function fitted(message, limit = MESSAGE_LIMIT_CHARS) {
  if (JSON.stringify(message).length <= limit) return message;
  for (let keep = Math.floor(limit / 8); keep >= 1000; keep = Math.floor(keep / 2)) {
    const { memory, ...rest } = message;
    const cut = { ...cutStrings(rest, keep), ...(memory !== undefined && { memory: cutMemory(memory, keep) }) };
    if (JSON.stringify(cut).length <= limit) return cut;
  }
  return { ...message, events: [], memory: null }; // nothing else to cut: the turn still ends
}
