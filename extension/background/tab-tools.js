// The page tools done with chrome.tabs rather than inside a page: listing the window's tabs,
// navigating the user's tab and opening a new one. navigate and open_tab are actions, so
// they are described first (TAB_ACTIONS, the service worker's part of describe_action) for
// the user to confirm, exactly as the content script describes a click. Other tabs are a
// boundary too: list_tabs and read_tab are described the same way, with `user_is_on` saying
// when they concern only the tab the user is on (then Python asks nothing).

import { PageUnavailable, siteOf, tabById, waitForLoad, whyUnreadable } from "./page-access.js";
import { t, tn } from "../shared/ui/i18n.js";
import { notShown } from "./screenshot.js";
import { keptOn, stoppedNote } from "./stay-on-site.js";

const NAVIGATION_WAIT_MS = 15000;
const OWN_PAGES = chrome.runtime.getURL("");

// Only web addresses: never javascript:, data:, file: or the browser's own pages. A relative
// address is taken from the tab's page, as a link on it would be.
function destination(tab, url) {
  let target;
  try {
    target = new URL(String(url ?? ""), tab.url);
  } catch {
    throw new PageUnavailable(`“${url}” is not a web address.`);
  }
  if (!["http:", "https:"].includes(target.protocol)) {
    throw new PageUnavailable(`TabAgent opens only http and https addresses, not “${target.href}”.`);
  }
  return target.href;
}

const pageName = (tab) => (tab.title && tab.title !== tab.url ? `“${tab.title}” (${tab.url})` : tab.url);

const otherTabs = async (tab) =>
  (await chrome.tabs.query({ windowId: tab.windowId })).filter((other) => other.id !== tab.id && !other.url?.startsWith(OWN_PAGES));

// read_tab and screenshot of a tab (tab_id; none: the user's): which tab and site, and the
// question, which names the site the tab shows now; user_is_on when it is the user's own tab.
// attached_url: the address the tab showed when the user attached it; opened_url: the address
// the user allowed the agent to open in it (open_tab, navigate). A tab gone elsewhere since is
// said to have left that site.
async function aboutAnotherTab(tab, action, { tab_id: tabId, attached_url: attachedUrl, opened_url: openedUrl }, [ask, askMoved, askLeft]) {
  const other = tabId == null ? tab : await tabById(Number(tabId));
  const [site, attachedSite, openedSite] = [siteOf(other.url), attachedUrl ? siteOf(attachedUrl) : "", openedUrl ? siteOf(openedUrl) : ""];
  const summary = attachedSite && attachedSite !== site ? t(askMoved, attachedSite, pageName(other))
    : openedSite && openedSite !== site ? t(askLeft, openedSite, pageName(other)) : t(ask, pageName(other));
  // A tab the agent opened is never the user's, even while they look at it.
  return { action, summary, page_url: tab.url, tab_id: other.id, url: other.url, site,
    ...(attachedSite && { attached_site: attachedSite }), ...(openedSite && { opened_site: openedSite }),
    user_is_on: other.id === tab.id && !openedSite };
}

export const TAB_ACTIONS = {
  async list_tabs(tab) {
    const others = (await otherTabs(tab)).length;
    const summary = tn("askListTabs", others); // the question the user answers: in their language
    return { action: "list_tabs", summary, page_url: tab.url, user_is_on: others === 0 };
  },
  // attached_url: the address the tab showed when the user attached it. Python reads an
  // attached tab without asking only while it shows that site; otherwise the question says so.
  read_tab: (tab, args) => aboutAnotherTab(tab, "read_tab", args, ["askReadTab", "askReadMovedTab", "askReadLeftTab"]),
  // A screenshot of another tab is asked like reading it (the user's own tab is not asked); a tab
  // the browser cannot picture (not in front in its window) is refused before anyone is asked.
  async screenshot(tab, args) {
    const plan = await aboutAnotherTab(tab, "screenshot", args, ["askScreenshotTab", "askScreenshotTab", "askScreenshotLeftTab"]);
    const other = await tabById(plan.tab_id);
    if (!other.active) throw notShown(other);
    return plan;
  },
  navigate(tab, { url }) {
    const target = destination(tab, url);
    return { action: "navigate", summary: t("askNavigate", target, pageName(tab)), page_url: tab.url, url: target };
  },
  open_tab(tab, { url }) {
    const target = destination(tab, url);
    return { action: "open_tab", summary: t("askOpenTab", target), page_url: tab.url, url: target };
  },
  go_back(tab) {
    return { action: "go_back", summary: t("askGoBack", pageName(tab)), page_url: tab.url };
  },
  go_forward(tab) {
    return { action: "go_forward", summary: t("askGoForward", pageName(tab)), page_url: tab.url };
  },
};

