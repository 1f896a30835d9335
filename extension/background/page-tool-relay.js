// Runs a page tool for the agent's Python: in the tab through the content scripts of
// extension/content/ (injected once per document), or here with chrome.tabs for what is
// about tabs rather than a page (tab-tools.js).
//
// runPageTool answers { ok: true, result, tab_id, url, title } or { ok: false, error, from_page?, no_such_part? }
// (wire.js PAGE_TOOL_REPLY), where error is a sentence for the model and the user (a page we may not read is
// not a failure) and no_such_part a part out of range in numbers (part-out-of-range.js); for
// the offscreen document (pdfHere), a PDF tab is { ok: true, pdf: { url, name, args } }: it
// reads the PDF itself rather than being asked to by a second message from here.

import { FIRST_IN_EVERY_PAGE } from "../platform/chrome/first-in-pages.js";
import { keptOutInWords, refusedByPdfViewer } from "../platform/chrome/pdf-viewer.js";
import { MessageType } from "../shared/protocol/messages.js";
import { DOWNLOADS, PAGE_TOOL_DEFAULTS } from "../shared/wire.js";
import { askOffscreen } from "./offscreen-document.js";
import { PageUnavailable, agentTab, settled, tabById, whyUnreadable } from "./page-access.js";
import { takeScreenshot } from "./screenshot.js";
import { TAB_ACTIONS, TAB_TOOLS } from "./tab-tools.js";
import { describeDownload, fetchDownload } from "./downloads.js";
import { withDownloads } from "./action-downloads.js";
import { OPEN_OWN_TAB, openOwnTabFor } from "./own-tab.js";
import { REAL_INPUT, withRealInput } from "./real-input-actions.js";
import { partOutOfRange } from "./part-out-of-range.js";

// The content scripts of extension/content/, bundled by scripts/build.py into one file from
// their entry module (content/injected.js); the browser's own file goes first.
const CONTENT_SCRIPTS = "extension/vendor/injected.js";
const FILES_TO_INJECT = [...FIRST_IN_EVERY_PAGE, CONTENT_SCRIPTS];

// Runs in the tab, in the content scripts' isolated world. The tool runs only in a document that
// has TabAgent's tools and is parsed, and that is no PDF; else the answer is { not_ready: what the
// document is }, and the service worker injects the tools or says why not (toolsThen). Asked in the
// same call as the tool: a probe of its own was a round trip to the tab more for every call.
// locatorsAfter: the highest locator number given in any page so far (see locators.js).
// realInput: the actions that have a gesture answer it, for the service worker to give (real-input-actions.js).
function runInPage(name, args, planId, locatorsAfter, realInput) {
  const found = { ready: typeof globalThis.TabAgentPage?.run === "function", state: document.readyState, type: document.contentType };
  if (!found.ready || found.state === "loading" || found.type === "application/pdf") return { not_ready: found };
  const page = globalThis.TabAgentPage;
  page.locators.continueAfter(locatorsAfter);
  const withLastLocator = (reply) => ({ ...reply, last_locator: page.locators.lastGiven() });
  const reply = page.run(name, args, { planId, realInput });
  return reply instanceof Promise ? reply.then(withLastLocator) : withLastLocator(reply);
}

// Kept in session storage: a service worker that was stopped between two steps of a turn
// must not start numbering again from 1.
const LAST_LOCATOR = "lastLocator";

// Read once in the service worker's life: after that, only this worker writes it, and it raises
// highestGiven first, so the number in memory is never below the stored one (a read per call was
// a round trip to storage more for each of an action's four calls to the tab).
let stored = null;
function lastLocator() {
  stored ??= chrome.storage.session.get(LAST_LOCATOR).then((kept) => kept[LAST_LOCATOR] ?? 0, (error) => {
    stored = null;
    throw error;
  });
  return stored;
}

