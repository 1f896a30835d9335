// The chat's place in the browser (Chrome's version: the side panel; Firefox's sidebar is in
// extension/platform/firefox/panel.js).
import { followSidePanel } from "./side-panel-shortcut.js";

// The toolbar button opens the panel, the shortcut opens and closes it.
export function followPanel() {
  chrome.sidePanel
    .setPanelBehavior({ openPanelOnActionClick: true })
    .catch((error) => console.error("TabAgent: cannot set the side panel behaviour:", error));
  followSidePanel();
}

// Opens the panel beside this tab. Chrome allows it only inside a user's gesture (a click on
// a menu item): call it before any await.
export function openPanel(tab) {
  const opening = tab?.id !== undefined ? chrome.sidePanel.open({ tabId: tab.id }) : Promise.reject(new Error("no tab"));
  opening.catch((error) => console.warn("TabAgent: could not open the side panel:", error.message));
}

// Opens the panel in the window of a notification's run (its tab's, or the one in front).
// Inside the notification's click, before any await: Chrome opens a panel only then.
export function openPanelFor({ tabId, windowId }) {
  const where = windowId != null ? { windowId } : tabId != null ? { tabId } : { windowId: chrome.windows.WINDOW_ID_CURRENT };
  chrome.sidePanel.open(where).catch((error) => console.warn("TabAgent: could not open the side panel:", error.message));
}

// Whether TabAgent's panel is open anywhere (as the side panel, or its page opened in a tab): a
// hand-back nobody sees is notified.
export async function panelIsOpen() {
  const page = chrome.runtime.getURL("extension/sidepanel/sidepanel.html");
  const contexts = await chrome.runtime.getContexts({ contextTypes: ["SIDE_PANEL", "TAB"] }).catch(() => []);
  return contexts.some((context) => context.documentUrl?.split(/[?#]/)[0] === page);
}
