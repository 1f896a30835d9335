// TabAgent as an MCP server: MCP clients (Claude Code, Cursor, the MCP Inspector) call the
// page tools through TabAgent's native messaging host (mcp-server/, `tabagent-mcp`), which the
// browser starts when this connects to it: only while the user has "Let MCP clients use
// TabAgent" on in the settings (off by default). A client's calls are untrusted like the
// model's: each runs in Python with the agent's own page tools, site rules and consent
// (offscreen/python/client-calls.js), and its session is a conversation of its own, opened
// in the panel at its first call: every call is seen there, every action asked there, and
// Stop ends the session and disconnects the host until the setting is saved again.
// A session is one connection to the host (the host numbers them: mcp-server/tabagent_mcp/host.py),
// never a client's name, which any program can give itself: a second program is a second
// session, its questions asked afresh in its own name, and a session ends with its connection,
// and what the user allowed its client with it (py/tabagent/app/consent.py).

import * as conversations from "../shared/storage/conversations.js";
import { Broadcast, MessageType } from "../shared/protocol/messages.js";
import { TurnStatus } from "../shared/import-checks/conversation-schema.js";
import { loadSettings } from "../shared/settings/settings.js";
import { keepBackgroundWhile } from "../platform/chrome/background-lifetime.js";
import { askOffscreen } from "./offscreen-document.js";
import { stopTurn } from "./turn-records.js";
import { OPEN_CONVERSATION } from "./right-click-menu.js";
import { t } from "../shared/ui/i18n.js";

const HOST = "tabagent_mcp"; // mcp-server/tabagent_mcp/__init__.py HOST_NAME
const SESSIONS = "mcpClientSessions"; // chrome.storage.session: { [connection]: { conversationId, turnId } }
const STOPPED = "mcpClientsStopped"; // chrome.storage.session: the user stopped the clients

let port = null;

// Connects to the host when the setting is on (and the user has not stopped the clients since
// they last saved the settings), disconnects when it is off. saved: the settings were just saved.
export async function followMcpClients({ saved = false } = {}) {
  if (saved) await chrome.storage.session.remove(STOPPED);
  const { settings } = await loadSettings();
  const { [STOPPED]: stopped } = await chrome.storage.session.get(STOPPED);
  if (settings.mcp_clients && !stopped) connect();
  else disconnect();
}

function connect() {
  if (port) return;
  const connected = chrome.runtime.connectNative(HOST);
  port = connected;
  connected.onDisconnect.addListener(() => {
    void chrome.runtime.lastError; // the host not registered, or it ended: the sessions end with it
    if (port !== connected) return;
    port = null;
    endSessions();
  });
  connected.onMessage.addListener((message) => {
    if (message?.ended === true) return void endSessions(message.connection); // one client's connection closed
    answer(message).then((reply) => {
      if (port === connected) connected.postMessage({ id: message?.id, ...reply });
    });
  });
  keepBackgroundWhile(async () => port === connected); // Firefox would stop its event page
}

// end: the sessions' turns end too (not when the panel's Stop is ending them already).
function disconnect({ end = true } = {}) {
  if (!port) return;
  port.disconnect();
  port = null;
  if (end) endSessions();
}

const loadSessions = async () => (await chrome.storage.session.get(SESSIONS))[SESSIONS] ?? {};

// A connection closed (or, with none named, the host is gone): its session's conversation stops
// "working", Python forgets what its client was allowed, and may close when idle. stopping: a
// session the panel's Stop is ending already.
function endSessions(connection = null, { stopping = null } = {}) {
  finding = finding.then(async () => {
    const sessions = await loadSessions();
    const ending = Object.keys(sessions).filter((key) => connection == null || key === String(connection));
    const kept = Object.fromEntries(Object.entries(sessions).filter(([key]) => !ending.includes(key)));
    await chrome.storage.session.set({ [SESSIONS]: kept });
    showOnToolbar(Object.keys(kept).length > 0);
    for (const key of ending.filter((one) => sessions[one].conversationId !== stopping)) {
      await stopTurn({ conversationId: sessions[key].conversationId });
      chrome.runtime.sendMessage({ type: Broadcast.conversationsChanged, conversationId: sessions[key].conversationId }).catch(() => {});
    }
  }).catch((error) => console.warn("TabAgent: an MCP client's session did not end:", error.message));
  return finding;
}

// One call from the host: { id, tool, args, client, connection } -> { ok, result, images? } | { ok: false, error }.
async function answer({ tool, args, client, connection }) {
  try {
    const { settings } = await loadSettings();
    if (!settings.mcp_clients) return { ok: false, error: t("mcpClientsOff") };
    const name = String(client ?? "");
    const session = await liveSession(String(connection ?? ""), name);
    return await askOffscreen({
      type: MessageType.clientCall,
      ...session,
      client: name,
      site_rules: settings.site_rules,
      name: String(tool),
      args: args && typeof args === "object" && !Array.isArray(args) ? args : {},
      agentTab: { tab_id: null, window_id: null }, // the tab the user is on, looked up at each call
    });
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

// A connection's session: the conversation its calls are shown in, made at its first call and
// opened in the panel; a new one once the user stopped the last. One at a time: two calls
// arriving together share the session the first one makes.
let finding = Promise.resolve();
function liveSession(connection, client) {
  const found = finding.then(() => sessionFor(connection, client));
  finding = found.catch(() => {});
  return found;
}

async function sessionFor(connection, client) {
  const sessions = await loadSessions();
  const kept = sessions[connection];
  const record = kept && (await conversations.loadConversation(kept.conversationId));
  const turn = record?.turns.find((one) => one.id === kept.turnId);
  if (turn?.status === TurnStatus.running) return { ...kept, seq: 0 };
  const text = t("mcpClientSession", [client || "an MCP client"]);
  const created = await conversations.createConversation(conversations.titleFrom(text));
  const turnId = crypto.randomUUID();
  await conversations.addTurn(created.id, { id: turnId, text, context: null, startedAt: Date.now() });
  const session = { conversationId: created.id, turnId };
  await chrome.storage.session.set({ [SESSIONS]: { ...sessions, [connection]: session }, [OPEN_CONVERSATION]: created.id });
  showOnToolbar(true);
  chrome.runtime.sendMessage({ type: Broadcast.conversationsChanged, conversationId: created.id }).catch(() => {});
  return { ...session, seq: 0 };
}

// The panel's Stop on a client's session: the host is disconnected, so every client is cut off
// (their sessions end), and not connected again until the user saves the settings (or the
// browser starts again).
export async function stopMcpClients(conversationId) {
  const sessions = await loadSessions();
  if (!Object.values(sessions).some((session) => session.conversationId === conversationId)) return;
  await chrome.storage.session.set({ [STOPPED]: true });
  disconnect({ end: false });
  await endSessions(null, { stopping: conversationId });
}

// While a client's session lasts, the toolbar button says so, for a user whose panel is closed.
function showOnToolbar(on) {
  chrome.action.setBadgeText({ text: on ? "MCP" : "" }).catch(() => {});
  chrome.action.setTitle({ title: t(on ? "mcpClientOnToolbar" : "actionTitle") }).catch(() => {});
}