// Two turns acting in two tabs at once must never give the same locators to elements of both
// tabs, and neither may wait for the other (a wait_for takes up to 20 s). So a call that
// starts while others run numbers from a block of its own, above theirs: CONCURRENT_BLOCK
// more than any locators one call gives. The floor is taken with no await between reading
// and claiming it. What calls gave is also kept here at once, before storage has it. A
// service worker that was stopped had no call running, and storage keeps the number.
const CONCURRENT_BLOCK = 10_000;
const floorsInFlight = new Set();
let highestGiven = 0;

function claimFloor(stored) {
  const above = [...floorsInFlight].map((floor) => floor + CONCURRENT_BLOCK);
  const floor = Math.max(stored, highestGiven, ...above);
  floorsInFlight.add(floor);
  return floor;
}

async function runWithLocators(tab, name, toolArgs, planId) {
  const floor = claimFloor(await lastLocator());
  try {
    const reply = await execute(tab, { func: runInPage, args: [name, toolArgs, planId, floor, REAL_INPUT] }, allowedFor(name));
    if (!reply) return null;
    const { last_locator: last, ...rest } = reply;
    if (last > highestGiven) {
      highestGiven = last;
      await chrome.storage.session.set({ [LAST_LOCATOR]: last });
    }
    return rest;
  } finally {
    floorsInFlight.delete(floor);
  }
}

// Injected at once, not when the document is idle (executeScript's default): a page still
// loading must be seen as such, and a parsed page waiting on slow images need not be waited for.
async function execute(tab, injection, allowMs = PAGE_SILENT_MS) {
  let timer;
  const silence = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new PageUnavailable(silentPage(tab, allowMs))), allowMs);
  });
  try {
    const injected = chrome.scripting.executeScript({ target: { tabId: tab.id }, injectImmediately: true, ...injection });
    const [frame] = await Promise.race([injected, silence]);
    return frame?.result;
  } catch (error) {
    if (error instanceof PageUnavailable) throw error;
    // The browser's reasons ("Cannot access contents of the page...", "showing error page").
    const why = /error page/i.test(error.message) ? "it shows an error page (the address could not be loaded)" : error.message;
    throw new PageUnavailable(`TabAgent could not get into ${tab.url || "this tab"}: ${why}`);
  } finally {
    clearTimeout(timer);
  }
}

// A page whose own script never yields (a loop, a long synchronous task) cannot run
// TabAgent's either, and executeScript would never answer: past this bound the turn goes on
// with a sentence instead of waiting for good. It is far above what a tool takes on a large
// page; wait_for is given the longest wait it takes on top (wire.py PAGE_TOOL_DEFAULTS).
const PAGE_SILENT_MS = 15_000;
const LONGEST_WAIT_MS = PAGE_TOOL_DEFAULTS.wait_for.longest_ms;

const allowedFor = (name) => PAGE_SILENT_MS + (name === "wait_for" ? LONGEST_WAIT_MS : 0);

function silentPage(tab, allowMs) {
  return `The page in this tab (${tab.url}) did not answer for ${allowMs / 1000} s: its own scripts are keeping it busy, `
    + "so TabAgent stopped waiting. If this was an action, it may or may not have happened: look at the page before trying "
    + "it again, or reload the page.";
}

const PDF = "pdf";

// The tool run in the tab (runWithLocators), the content scripts injected first where they are
// not there yet. PDF for a tab showing a PDF, which content scripts cannot read (the browser's PDF
// viewer keeps them out).
async function runWithTools(tab, name, toolArgs, planId) {
  const reply = await runWithLocators(tab, name, toolArgs, planId).catch((error) => notLetIn(tab, error));
  const found = reply?.not_ready;
  if (!found) return reply; // (null: the page went away while the tool ran)
  if (found.type === "application/pdf") return PDF;
  if (found.state === "loading") {
    throw new PageUnavailable(`The page in this tab (${tab.url}) is still loading; try again in a moment.`);
  }
  await execute(tab, { files: FILES_TO_INJECT });
  return runWithLocators(tab, name, toolArgs, planId);
}

// A tab that refused the call: the browser's PDF viewer, or a page TabAgent may not read, in words.
async function notLetIn(tab, error) {
  if (await refusedByPdfViewer(tab)) return { not_ready: { type: "application/pdf" } };
  const why = await keptOutInWords(tab);
  throw why ? new PageUnavailable(why) : error;
}

