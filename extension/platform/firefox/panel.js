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

// Opens the sidebar for a notification's click. Firefox counts no notification click as a
// user's action (the sidebar opens only from the toolbar, a menu or a shortcut), so when it
// refuses, the panel's page opens in a tab of its own instead: the click still shows the run.
export function openPanelFor() {
  browser.sidebarAction.open().catch(async () => {
    if (await panelIsOpen()) return;
    await chrome.tabs.create({ url: chrome.runtime.getURL("extension/sidepanel/sidepanel.html") })
      .catch((error) => console.warn("TabAgent: could not open the panel:", error.message));
  });
}

// Whether the sidebar is open (in the window in front): a hand-back nobody sees is notified.
export async function panelIsOpen() {
  return browser.sidebarAction.isOpen({}).catch(() => false);
}
