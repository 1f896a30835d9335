// Which downloads the turn's actions started: a download the browser created after a click or a
// key press in a tab began, from a page of the tab's site and by no extension, is that action's. It
// is said to the model (read_download can read it) and kept as that tab's (downloads.js offers it
// to that tab only).
//
// Neither browser's downloads API names the tab a download came from (Chrome's DownloadItem and
// Firefox's have no tab id), so the time of the action in that tab is what ties the two: both
// give each download its start time, address and referrer.
//
// An action's reply does not wait for a download: most clicks start none, and one that does may
// appear only when the server answers, seconds later. So the turn keeps watching: an action gives
// a watch ({ tab_id, site, since }), which the turn's page bridge (offscreen/python/page-bridge.js)
// sends back with each later call of the turn; each call claims the downloads its watches caused
// since and says them: `downloads` (its own action's), `late_downloads` (an earlier action's,
// which appeared after that action's reply). Before the turn's answer is taken, one last call
// (DOWNLOADS.unnamed_call) waits for the watched tabs to settle (a link whose server is still
// answering keeps its tab loading) and claims what came since, so that the model is told of it.

import { DOWNLOADS } from "../shared/wire.js";
import { settled, siteOf, tabById } from "./page-access.js";

// The actions that can start a download (a link or a button clicked, Enter pressed on one).
export const STARTS_DOWNLOADS = new Set(DOWNLOADS.started_by);
// A call that reads a download (read_download, or the question before it): the turn's watches
// claim theirs first, so that none is offered as a page's own (to any tab of its site) while it
// is an action's.
const readsDownloads = ({ name, args }) => name === "read_download" || (name === "describe_action" && args?.name === "read_download");
// An action that may start a download and ran: on its own, or done by the question that described
// it (describe_action's act_on, content/actions.js), which says it `acted`.
const startsDownloads = ({ name, args }, reply) => reply?.ok === true && (STARTS_DOWNLOADS.has(name)
  || (name === "describe_action" && STARTS_DOWNLOADS.has(args?.name) && reply.result?.acted === true));
// The turn's last call, before its answer is taken: it claims what the watches caused, after waiting.
const isLastCall = ({ name }) => name === DOWNLOADS.unnamed_call;
// downloadId -> tabId, in session storage: a service worker stopped between the action and
// read_download must still know whose it is.
const STARTED_BY = "actionDownloads";
// The watches a call takes from its turn at most (the bridge keeps the latest per tab and site).
const WATCHES_TAKEN = 20;
// Chrome names a download a moment after creating it: the name is awaited this long, only for a
// download there is.
const NAMED_WITHIN_MS = 1000;

// The page a download came from: a blob's own origin (the page that made it), else its referrer.
export const pageSiteOf = (item) => (item.url.startsWith("blob:") ? siteOf(item.url.slice(5)) : siteOf(item.referrer ?? ""));
export const lastPart = (path) => String(path ?? "").split(/[\\/]/).pop();

export async function startedBy() {
  return (await chrome.storage.session.get(STARTED_BY))[STARTED_BY] ?? {};
}

// The file's name as the browser saves it, else its address's.
function nameOf(item) {
  const named = lastPart(item.filename);
  if (named) return named;
  try {
    return lastPart(new URL(item.finalUrl || item.url).pathname);
  } catch {
    return "";
  }
}

// A watch as the page bridge sent it back, or null.
function watchOf(value) {
  const { tab_id: tabId, site, since } = value ?? {};
  return Number.isInteger(tabId) && typeof site === "string" && site && Number.isFinite(since) ? { tab_id: tabId, site, since } : null;
}

// The watch a download is of: the latest action begun before the download started, in a tab of
// the site of its page (of two begun in the same millisecond, the later given: the call's own
// comes last); none for an extension's download.
function whoseWatch(item, watches) {
  if (item.byExtensionId) return null;
  const started = Date.parse(item.startTime);
  const site = pageSiteOf(item);
  let found = null;
  for (const watch of watches) {
    if (watch.site === site && watch.since <= started && (!found || watch.since >= found.since)) found = watch;
  }
  return found;
}

