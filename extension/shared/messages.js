// Every message that crosses between the extension's contexts, named in one place.
// A message is a plain object: { target, type, ...payload }. `target` says which context
// handles it, because chrome.runtime.sendMessage reaches every extension page at once.

export const Target = Object.freeze({
  background: "background",
  offscreen: "offscreen",
});

export const MessageType = Object.freeze({
  // Is Python up? Answered by the offscreen document with versions and start-up time.
  ping: "ping",
});

// The offscreen document announces when Python has started (or failed to), so a side
// panel that is already open can update its indicator without asking again.
export const Broadcast = Object.freeze({
  pythonStatus: "python-status",
});