const withoutFragment = (url) => (url ?? "").replace(/#.*$/, "");

// pdfHere: the caller reads a PDF itself (the offscreen document, whose pdf.js it is), so a
// PDF tab is answered with what to read ({ pdf: { url, name, args } }) rather than asked of it.
async function run(tab, name, args, pdfHere = false) {
  if (Object.hasOwn(TAB_TOOLS, name)) return { ok: true, result: await TAB_TOOLS[name](tab, args) };
  // The turn's last claim of its downloads (action-downloads.js): nothing is run in the tab.
  if (name === DOWNLOADS.unnamed_call) return { ok: true, result: {} };
  if (name === "describe_action" && Object.hasOwn(TAB_ACTIONS, args?.name)) {
    return { ok: true, result: await TAB_ACTIONS[args.name](tab, args.args ?? {}) };
  }
  // A file the tab downloaded in the turn: its bytes, which the offscreen document reads (downloaded-file.js).
  if (name === "describe_action" && args?.name === "read_download") return { ok: true, result: await describeDownload(tab, args.args) };
  if (name === "read_download") return { ok: true, download: await fetchDownload(tab, args) };
  // (A PDF tab answers the layout with what to read: it is pictured whole, and never downloaded for it.)
  if (name === "screenshot") return takeScreenshot(tab, args, (tool, toolArgs) => run(tab, tool, toolArgs, true));
  const refused = await whyUnreadable(tab);
  if (refused) throw new PageUnavailable(refused);
  // plan_id: the action the user confirmed, as describe_action held it in the page.
  const { plan_id: planId = null, ...toolArgs } = args ?? {};
  const first = await runWithTools(tab, name, toolArgs, planId);
  if (first === PDF) {
    // The offscreen document downloads the PDF and reads it with pdf.js (offscreen/pdf/pdf-reader.js).
    const pdf = { url: tab.url, name: name === "describe_action" ? toolArgs?.name : name, args: toolArgs };
    return pdfHere ? { ok: true, pdf } : askOffscreen({ type: MessageType.pdfTool, ...pdf });
  }
  const inPage = async (tool, toolArgs) => (await runWithLocators(tab, tool, toolArgs, null)) ?? { ok: false, error: "the page went away" };
  const reply = await withRealInput(tab, first ?? { ok: false }, inPage);
  if (!reply.ok && reply.error == null) return { ok: false, error: "The page went away while TabAgent was working on it (it navigated or was closed)." };
  // The content script's sentences quote the page (labels, text): Python marks them as page content.
  return reply.ok ? reply : { ok: false, error: String(reply.error), from_page: true, ...partOutOfRange(reply) };
}

// agent_tab: whose tab the tools work on ({tab_id?, window_id?}: the turn's, see agentTab);
// watching: the watches for downloads the turn's earlier actions gave (action-downloads.js).
export async function runPageTool({ name, args, tab_id: tabId, expect_url: expectUrl, agent_tab: agent, watching }, { pdfHere = false } = {}) {
  try {
    const tab = await settled(tabId != null ? await tabById(tabId) : await agentTab(agent));
    if (name === OPEN_OWN_TAB) return { ok: true, result: await openOwnTabFor(agent, tab, args) }; // a managed agent's
    // An action the user confirmed must happen on the page they saw, or not at all.
    if (expectUrl && withoutFragment(tab.url) !== withoutFragment(expectUrl)) {
      throw new PageUnavailable(`Nothing was done: the tab has left ${expectUrl} since the user confirmed (it now shows ${tab.url}).`);
    }
    // A click or a key press may start a download, now or later in the turn: the replies say which (action-downloads.js).
    const done = await withDownloads(tab, { name, args }, watching, () => run(tab, name, args, pdfHere));
    return { ...done, tab_id: tab.id, url: tab.url, title: tab.title };
  } catch (error) {
    if (error instanceof PageUnavailable) return { ok: false, error: error.message };
    throw error;
  }
}
