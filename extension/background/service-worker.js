// The service worker: TabAgent's router. It opens the side panel from the toolbar button and
// opens or closes it from the keyboard shortcut, owns the context menu, creates the offscreen
// document when Python is first needed (never at browser start: it costs ~140 MB) and closes
// it when idle, hands turns to it and writes conversations to storage as their events arrive.
// Chrome may stop this worker whenever it is idle, so it keeps nothing that is not in storage.

import * as conversations from "../shared/storage/conversations.js";
import { Broadcast, MessageType, Target } from "../shared/protocol/messages.js";
import { deviceModelHandlers, downloadProgress } from "./device-models.js";
import { isOffscreenDocument, isUserPage } from "../shared/protocol/senders.js";
import { storeSettings } from "../shared/settings/settings.js";
import { migrateStoredSettings } from "../shared/settings/settings-migration.js";
import { readSelection } from "./attachments.js";
import { screenshotToAttach } from "./screenshot.js";
import { createRightClickMenu, onRightClickMenuClick } from "./right-click-menu.js";
import { applyImport, receiveImportPart } from "./imports.js";
import { followConfiguredEndpoint, followMcpServers } from "./local-endpoint.js";
import { mcpForPython, storeMcpServers } from "../shared/settings/mcp-servers.js";
import { forgetSignInsOf } from "../shared/settings/mcp-sign-ins.js";
import { loadMcpServersSignedIn, signIn, signInForTurn, signOut } from "./mcp-sign-in.js";
import { runPageTool } from "./page-tool-relay.js";
import { noticeHandBacks } from "./hand-back-notice.js";
import { followPanel } from "../platform/chrome/panel.js";
import { keepStorageFromContentScripts } from "../platform/chrome/storage-access.js";
import { askOffscreen, closeIdleOffscreenDocument, creationTimes, offscreenListening, tellOffscreenIdleClose } from "./offscreen-document.js";
import { liveTurnIds, saveFinishedTurn, saveTurnEvents, settleStaleTurns, startTurn, stopTurn } from "./turn-records.js";
import { followOwnTabs } from "./own-tab.js";
import { deleteTurn, editTurn } from "./turn-edits.js";
import { armAllSchedules, catchUpMissedRuns, deleteSchedule, onScheduleAlarm, saveSchedule } from "./schedules.js";
import { scheduledRunNeedsYou, scheduledTurnFinished } from "./scheduled-runs.js";
import { editWorkflow, importWorkflow, saveWorkflowOf } from "./workflow-saving.js";
import { onNoticeClicked } from "./notice-clicks.js";
import { followMcpClients, stopMcpClients } from "./mcp-clients.js";

keepStorageFromContentScripts();
conversations.moveStoredConversations().catch((error) => console.error("TabAgent: conversations not moved", error));
// An older version's spelling of the settings, rewritten once; a save waits for it, or the
// rewrite could put the old values back over the new.
const settingsRespelled = migrateStoredSettings().catch((error) => console.error("TabAgent: settings not respelled", error));
followPanel(); // the toolbar button and the shortcut

function changed(conversationId) {
  chrome.runtime.sendMessage({ type: Broadcast.conversationsChanged, conversationId }).catch(() => {});
}

// Closing the agent's own tab (or its group) stops the turn working there.
followOwnTabs(async (message) => {
  await stopTurn(message);
  changed(message.conversationId);
}, async (turnId) => (await liveTurnIds())?.has(turnId) ?? false);

async function saveSettings({ settings, apiKey }) {
  await settingsRespelled;
  await storeSettings(settings, apiKey);
  await followConfiguredEndpoint(settings);
  await tellOffscreenIdleClose(settings.idle_close_minutes);
  await createRightClickMenu(); // the user's own prompts are in it
  await followMcpClients({ saved: true }); // MCP clients: the native host connected only while allowed
  return { saved: true };
}

async function saveMcpServers({ servers, secrets }) {
  const kept = await storeMcpServers(Array.isArray(servers) ? servers : [], secrets);
  await forgetSignInsOf(new Set(kept.map((server) => server.id)));
  await followMcpServers(kept);
  return { servers: kept };
}

// Test connection: Python connects with the stored headers, which never pass through a page.
async function checkMcpServer({ serverId }) {
  const { servers, secrets } = await loadMcpServersSignedIn();
  const server = servers.find((one) => one.id === serverId);
  if (!server) throw new Error("That MCP server is not in the settings (save it first).");
  return askOffscreen({ type: MessageType.checkMcpServer, server, headers: secrets });
}