const withNote = (note) => (note ? { note } : {});

async function afterLoad(tabId, loading) {
  await loading;
  const tab = await chrome.tabs.get(tabId);
  return { tab_id: tab.id, url: tab.url || tab.pendingUrl, title: tab.title, still_loading: tab.status === "loading" };
}

export const TAB_TOOLS = {
  async list_tabs(tab) {
    const tabs = (await chrome.tabs.query({ windowId: tab.windowId })).filter((other) => !other.url?.startsWith(OWN_PAGES));
    const unreadable = await Promise.all(tabs.map(whyUnreadable));
    return {
      tabs: tabs.map((other, i) => ({
        tab_id: other.id,
        title: other.title,
        url: other.url,
        user_is_on: other.id === tab.id,
        ...(unreadable[i] && { readable: false }),
      })),
    };
  },
  // stay_on: the site an earlier allowance covers, when the user was not asked now: the tab
  // goes there and nowhere else (stay-on-site.js).
  async navigate(tab, { url, stay_on: stayOn }) {
    const target = destination(tab, url);
    const loading = waitForLoad(tab.id, NAVIGATION_WAIT_MS, { next: true });
    const result = await keptOn(stayOn, tab.id, () => chrome.tabs.update(tab.id, { url: target }), () => afterLoad(tab.id, loading));
    // asked_for: the address the user allowed; the tab may have been sent on from it since.
    return { action: "navigate", asked_for: target, ...result, ...withNote(stoppedNote(stayOn, { url: result.url, before: tab.url, target })) };
  },
  async open_tab(tab, { url, stay_on: stayOn }) {
    const target = destination(tab, url);
    // Opened empty, then sent, so that a tab kept on a site is kept from its first request.
    const opened = await chrome.tabs.create({ url: stayOn ? "about:blank" : target, active: false, windowId: tab.windowId, index: tab.index + 1, openerTabId: tab.id });
    if (stayOn) await waitForLoad(opened.id, NAVIGATION_WAIT_MS);
    // Kept on a site, the tab's guard lasts until the target's load, never an about:blank's.
    const loading = waitForLoad(opened.id, NAVIGATION_WAIT_MS, stayOn ? { next: true, leaving: "about:blank" } : {});
    const go = () => (stayOn ? chrome.tabs.update(opened.id, { url: target }) : Promise.resolve());
    const result = await keptOn(stayOn, opened.id, go, () => afterLoad(opened.id, loading));
    const note = `Work in it with switch_tab(tab_id=${opened.id}) (then switch_tab() comes back to the tab the user is on), or read it with read_tab(tab_id=${opened.id}).`;
    const stopped = stoppedNote(stayOn, { url: result.url, before: stayOn ? "about:blank" : null, target });
    return { action: "open_tab", asked_for: target, ...result, note: [stopped, note].filter(Boolean).join(" ") };
  },
  go_back: (tab) => throughHistory(tab, "go_back", () => chrome.tabs.goBack(tab.id)),
  go_forward: (tab) => throughHistory(tab, "go_forward", () => chrome.tabs.goForward(tab.id)),
};

// Back and forward: the browser's own, so a page kept in its back-forward cache comes back as
// it was left. Chrome says when there is nowhere to go.
async function throughHistory(tab, action, go) {
  try {
    await go();
  } catch (error) {
    throw new PageUnavailable(`Nothing was done: ${action === "go_back" ? "there is no page before this one" : "there is no page after this one"} in the tab's history (${error.message}).`);
  }
  return { action, ...(await afterLoad(tab.id, waitForLoad(tab.id, NAVIGATION_WAIT_MS))) };
}