// Claims are read, changed and written one call at a time: two calls at once never claim one twice.
let claiming = Promise.resolve();

// The downloads the watches caused that nobody has claimed yet, each with its watch, now the tab's.
function claim(watches) {
  if (!watches.length) return Promise.resolve([]);
  const from = Math.min(...watches.map((watch) => watch.since));
  const claimed = claiming.then(async () => {
    const items = await chrome.downloads.search({ startedAfter: new Date(from - 1).toISOString() });
    const kept = await startedBy();
    const fresh = items.filter((item) => kept[item.id] === undefined)
      .map((item) => ({ item, watch: whoseWatch(item, watches) })).filter(({ watch }) => watch);
    for (const { item, watch } of fresh) kept[item.id] = watch.tab_id;
    if (fresh.length) await chrome.storage.session.set({ [STARTED_BY]: kept });
    return fresh;
  });
  claiming = claimed.catch(() => []);
  return claimed;
}

async function named(items) {
  const until = Date.now() + NAMED_WITHIN_MS;
  let now = items;
  while (now.some((item) => !item.filename) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    now = await Promise.all(now.map(async (item) => (await chrome.downloads.search({ id: item.id }))[0] ?? item));
  }
  return now;
}

async function told(claimed) {
  const items = await named(claimed.map(({ item }) => item));
  return items.map((item, i) => ({ download_id: item.id, file_name: nameOf(item), mime: item.mime || "",
    size: item.fileSize > 0 ? item.fileSize : item.totalBytes, tab_id: claimed[i].watch.tab_id, site: claimed[i].watch.site,
    ...(item.state === "in_progress" ? { in_progress: true } : {}) }));
}

// Before the turn's last claim: each watched tab settled (a download link whose server has not
// answered yet keeps its tab loading, up to page-access.js's bound), and DOWNLOADS.end_grace_ms
// gone since the latest action began (a file the page makes appears a moment after the click).
async function lastWatchesSettled(watches) {
  const tabs = [...new Set(watches.map((watch) => watch.tab_id))];
  await Promise.all(tabs.map((id) => tabById(id).then((tab) => settled(tab)).catch(() => null))); // a closed tab: none to wait for
  const wait = Math.max(...watches.map((watch) => watch.since)) + DOWNLOADS.end_grace_ms - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

// Runs `act` (the relay of a page tool `call`, { name, args }, in `tab`) for a turn whose earlier actions gave the
// watches `watching`. Its reply gains the downloads claimed: `downloads` [{file_name, mime, size,
// tab_id, site}] this action started, `late_downloads` the earlier actions did; and an action that
// may start one gives its `watch`, whether or not one came yet.
export async function withDownloads(tab, call, watching, act) {
  const watches = (Array.isArray(watching) ? watching : []).slice(-WATCHES_TAKEN).map(watchOf).filter(Boolean);
  // (What a read claims first is what it reads: its answer names it.)
  if (readsDownloads(call)) await claim(watches);
  if (isLastCall(call) && watches.length) await lastWatchesSettled(watches);
  const began = Date.now();
  const reply = await act();
  const site = siteOf(tab.url);
  const watch = startsDownloads(call, reply) && site ? { tab_id: tab.id, site, since: began } : null;
  const claimed = await claim(watch ? [...watches, watch] : watches);
  if (!claimed.length) return watch ? { ...reply, watch } : reply;
  const all = await told(claimed);
  const own = all.filter((_, i) => claimed[i].watch === watch);
  const late = all.filter((_, i) => claimed[i].watch !== watch);
  return { ...reply, ...(watch ? { watch } : {}), ...(own.length ? { downloads: own } : {}), ...(late.length ? { late_downloads: late } : {}) };
}