async function listMcpPrompts() {
  const { servers, secrets } = await loadMcpServersSignedIn();
  if (!servers.some((server) => server.enabled !== false)) return { prompts: [] };
  return askOffscreen({ type: MessageType.listMcpPrompts, ...mcpForPython(servers, secrets) });
}

async function getMcpPrompt({ serverId, name, arguments: args }) {
  const { servers, secrets } = await loadMcpServersSignedIn();
  const server = servers.find((one) => one.id === serverId);
  if (!server) throw new Error("That MCP server is not in the settings.");
  return askOffscreen({ type: MessageType.getMcpPrompt, server, headers: secrets, name: String(name), arguments: args ?? {} });
}

// MCP Apps (sidepanel/app-view.js): the app's page, and the calls it makes back, each to the
// server the panel names for that app's step, with the stored headers (never through a page).
async function mcpServerFor(serverId) {
  const { servers, secrets } = await loadMcpServersSignedIn();
  const server = servers.find((one) => one.id === serverId);
  if (!server) throw new Error("That MCP server is no longer in the settings.");
  return { server, headers: secrets };
}

async function readMcpApp({ serverId, uri }) {
  return askOffscreen({ type: MessageType.readMcpApp, ...(await mcpServerFor(serverId)), uri: String(uri) });
}

async function mcpAppCall({ conversationId, appId, serverId, tool, arguments: args }) {
  const call = { conversation_id: String(conversationId), app_id: String(appId), tool: String(tool), arguments: args ?? {} };
  return askOffscreen({ type: MessageType.mcpAppCall, ...(await mcpServerFor(serverId)), appId: String(appId), call });
}

// Requests addressed to the service worker; each returns a promise of its answer. The agent's
// page tools act in the user's tabs: only the agent (the offscreen document) runs them.
const fromAgent = {
  // A PDF tab is read by the offscreen document itself: the answer says which, without a
  // second round trip through here.
  [MessageType.pageTool]: (message) => runPageTool(message, { pdfHere: true }),
  [MessageType.offscreenIdle]: () => closeIdleOffscreenDocument(), // only it knows it has been idle
  [MessageType.offscreenListening]: () => offscreenListening(),
  [MessageType.mcpSignInForTurn]: (message) => signInForTurn(message),
};

// The window of the side panel that sent a request: the one it says (a side panel's sender
// names no tab), else the tab it was opened as.
const panelWindow = (message, sender) => (Number.isInteger(message.windowId) ? message.windowId : sender.tab?.windowId);

// Requests from the pages a person uses (side panel, settings): never from a content script.
const handlers = {
  [MessageType.callTool]: (message, sender) => askOffscreen({ ...message, agentTab: { window_id: panelWindow(message, sender) } }),
  [MessageType.listTools]: async (message) => {
    const { servers, secrets } = await loadMcpServersSignedIn(); // the Tools view shows MCP tools too
    return askOffscreen({ ...message, ...mcpForPython(servers, secrets) });
  },
  [MessageType.answerConfirmation]: (message) => askOffscreen(message),
  [MessageType.answerHandBack]: (message) => askOffscreen(message),
  [MessageType.ping]: async (message) => {
    creationTimes.firstPing ??= Date.now();
    const reply = await askOffscreen(message);
    return { ...reply, phases: { ...creationTimes, ...reply.phases } };
  },
  [MessageType.startTurn]: (message, sender) => startTurn({ ...message, windowId: panelWindow(message, sender) }),
  [MessageType.stopTurn]: async (message) => {
    await stopMcpClients(message.conversationId); // an MCP client's session: the client is cut off too
    const result = await stopTurn(message);
    changed(message.conversationId);
    return result;
  },
  [MessageType.settleStaleTurns]: async () => {
    const settled = await settleStaleTurns();
    if (settled) changed();
    return { settled };
  },
  [MessageType.editTurn]: async (message, sender) => {
    const started = await editTurn({ ...message, windowId: panelWindow(message, sender) });
    changed(message.conversationId);
    return started;
  },
  [MessageType.deleteTurn]: async (message) => {
    await deleteTurn(message);
    changed(message.conversationId);
  },
  [MessageType.readSelection]: () => readSelection(runPageTool),
  [MessageType.screenshotTab]: (message, sender) => screenshotToAttach(panelWindow(message, sender)),
  [MessageType.saveSettings]: (message) => saveSettings(message),
  [MessageType.saveMcpServers]: (message) => saveMcpServers(message),
  [MessageType.checkMcpServer]: (message) => checkMcpServer(message),
  [MessageType.signInMcpServer]: (message) => signIn(message),
  [MessageType.signOutMcpServer]: (message) => signOut(message),
  [MessageType.listMcpPrompts]: () => listMcpPrompts(),
  [MessageType.getMcpPrompt]: (message) => getMcpPrompt(message),
  [MessageType.readMcpApp]: (message) => readMcpApp(message),
  [MessageType.mcpAppCall]: (message) => mcpAppCall(message),
  [MessageType.saveWorkflow]: (message) => saveWorkflowOf(message),
  [MessageType.importWorkflow]: (message) => importWorkflow(message),
  [MessageType.editWorkflow]: (message) => editWorkflow(message),
  [MessageType.renameConversation]: async ({ conversationId, title }) => {
    await conversations.renameConversation(conversationId, title);
    changed(conversationId);
  },
  [MessageType.deleteConversation]: async ({ conversationId }) => {
    await conversations.deleteConversation(conversationId);
    changed(conversationId);
  },
  [MessageType.deleteOlderThan]: async ({ days }) => {
    const deleted = await conversations.deleteOlderThan(Number(days));
    changed();
    return { deleted };
  },
  // Schedules are made only here, by a person on the settings page: never by an import.
  [MessageType.saveSchedule]: (message) => saveSchedule(message),
  // The on-device models: a download starts only here, from a person's click on the settings page.
  ...deviceModelHandlers,
  [MessageType.deleteSchedule]: (message) => deleteSchedule(message),
  [MessageType.importPart]: async (message, sender) => receiveImportPart(message, sender),
  [MessageType.importConversations]: async (message, sender) => {
    const result = await applyImport(message, sender);
    changed();
    return result;
  },
};

