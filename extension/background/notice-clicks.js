// A click on one of TabAgent's notifications (a scheduled run ended, a run or a turn needs the
// user) opens the panel on that run's conversation, bringing forward the tab it works in when
// that tab is still open. What to open is written by this worker into the notification's id as
// it makes it (the conversation, and the run's tab and window): nothing a page or the model
// wrote chooses it, and a click only ever shows a conversation that is in storage and
// brings forward a tab that is open already; it never opens an address.

import * as conversations from "../shared/storage/conversations.js";
import { openPanelFor } from "../platform/chrome/panel.js";
import { stillOpenTabOf } from "./own-tab.js";
import { OPEN_CONVERSATION } from "./right-click-menu.js";

const PREFIX = "tabagent-";
const KINDS = new Set(["run", "hand-back"]);

const whole = (value) => (Number.isInteger(value) ? value : null);

// The id of a notification whose click opens `conversationId` (tabId, windowId: the run's tab
// and its window, when it keeps one open; request: what tells two notifications apart).
export function noticeIdFor(kind, { conversationId, tabId = null, windowId = null, request = "" }) {
  return `${PREFIX}${kind}:${JSON.stringify({ conversation: conversationId, tab: whole(tabId), window: whole(windowId), request: String(request) })}`;
}

// What a notification's click opens, read back from its id; null for any other notification.
export function targetOf(notificationId) {
  const [, kind, written] = /^tabagent-([a-z-]+):(\{.*\})$/s.exec(String(notificationId)) ?? [];
  if (!KINDS.has(kind)) return null;
  try {
    const { conversation, tab, window } = JSON.parse(written);
    return typeof conversation === "string" && conversation ? { conversationId: conversation, tabId: whole(tab), windowId: whole(window) } : null;
  } catch {
    return null;
  }
}

// chrome.notifications.onClicked: the panel is opened at once, inside the click (a browser
// opens a panel only then), and then shows the conversation.
export function onNoticeClicked(notificationId) {
  const target = targetOf(notificationId);
  if (!target) return Promise.resolve(false);
  openPanelFor(target);
  return showConversation(target).finally(() => chrome.notifications.clear(notificationId).catch(() => {}));
}

async function showConversation({ conversationId, tabId }) {
  if (!(await conversations.loadConversation(conversationId))) return false; // deleted since
  const tab = await openTab(tabId) ?? (await stillOpenTabOf(conversationId));
  if (tab) await bringForward(tab);
  // Set apart first: the panel follows a change, and it may show another conversation now.
  await chrome.storage.session.remove(OPEN_CONVERSATION);
  await chrome.storage.session.set({ [OPEN_CONVERSATION]: conversationId });
  return true;
}

const openTab = (tabId) => (tabId == null ? Promise.resolve(null) : chrome.tabs.get(tabId).catch(() => null));

async function bringForward(tab) {
  await chrome.tabs.update(tab.id, { active: true }).catch(() => {});
  await chrome.windows.update(tab.windowId, { focused: true }).catch(() => {});
}
