// Which downloads an action started: a click or a key press in a tab is watched from just before
// it until a moment after it, and a download the browser created in that time, from a page of
// the tab's site and by no extension, is said in the action's result (the model then knows
// read_download can read it) and kept as that tab's (downloads.js offers it to that tab only).
//
// Neither browser's downloads API names the tab a download came from (Chrome's DownloadItem and
// Firefox's have no tab id), so the time of the action in that tab is what ties the two: both
// fire downloads.onCreated as the download starts, with its address and referrer.

import { siteOf } from "./page-access.js";

// The actions that can start a download (a link or a button clicked, Enter pressed on one).
export const STARTS_DOWNLOADS = new Set(["click", "click_at", "double_click", "press_key"]);
// How long after an action's reply a download it started may take to appear: the browser creates
// it once the server's answer arrives (a file sent with Content-Disposition), or at once (a
// `download` link, a blob the page made).
const AFTER_MS = 500;
// downloadId -> tabId, in session storage: a service worker stopped between the action and
// read_download must still know whose it is.
const STARTED_BY = "actionDownloads";

// The page a download came from: a blob's own origin (the page that made it), else its referrer.
export const pageSiteOf = (item) => (item.url.startsWith("blob:") ? siteOf(item.url.slice(5)) : siteOf(item.referrer ?? ""));
export const lastPart = (path) => String(path ?? "").split(/[\\/]/).pop();

export async function startedBy() {
  return (await chrome.storage.session.get(STARTED_BY))[STARTED_BY] ?? {};
}

// The file's name as the browser saves it (Chrome names it a moment after onCreated), else its address's.
function nameOf(item) {
  const named = lastPart(item.filename);
  if (named) return named;
  try {
    return lastPart(new URL(item.finalUrl || item.url).pathname);
  } catch {
    return "";
  }
}

// Runs `act` (the action's relay) while watching; its reply gains `downloads`: [{file_name, mime, size}].
export async function watchingDownloads(tab, act) {
  const heard = [];
  const listen = (item) => heard.push(item);
  const site = siteOf(tab.url);
  chrome.downloads.onCreated.addListener(listen);
  let reply;
  try {
    reply = await act();
    if (reply?.ok) await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
  } finally {
    chrome.downloads.onCreated.removeListener(listen);
  }
  const ours = heard.filter((item) => !item.byExtensionId && site && pageSiteOf(item) === site);
  if (!reply?.ok || !ours.length) return reply;
  const kept = await startedBy();
  for (const item of ours) kept[item.id] = tab.id;
  await chrome.storage.session.set({ [STARTED_BY]: kept });
  const now = await Promise.all(ours.map(async (item) => (await chrome.downloads.search({ id: item.id }))[0] ?? item));
  return { ...reply, downloads: now.map((item) => ({ file_name: nameOf(item), mime: item.mime || "",
    size: item.fileSize > 0 ? item.fileSize : item.totalBytes })) };
}
