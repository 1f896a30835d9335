// "Ask TabAgent about selection": a context-menu item on selected text that opens the side
// panel and starts a turn with the selection, the page's title and its address as context.

import { startTurn } from "./turns.js";

export const ASK_ABOUT_SELECTION = "ask-about-selection";
export const OPEN_CONVERSATION = "openConversation"; // chrome.storage.session: what the panel shows

export function createContextMenu() {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({ id: ASK_ABOUT_SELECTION, title: "Ask TabAgent about selection", contexts: ["selection"] });
  });
}

export function onContextMenuClick(info, tab) {
  if (info.menuItemId !== ASK_ABOUT_SELECTION) return Promise.resolve(null);
  // The panel may only be opened inside the click's user gesture: before any await.
  const opening = tab?.id !== undefined ? chrome.sidePanel.open({ tabId: tab.id }) : Promise.reject(new Error("no tab"));
  opening.catch((error) => console.warn("TabAgent: could not open the side panel:", error.message));
  const context = { selection: info.selectionText, title: tab?.title ?? "", url: tab?.url ?? info.pageUrl ?? "" };
  return startTurn({ text: "Explain this selection.", context }).then(
    async (started) => {
      await chrome.storage.session.set({ [OPEN_CONVERSATION]: started.conversationId });
      return started;
    },
    async (error) => {
      // Nothing to run (no model configured, say): the panel shows why.
      await chrome.storage.session.set({ [OPEN_CONVERSATION]: null, lastError: error.message });
      return null;
    },
  );
}
