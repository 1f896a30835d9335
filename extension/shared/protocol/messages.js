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
  startTurn: "start-turn", // { conversationId?, text, context?, overrides?, attachedTabs?, attachedSelection?, windowId? } -> { conversationId, turnId }
  // Side panel -> service worker: the selection on the user's page, to attach to a message.
  readSelection: "read-selection", // {} -> { text, url, title }
  // Side panel -> service worker: a screenshot of the tab the panel is beside, to attach.
  screenshotTab: "screenshot-tab", // { windowId? } -> { capture (a PNG data URL), url, title }
  stopTurn: "stop-turn", // { conversationId }
  editTurn: "edit-turn", // { conversationId, turnId, text? } -> { conversationId, turnId }: replaces that turn and the rest
  deleteTurn: "delete-turn", // { conversationId, turnId }
  // Side panel / settings -> service worker: conversations and settings in storage.
  renameConversation: "rename-conversation", // { conversationId, title }
  deleteConversation: "delete-conversation", // { conversationId }
  deleteOlderThan: "delete-older-than", // { days }
  importConversations: "import-conversations", // { conversations: [...] } or { importId } -> { imported, notes }
  importPart: "import-part", // { importId, text }: a piece of an export's text, applied by importConversations
  saveSettings: "save-settings", // { settings, apiKey? }
  // Settings -> service worker: the MCP servers (shared/settings/mcp-servers.js), and Test connection
  // (-> offscreen document: Python connects and lists the tools as the model would see them).
  saveMcpServers: "save-mcp-servers", // { servers, secrets? } -> { servers }
  checkMcpServer: "check-mcp-server", // { serverId } -> { ok, server, version, protocol, tools } | { ok: false, error }
  // Settings -> service worker: sign in to an MCP server with OAuth (background/mcp-sign-in.js:
  // the browser's sign-in window between two steps in Python), and sign out.
  signInMcpServer: "sign-in-mcp-server", // { serverId, clientId?, clientSecret? } -> { ok, who, issuer } | { ok: false, error }
  signOutMcpServer: "sign-out-mcp-server", // { serverId } -> { ok }
  // Service worker -> offscreen document: the steps of a sign-in, in Python (app/mcp_sign_in.py).
  mcpSignInPlan: "mcp-sign-in-plan", // { server, redirectUri, clientId, how } -> { ok, plan } | { ok: false, error }
  mcpSignInFinish: "mcp-sign-in-finish", // { plan, endedAt } -> { ok, record } | { ok: false, error }
  mcpRefreshSignIn: "mcp-refresh-sign-in", // { record } -> { ok, record } | { ok: false, error }
  mcpSignOut: "mcp-sign-out", // { record } -> { ok }
  // Offscreen document (a turn's MCP server asked: a 401, or a 403 for more scope) -> service
  // worker: the token refreshed, or with `interactive` (the user said yes) the sign-in window.
  mcpSignInForTurn: "mcp-sign-in-for-turn", // { serverId, challenge, interactive } -> { ok, authorization } | { ok: false, error }
  // Side panel -> service worker -> offscreen document: MCP servers' prompts, as / commands.
  listMcpPrompts: "list-mcp-prompts", // {} -> { prompts: [{ server_id, server, name, description, arguments }] }
  getMcpPrompt: "get-mcp-prompt", // { serverId, name, arguments } -> { ok, text } | { ok: false, error }
  // Side panel -> service worker -> offscreen document: MCP Apps (sidepanel/app-view.js). The page of
  // the app a step shows, and a call the app makes to a tool of its server (its steps come back
  // as Broadcast.appCallEvents while the user is asked).
  readMcpApp: "read-mcp-app", // { serverId, uri } -> { ok, html, csp, prefers_border } | { ok: false, error }
  mcpAppCall: "mcp-app-call", // { conversationId, appId, serverId, tool, arguments } -> { ok, result } | { ok: false, error }
  // Side panel -> service worker -> offscreen document: Save as workflow (shared/storage/workflows.js
  // keeps it). To Python: { events, task, name }.
  saveWorkflow: "save-workflow", // { conversationId, turnId } -> { name, source, sites, parameters, renamedFrom }
  // Side panel -> service worker: a workflow file imported, or edited in the Tools view; the
  // service worker has Python read it (-> offscreen document: readWorkflow { source }) before it keeps it.
  importWorkflow: "import-workflow", // { fileName, source } -> { workflow, renamedFrom } (background/workflow-saving.js)
  editWorkflow: "edit-workflow", // { name, source, allowedSites } -> the workflow kept
  readWorkflow: "read-workflow", // { source } -> { ok, parameters, sites, steps } | { ok: false, error }
  // Service worker -> offscreen document: at a conversations' import, the message each turn's
  // agent was given, made again by Python from what the turn shows (background/imports.js).
  messagesGiven: "messages-given", // { turns: [{ text, context, attachments }] } -> { messages: [{ task, parts } | null] }
  // Service worker -> offscreen document.
  runTurn: "run-turn", // { turnId, and wire.js TURN_REQUEST in camelCase: conversationId, task, ... } (offscreen/python/turn-request.js), and agentTab: the tab the page tools work on
  // Side panel -> service worker -> offscreen document: the page tools.
  answerConfirmation: "answer-confirmation", // { conversationId, id, decision: wire.js CONFIRMATION_DECISIONS, values? (a form's) } -> { answered }
  // Side panel -> service worker -> offscreen document: the user's answer to ask_user (a hand-back).
  answerHandBack: "answer-hand-back", // { conversationId, id, answer: text } -> { answered }
  listTools: "list-tools", // {} -> { tools: [{ name, description, parameters, signature }], problems }
  callTool: "call-tool", // { name, args, windowId? } -> { result, ms }: one tool called by hand, no model (for developers)
  // Offscreen document -> service worker: one page-tool call, run in the user's tab (agent_tab:
  // the turn's { tab_id?, window_id? }, and watching: the turn's watches for downloads
  // (background/action-downloads.js), both added by page-bridge.js, not Python).
  pageTool: "page-tool", // wire.js PAGE_TOOL_REQUEST { name, args, tab_id?, expect_url? } -> PAGE_TOOL_REPLY
  // Python's life cycle: the offscreen document has been idle long enough (offscreen -> service
  // worker), is it still (service worker -> offscreen: { idle }); a side panel's runtime Port
  // to the offscreen document is named panelOpen and keeps Python there while it is open.
  offscreenListening: "offscreen-listening", // offscreen -> service worker: its handlers are in place
  offscreenIdle: "offscreen-idle",
  idleCheck: "idle-check",
  idleCloseChanged: "idle-close-changed", // service worker -> offscreen: { idle_close_minutes }, when saved
  panelOpen: "panel-open",
  // Service worker -> offscreen document: a page tool on a PDF tab, read there with pdf.js, for a
  // caller other than the offscreen document (which reads it itself on the pageTool answer).
  pdfTool: "pdf-tool", // { url, name, args } -> { ok, result | error }
  // Service worker -> offscreen document: which turns are running now.
  liveTurns: "live-turns", // {} -> { turnIds: [...] }
  // Service worker -> offscreen document: one call of an MCP client (TabAgent as an MCP server,
  // background/mcp-clients.js), run in Python as a step of the client's session (its conversation).
  clientCall: "client-call", // { conversationId, turnId, seq, client, site_rules, name, args, agentTab } -> { ok, result, images? } | { ok: false, error }
  // Side panel -> service worker, when it opens: mark turns that can never finish as interrupted.
  settleStaleTurns: "settle-stale-turns", // {} -> { settled }
  // Settings -> service worker -> offscreen document: the on-device models (shared/on-device/,
  // offscreen/on-device/): a download the user clicked, stopping it, deleting a model, what is
  // under way. addDeviceModel: a file from disk, copied into OPFS by the settings page itself.
  downloadDeviceModel: "download-device-model", // { request: { id, url, name, size?, sha256? } } -> { started }
  stopDeviceModelDownload: "stop-device-model-download", // { id } -> { stopped }
  deleteDeviceModel: "delete-device-model", // { id } -> { deleted }
  addDeviceModel: "add-device-model", // { record } -> { record }
  deviceModelStatus: "device-model-status", // {} -> { downloads: [progress], runner: { loaded, loads } }
  // Settings -> service worker: the user's schedules (shared/storage/schedules.js).
  saveSchedule: "save-schedule", // { schedule } -> { schedule }
  deleteSchedule: "delete-schedule", // { scheduleId } -> { deleted }
});

// Sent with chrome.runtime.sendMessage to whoever listens (service worker and side panels).
export const Broadcast = Object.freeze({
  pythonStatus: "python-status", // { status }
  turnEvents: "turn-events", // { conversationId, turnId, events }
  turnFinished: "turn-finished", // { conversationId, turnId, status, memory, events }
  conversationsChanged: "conversations-changed", // { conversationId? }
  appCallEvents: "app-call-events", // { appId, events }: an MCP App's call, as it goes (offscreen -> panel)
  // Offscreen document -> service worker: a scheduled run asks the user something; nobody is
  // there, so it stops as "needs you" (background/scheduled-runs.js).
  runNeedsYou: "run-needs-you", // { conversationId, question }
  // Offscreen document -> settings and service worker: a model download's progress; the service
  // worker keeps the model's record when it is done (shared/on-device/device-models.js).
  deviceModelDownload: "device-model-download", // { id, status, received, total, error?, record? }
});
