// The tab a scheduled run works in: a new tab of its own, opened in the background (never
// made active, never focused), so the tab the user is on is left alone. One small function, so
// that the agent's own tabs and tab groups can take its place.

export async function openRunTab(url) {
  const tab = await chrome.tabs.create({ url: url || "about:blank", active: false });
  return { tabId: tab.id, windowId: tab.windowId };
}

// A run that finished needs its tab no more; one that needs the user keeps it for them.
export function closeRunTab(tabId) {
  return chrome.tabs.remove(tabId).catch(() => {}); // closed by the user already
}
