// Which tab the page tools work on, and whether the browser lets an extension into it.
// A tab we may not read is not an error: it is a sentence, said to the model and the user.

export class PageUnavailable extends Error {}

const OWN_PAGES = chrome.runtime.getURL("");
const LOAD_WAIT_MS = 5000;

const BROWSER_SCHEMES = new Set(["chrome:", "edge:", "brave:", "opera:", "vivaldi:", "about:", "devtools:",
  "chrome-untrusted:", "chrome-search:", "chrome-extension:", "extension:", "moz-extension:"]);
// Browsers keep extensions out of their own extension stores.
const STORES = [/^https:\/\/chromewebstore\.google\.com\//, /^https:\/\/chrome\.google\.com\/webstore/,
  /^https:\/\/microsoftedge\.microsoft\.com\/addons/];

const isOwnPage = (url) => Boolean(url?.startsWith(OWN_PAGES));

// The tab the user is on: the active tab of the side panel's window (`windowId`), never the
// last focused window's, which may be a pop-up the page opened. When that is one of our own
// pages (the side panel opened as a tab), it is the tab they looked at last. Without a window
// (a request that did not come from a panel), the last focused window. A tab a page opened in
// front of itself, unasked, is passed over for that page (unaskedOpener).
export async function userTab(windowId) {
  const where = windowId != null ? { windowId } : { lastFocusedWindow: true };
  const [active] = await chrome.tabs.query({ active: true, ...where }).catch(() => []);
  if (active && !isOwnPage(active.url ?? active.pendingUrl)) return (await unaskedOpener(active, windowId)) ?? active;
  const others = (await chrome.tabs.query({})).filter((tab) => !isOwnPage(tab.url ?? tab.pendingUrl));
  const inWindow = windowId ?? active?.windowId;
  const sameWindowFirst = (tab) => (tab.windowId === inWindow ? 1 : 0);
  others.sort((a, b) => sameWindowFirst(b) - sameWindowFirst(a) || (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0));
  if (!others.length) throw new PageUnavailable("There is no tab with a web page open, so there is no page to work on.");
  return (await unaskedOpener(others[0], windowId)) ?? others[0];
}

// The page that opened `tab` by itself, or null. A page the user has never clicked, typed or
// tapped in has no "user activation" (the browser's record that a person used it, which pop-up
// blockers go by): a tab such a page opened, like the advertisement a page opens in front of
// itself as it loads (a pop-under), is not one the user asked for, and they are still on the
// page behind it. A tab opened from a page the user has used (a link they clicked) is theirs.
async function unaskedOpener(tab, windowId) {
  if (tab.openerTabId == null) return null;
  const opener = await chrome.tabs.get(tab.openerTabId).catch(() => null);
  if (!opener || isOwnPage(opener.url ?? opener.pendingUrl) || (windowId != null && opener.windowId !== windowId)) return null;
  const [frame] = await chrome.scripting.executeScript({ target: { tabId: opener.id }, injectImmediately: true,
    func: () => navigator.userActivation?.hasBeenActive }).catch(() => []);
  return frame?.result === false ? opener : null;
}

// The tab the agent works on (`agent`, as the side panel's request gave it): the tab its turn
// started on, whichever tab a page brings to the front since; for a tool called alone, the
// user's tab in the panel's window now.
export async function agentTab(agent) {
  if (agent?.tab_id == null) return userTab(agent?.window_id);
  try {
    return await chrome.tabs.get(agent.tab_id);
  } catch {
    throw new PageUnavailable("The tab this conversation was working on has been closed, so there is no page to work on; " +
      "the user can open the page again and ask once more.");
  }
}

export async function tabById(tabId) {
  try {
    const tab = await chrome.tabs.get(tabId);
    if (!isOwnPage(tab.url ?? tab.pendingUrl)) return tab;
  } catch {
    // closed, or never existed: said below
  }
  throw new PageUnavailable(`There is no tab ${tabId} with a web page; list_tabs gives the ids of the open tabs.`);
}

