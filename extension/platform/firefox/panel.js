// The chat's place in the browser (Firefox's version of extension/platform/chrome/panel.js): the
// sidebar. Firefox opens or closes a sidebar only inside a user's action, so each call is
// made at once in the listener; the shortcut is the manifest's _execute_sidebar_action,
// which Firefox handles itself.

export function followPanel() {
  chrome.action.onClicked.addListener(() => {
    browser.sidebarAction.toggle().catch((error) => console.warn("TabAgent: could not toggle the sidebar:", error.message));
  });
}

export function openPanel() {
  browser.sidebarAction.open().catch((error) => console.warn("TabAgent: could not open the sidebar:", error.message));
}

// Whether the sidebar is open (in the window in front): a hand-back nobody sees is notified.
export async function panelIsOpen() {
  return browser.sidebarAction.isOpen({}).catch(() => false);
}
