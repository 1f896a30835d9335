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
  // Side panel -> service worker: the user's turns.
  startTurn: "start-turn", // { conversationId?, text, context?, attachedTabIds? } -> { conversationId, turnId }
  stopTurn: "stop-turn", // { conversationId }
  // Side panel / settings -> service worker: conversations and settings in storage.
  renameConversation: "rename-conversation", // { conversationId, title }
  deleteConversation: "delete-conversation", // { conversationId }
  deleteOlderThan: "delete-older-than", // { days }
  importConversations: "import-conversations", // { conversations: [...] } -> { imported }
  saveSettings: "save-settings", // { settings, apiKey? }
  // Service worker -> offscreen document.
  runTurn: "run-turn", // { conversationId, turnId, task, context, attachedTabIds, memory, settings, apiKey }
  // Side panel -> service worker -> offscreen document: the page tools.
  answerConfirmation: "answer-confirmation", // { conversationId, id, decision: "once" | "turn" | "deny" } -> { answered }
  listTools: "list-tools", // {} -> { tools: [{ name, description, parameters, signature }], problems }
  callTool: "call-tool", // { name, args } -> { result, ms }: one tool called by hand, no model (for developers)
  // Offscreen document -> service worker: one page-tool call, run in the user's tab.
  pageTool: "page-tool", // { name, args, tabId?, expectUrl? } -> { ok, result | error, tab_id, url, title }
  // Service worker -> offscreen document: which turns are running now.
  liveTurns: "live-turns", // {} -> { turnIds: [...] }
  // Side panel -> service worker, when it opens: mark turns that can never finish as interrupted.
  settleStaleTurns: "settle-stale-turns", // {} -> { settled }
});

// Sent with chrome.runtime.sendMessage to whoever listens (service worker and side panels).
export const Broadcast = Object.freeze({
  pythonStatus: "python-status", // { status }
  turnEvents: "turn-events", // { conversationId, turnId, events }
  turnFinished: "turn-finished", // { conversationId, turnId, status, memory, events }
  conversationsChanged: "conversations-changed", // { conversationId? }
});
