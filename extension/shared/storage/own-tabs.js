// The tabs the agent opened, kept by the service worker (background/own-tab.js) in session
// storage, which the browser clears when it closes: { [tab id]: { conversationId, turnId, turns } },
// `turns` each turn that worked there. The panel names a tab for a turn only when it is listed
// here for that turn (sidepanel/own-tab-view.js): a tab id from an earlier session, or from an
// imported file, may be any tab of the user's now.

export const OWN_TABS = "ownTabs";

export async function ownTabs() {
  return (await chrome.storage.session.get(OWN_TABS))[OWN_TABS] ?? {};
}

export async function workedIn(tabId, turnId) {
  return Boolean((await ownTabs())[tabId]?.turns?.includes(turnId));
}
