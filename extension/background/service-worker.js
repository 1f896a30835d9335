// The service worker: TabAgent's router. It opens the side panel from the toolbar button,
// owns the context menu, creates the offscreen document when Python is first needed (never
// at browser start: it costs ~140 MB) and closes it when idle, hands turns to it and writes
// conversations to storage as their events arrive. Chrome may stop this
// worker whenever it is idle, so it keeps nothing that is not in storage.

import * as conversations from "../shared/conversations.js";
import { Broadcast, MessageType, Target } from "../shared/messages.js";
import { storeSettings } from "../shared/settings.js";
import { readSelection } from "./attachments.js";
import { createContextMenu, onContextMenuClick } from "./context-menu.js";
import { applyImport, receiveImportPart } from "./imports.js";
import { followConfiguredEndpoint } from "./local-endpoint.js";
import { runPageTool } from "./page-tool-relay.js";
import { askOffscreen, closeIdleOffscreenDocument, offscreenDocumentExists, offscreenListening, tellOffscreenIdleClose } from "./offscreen-document.js";
import { saveFinishedTurn, saveTurnEvents, startTurn, stopTurn } from "./turns.js";
import { deleteTurn, editTurn } from "./turn-edits.js";

chrome.sidePanel
  .setPanelBehavior({ openPanelOnActionClick: true })
  .catch((error) => console.error("TabAgent: cannot set the side panel behaviour:", error));

function changed(conversationId) {
  chrome.runtime.sendMessage({ type: Broadcast.conversationsChanged, conversationId }).catch(() => {});
}

async function saveSettings({ settings, apiKey }) {
  await storeSettings(settings, apiKey);
  await followConfiguredEndpoint(settings);
  await tellOffscreenIdleClose(settings.idleCloseMinutes);
  await createContextMenu(); // the user's own prompts are in it
  return { saved: true };
}

const OWN_PAGES = chrome.runtime.getURL("");
const OFFSCREEN_PAGE = chrome.runtime.getURL("extension/offscreen/offscreen.html");

// The agent's page tools act in the user's tabs: only the agent (the offscreen document) runs them.
async function pageTool(message, sender) {
  if (sender.url !== OFFSCREEN_PAGE) throw new Error("page tools run only for the agent");
  return runPageTool(message);
}

// Only the offscreen document knows it has been idle; only this worker may close it.
async function offscreenIdle(_message, sender) {
  if (sender.url !== OFFSCREEN_PAGE) throw new Error("only the offscreen document reports its idleness");
  return closeIdleOffscreenDocument();
}

async function offscreenStarted(_message, sender) {
  if (sender.url !== OFFSCREEN_PAGE) throw new Error("only the offscreen document says it is listening");
  return offscreenListening();
}

// Requests addressed to the service worker; each returns a promise of its answer.
const handlers = {
  [MessageType.pageTool]: pageTool,
  [MessageType.offscreenIdle]: offscreenIdle,
  [MessageType.offscreenListening]: offscreenStarted,
  [MessageType.callTool]: (message) => askOffscreen(message),
  [MessageType.listTools]: (message) => askOffscreen(message),
  [MessageType.answerConfirmation]: (message) => askOffscreen(message),
  [MessageType.ping]: (message) => askOffscreen(message),
  [MessageType.startTurn]: (message) => startTurn(message),
  [MessageType.stopTurn]: (message) => stopTurn(message),
  [MessageType.editTurn]: async (message) => {
    const started = await editTurn(message);
    changed(message.conversationId);
    return started;
  },
  [MessageType.deleteTurn]: async (message) => {
    await deleteTurn(message);
    changed(message.conversationId);
  },
  [MessageType.readSelection]: () => readSelection(runPageTool),
  [MessageType.saveSettings]: (message) => saveSettings(message),
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
  [MessageType.importPart]: async (message, sender) => receiveImportPart(message, sender),
  [MessageType.importConversations]: async (message, sender) => {
    const imported = await applyImport(message, sender);
    changed();
    return { imported };
  },
};

// Broadcasts from the offscreen document that the service worker persists.
const broadcasts = {
  [Broadcast.turnEvents]: saveTurnEvents,
  [Broadcast.turnFinished]: saveFinishedTurn,
};

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  // Our content scripts live inside web pages: only the extension's own pages may ask.
  if (!sender.url?.startsWith(OWN_PAGES)) return false;
  if (broadcasts[message?.type]) {
    broadcasts[message.type](message).catch((error) => console.warn("TabAgent: could not save turn events:", error.message));
    return false;
  }
  if (message?.target !== Target.background) return false;
  const handler = handlers[message.type];
  if (!handler) return false;
  handler(message, sender).then(
    (result) => sendResponse({ ok: true, result }),
    (error) => sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
  return true;
});

chrome.contextMenus.onClicked.addListener(onContextMenuClick);

chrome.runtime.onInstalled.addListener(() => createContextMenu());

// This worker starts afresh after every idle stop. If Python is not running either, a turn
// still marked running was cut off (the browser stopped mid-turn) and can never finish.
conversations
  .markInterruptedTurns(async () => !(await offscreenDocumentExists()))
  .catch((error) => console.warn("TabAgent:", error.message));