// The site a tab shows, which is what a user who attached it chose: the origin of a web
// page (its scheme, host and port); a file on this computer is a site of its own.
export function siteOf(address) {
  let url;
  try {
    url = new URL(address);
  } catch {
    return "";
  }
  return ["http:", "https:"].includes(url.protocol) ? url.origin : url.href.replace(/#.*$/, "");
}

// What the user can do about a tab no extension may read.
const ELSEWHERE = "The user can open a web page in this tab, or go to a tab that shows one, and ask again.";

// Why no extension may script this tab, as a sentence; or "" when the browser lets extensions in.
export function refusal(tab) {
  const address = tab.url || tab.pendingUrl || "";
  let url;
  try {
    url = new URL(address);
  } catch {
    return "TabAgent cannot see the address of this tab, so it cannot read it.";
  }
  const cannot = `TabAgent cannot read or act on ${address}:`;
  if (url.href === "about:blank") return `${cannot} the tab shows no page, so there is nothing to read. ${ELSEWHERE}`;
  if (url.protocol === "view-source:") return `${cannot} it shows a page's source, which browsers keep extensions out of. Open the page itself instead.`;
  if (BROWSER_SCHEMES.has(url.protocol)) return `${cannot} it is one of the browser's own pages, which browsers keep every extension out of. ${ELSEWHERE}`;
  if (STORES.some((store) => store.test(address))) return `${cannot} it is the browser's extension store, which browsers keep every extension out of. ${ELSEWHERE}`;
  if (!["http:", "https:", "file:"].includes(url.protocol)) return `${cannot} browsers let extensions into web pages only (http and https addresses).`;
  return "";
}

// A file on this computer is readable only when the user switched on "Allow access to file
// URLs" for TabAgent; without it, a sentence saying where to switch it on, or "".
export async function fileRefusal(tab) {
  if (!tab.url?.startsWith("file:") || (await chrome.extension.isAllowedFileSchemeAccess())) return "";
  return `TabAgent cannot read ${tab.url}: it is a file on this computer, and reading files needs ` +
    "“Allow access to file URLs”, which the user can switch on in chrome://extensions, TabAgent's Details.";
}

// A web site the user keeps TabAgent out of: Chrome's "Site access" (on click, on specific sites)
// and Firefox's per-site permissions withhold the host permission the manifest asks for. The
// browser would then refuse the scripts in its own words, or (Chromium) never answer at all, so
// the permission is asked first; a sentence saying which site and where to allow it, or "".
// (Asked for the tab's host, any port, which is what a user allows or not: MDN's match patterns
// say Firefox takes no port in one.)
export async function siteRefusal(tab) {
  if (!/^https?:/.test(tab.url ?? "")) return "";
  const url = new URL(tab.url);
  const origins = [`${url.protocol}//${url.hostname}/*`];
  if (await Promise.resolve().then(() => chrome.permissions.contains({ origins })).catch(() => true)) return "";
  return `TabAgent may not read or act on ${tab.url}: the user has not allowed TabAgent on ${url.host}. ` +
    "To allow it, the user can open the Extensions menu (the puzzle piece in the browser's toolbar), let TabAgent " +
    "read and change this site there, and ask again.";
}

// Why the extension may not read or act on this tab, as a sentence; or "" when it may.
export async function whyUnreadable(tab) {
  return refusal(tab) || (await fileRefusal(tab)) || (await siteRefusal(tab));
}

// A tab still loading gets a few seconds to finish; the caller then checks the document.
export async function settled(tab, timeoutMs = LOAD_WAIT_MS) {
  if (tab.status !== "loading") return tab;
  await waitForLoad(tab.id, timeoutMs);
  return chrome.tabs.get(tab.id);
}

// Resolves when the tab's page has loaded, or after timeoutMs, whichever comes first.
// With { next: true } it waits for the next load (call it before starting a navigation:
// until then the tab still says "complete" about the page it is leaving). `leaving`: an
// address whose load does not count (Firefox may say a new tab's about:blank is complete late,
// after the navigation from it has started).
export function waitForLoad(tabId, timeoutMs, { next = false, leaving = null } = {}) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(listener);
      resolve();
    };
    const listener = (id, change, tab) => {
      if (id === tabId && change.status === "complete" && !(leaving && tab?.url === leaving)) done();
    };
    const timer = setTimeout(done, timeoutMs);
    chrome.tabs.onUpdated.addListener(listener);
    if (!next) chrome.tabs.get(tabId).then((tab) => tab.status === "complete" && done(), done);
  });
}
