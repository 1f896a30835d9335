// read_download's part in the service worker (py/tabagent/app/downloads.py): which file the
// tab downloaded during the turn, and its bytes.
//
// Neither browser lets an extension read a downloaded file: chrome.downloads and
// browser.downloads say what was downloaded (its address, the page it came from, its name,
// type, size, when it started), not what is in it, and a file on disk is out of reach (Firefox
// gives extensions no file: access; Chrome only when the user ticks "Allow access to file
// URLs"). So the download is found in the browser's list (downloads.search, which keeps it
// across a stopped service worker, unlike an onCreated listener) and its bytes are fetched again:
// - http(s): from its address, as pdf-download.js fetches a PDF tab: no redirect followed, and
//   the user's cookies only when the file is on the tab's own site (a cross-site request carries
//   none here; docs/security.md);
// - blob: from inside the tab, which made it (the page's own object, while it keeps it), by the
//   content scripts, whose world the page cannot change;
// - data: from the address itself.
// Only a download that started since the turn began (`since`), that the tab's site started
// (its referrer, or a blob's own origin) and that the browser made for a page (not for an
// extension) is offered; at most DOWNLOADS.max_mb of it is read. The APIs name no tab, so the
// site is the fence for a download the page started on its own; one an action of TabAgent's
// started is known by the action's tab (action-downloads.js): offered to that tab first, and
// never to another tab of the same site.

import { PageUnavailable, siteOf } from "./page-access.js";
import { lastPart, pageSiteOf, startedBy } from "./action-downloads.js";
import { DOWNLOADS } from "../shared/wire.js";

const MAX_BYTES = DOWNLOADS.max_mb * 1024 * 1024;

const NONE = "No file was downloaded by this tab's page during this turn (downloads from before the turn, or from " +
  "other tabs' sites, are not offered). Make the page download it first (click its download link), then read_download.";
const REDIRECTED = "The site answered TabAgent's request for this download with a redirect instead of the file, so " +
  "TabAgent did not follow it: it reads only what the page downloaded.";
const REVOKED = "The page no longer holds this file (it made it in the tab and has let it go), so TabAgent cannot read it " +
  "again; the user can open it from the browser's downloads.";

const addressOf = (item) => item.finalUrl || item.url;

async function downloadsOfTheTurn(tab, since) {
  const from = Number(since);
  if (!Number.isFinite(from)) throw new PageUnavailable("read_download needs the turn's start.");
  const items = await chrome.downloads.search({ startedAfter: new Date(from - 1).toISOString(), orderBy: ["-startTime"] });
  const site = siteOf(tab.url);
  const whose = await startedBy();
  const mine = (item) => whose[item.id] === tab.id;
  const offered = items.filter((item) => Date.parse(item.startTime) >= from && !item.byExtensionId && site
    && pageSiteOf(item) === site && (whose[item.id] === undefined || mine(item)));
  return [...offered.filter(mine), ...offered.filter((item) => !mine(item))];
}

function chosen(items, name) {
  if (!name) return items[0];
  const wanted = String(name).toLowerCase();
  return items.find((item) => lastPart(item.filename || addressOf(item)).toLowerCase().includes(wanted)) ?? items[0];
}

// The download as the question describes it (wire.js DOWNLOAD); the name is made harmless in Python.
function described(tab, item) {
  const address = addressOf(item);
  const fromSite = /^(blob|data):/.test(address) ? siteOf(tab.url) : siteOf(address);
  return { action: "read_download", download_id: item.id, file_name: lastPart(item.filename) || lastPart(new URL(address).pathname),
    mime: item.mime || "", size: item.fileSize > 0 ? item.fileSize : item.totalBytes, from_site: fromSite,
    site: siteOf(tab.url), tab_id: tab.id, url: tab.url };
}

// A download starts a moment after the click that asked for it: a model that reads it at once
// is given the time it takes to appear in the browser's list.
const APPEARS_WITHIN_MS = 3000;

export async function describeDownload(tab, { since, name } = {}) {
  const until = Date.now() + APPEARS_WITHIN_MS;
  let items = await downloadsOfTheTurn(tab, since);
  while (!items.length && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    items = await downloadsOfTheTurn(tab, since);
  }
  const item = chosen(items, name);
  if (!item) throw new PageUnavailable(NONE);
  return described(tab, item);
}

// At most MAX_BYTES of a body; cut: whether there was more.
async function boundedBytes(body) {
  const reader = body.getReader();
  const chunks = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    chunks.push(chunk.value);
    size += chunk.value.length;
    if (size >= MAX_BYTES) {
      await reader.cancel().catch(() => {});
      return { bytes: joined(chunks, MAX_BYTES), cut: true };
    }
  }
  return { bytes: joined(chunks, size), cut: false };
}

function joined(chunks, size) {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, size - at);
    bytes.set(part, at);
    at += part.length;
    if (at >= size) break;
  }
  return bytes;
}

async function fromTheSite(tab, address) {
  const own = siteOf(address) === siteOf(tab.url);
  let response;
  try {
    response = await fetch(address, { credentials: own ? "include" : "omit", redirect: "manual" });
  } catch (error) {
    throw new PageUnavailable(`TabAgent could not fetch this download again: ${error.message}.`);
  }
  if (response.type === "opaqueredirect") throw new PageUnavailable(REDIRECTED);
  if (!response.ok) throw new PageUnavailable(`TabAgent could not fetch this download again: the server answered ${response.status}.`);
  return response.body ? boundedBytes(response.body) : { bytes: new Uint8Array(0), cut: false };
}

// Runs in the tab, in the content scripts' world (not the page's: a fetch, Blob or FileReader the
// page redefined in its own world is not what runs here): the page's own blob, at most `max`
// bytes, as base64. The bytes are made base64 by a FileReader, not copied out by hand: Firefox's
// content scripts may fetch the page's blob, but refused that copy ('Permission denied to access
// property "constructor"').
async function blobInPage(address, max) {
  try {
    const blob = await (await fetch(address)).blob();
    const read = await new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob.slice(0, max, "application/octet-stream"));
    });
    return { base64: read.slice(read.indexOf(",") + 1), cut: blob.size > max };
  } catch {
    return null;
  }
}

// Base64 of at most MAX_BYTES: what comes back from the tab is held to it here too, and taken as
// bytes only (which download, and whose, is decided here).
const MAX_BASE64 = Math.ceil(MAX_BYTES / 3) * 4;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

async function fromThePage(tab, address) {
  const [frame] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: blobInPage, args: [address, MAX_BYTES] });
  const { base64, cut } = frame?.result ?? {};
  if (typeof base64 !== "string" || !BASE64.test(base64.slice(0, MAX_BASE64))) throw new PageUnavailable(REVOKED);
  return { base64: base64.slice(0, MAX_BASE64), cut: cut === true || base64.length > MAX_BASE64 };
}

function base64Of(bytes) {
  let text = "";
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(text);
}

// The download's bytes for the offscreen document to read (downloaded-file.js), as base64:
// the message to it is JSON.
export async function fetchDownload(tab, { since, download_id: id } = {}) {
  const item = (await downloadsOfTheTurn(tab, since)).find((one) => one.id === id);
  if (!item) throw new PageUnavailable(NONE);
  const address = addressOf(item);
  const about = described(tab, item);
  if (address.startsWith("blob:")) return { ...about, ...(await fromThePage(tab, address)) };
  if (!/^(https?|data):/.test(address)) throw new PageUnavailable("TabAgent reads downloads made from web addresses only.");
  const { bytes, cut } = await fromTheSite(tab, address);
  return { ...about, base64: base64Of(bytes), cut };
}