// Broadcasts from the offscreen document that the service worker persists (only from it: a
// forged turn-finished would rewrite a conversation).
const broadcasts = {
  [Broadcast.turnEvents]: (message) => {
    noticeHandBacks(message.events, message.conversationId).catch((error) => console.warn("TabAgent: no notification:", error.message));
    return saveTurnEvents(message);
  },
  [Broadcast.turnFinished]: async (message) => {
    await saveFinishedTurn(message);
    await scheduledTurnFinished(); // a scheduled run's end is told, and the next waiting one starts
  },
  [Broadcast.runNeedsYou]: scheduledRunNeedsYou,
  [Broadcast.deviceModelDownload]: downloadProgress,
};

// The handler for a message from this sender, or null: each type is taken only from the
// contexts meant to send it (shared/protocol/senders.js says why).
function handlerFor(message, sender) {
  if (message?.target !== Target.background) return null;
  const table = isOffscreenDocument(sender) ? fromAgent : isUserPage(sender) ? handlers : {};
  return Object.hasOwn(table, message.type) ? table[message.type] : null;
}

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (isOffscreenDocument(sender) && Object.hasOwn(broadcasts, message?.type)) {
    broadcasts[message.type](message).catch((error) => console.warn("TabAgent: could not save turn events:", error.message));
    return false;
  }
  const handler = handlerFor(message, sender);
  if (!handler) return false;
  handler(message, sender).then(
    (result) => sendResponse({ ok: true, result }),
    (error) => sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
  return true;
});

chrome.contextMenus.onClicked.addListener(onRightClickMenuClick);
// A notification's click opens the panel on its run's conversation.
chrome.notifications.onClicked.addListener((id) => {
  onNoticeClicked(id).catch((error) => console.warn("TabAgent: the notification's conversation did not open:", error.message));
});

chrome.runtime.onInstalled.addListener(() => {
  keepStorageFromContentScripts();
  createRightClickMenu();
  armAllSchedules().catch((error) => console.warn("TabAgent: schedules not armed:", error.message));
});

// Schedules: an alarm starts its run; at the browser's start, runs missed while it was closed
// run once, saying so.
chrome.alarms.onAlarm.addListener((alarm) => {
  onScheduleAlarm(alarm).catch((error) => console.warn("TabAgent: a scheduled run did not start:", error.message));
});
chrome.runtime.onStartup.addListener(() => {
  catchUpMissedRuns().catch((error) => console.warn("TabAgent: missed runs not caught up:", error.message));
});

// This worker starts afresh after every idle stop. A turn still marked running that Python
// is not running (the browser stopped mid-turn, or its end was lost) can never finish.
settleStaleTurns().catch((error) => console.warn("TabAgent:", error.message));
// MCP clients reach TabAgent only while the user allows it in the settings (mcp-clients.js).
followMcpClients().catch((error) => console.warn("TabAgent: MCP clients:", error.message));
creationTimes.serviceWorkerModuleRan = Date.now(); // for the start-up profile
