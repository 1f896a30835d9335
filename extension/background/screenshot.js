// screenshot: the visible part of a tab, as the browser draws it (chrome.tabs.captureVisibleTab,
// which the <all_urls> host permission allows). The browser can only picture the tab shown in
// a window, so another tab is refused in words rather than brought to the front. The content
// script says where the element to crop to and the controls to label are (screenshot-layout.js);
// the offscreen document then crops, labels and sizes the picture for the model on its way to
// Python (shared/pictures/screenshot-canvas.js).
//
// Which tab may be pictured is Python's to decide (page_tools.py: the user's tab, or one they
// allowed or attached); here the tab must still be the one shown when the picture is taken,
// checked before and after, so a switch of tabs in between never hands over another tab.

import { PageUnavailable, agentTab, settled, whyUnreadable } from "./page-access.js";

async function shownTab(windowId) {
  const [shown] = await chrome.tabs.query({ active: true, windowId });
  return shown;
}

export const notShown = (tab) => new PageUnavailable(`No screenshot was taken: ${tab.url} is not the tab shown in ` +
  "its window (the browser can only picture the tab in front). Ask the user to switch to it, then try again.");

async function mustBeShown(tab) {
  const shown = await shownTab(tab.windowId);
  if (shown?.id !== tab.id || shown.url !== tab.url) throw notShown(tab);
  const window = await chrome.windows.get(tab.windowId);
  if (window.state === "minimized") {
    throw new PageUnavailable(`No screenshot was taken: the window of ${tab.url} is minimized, so nothing of it is drawn.`);
  }
}

// Chrome allows two captures a second (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND). Each capture
// takes the next free turn at once, before any await, so calls made together (several
// screenshots in one reply run side by side) queue one gap apart instead of all reading the
// same "last capture" and going at once; one refused anyway (a worker restarted meanwhile)
// takes a later turn and is tried once more.
const CAPTURE_GAP_MS = 550;
let nextTurn = 0;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function takeTurn() {
  const now = Date.now();
  const turn = Math.max(now, nextTurn);
  nextTurn = turn + CAPTURE_GAP_MS;
  return pause(turn - now);
}

async function capture(windowId) {
  await takeTurn();
  try {
    return await chrome.tabs.captureVisibleTab(windowId, { format: "png" });
  } catch (error) {
    if (!/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(error.message)) throw error;
    nextTurn = Math.max(nextTurn, Date.now() + CAPTURE_GAP_MS);
    await takeTurn();
    return chrome.tabs.captureVisibleTab(windowId, { format: "png" });
  }
}

const NO_LAYOUT = "This tab shows no web page whose parts can be pictured (a PDF): take a screenshot of all of it.";

// inPage(name, args): runs a content-script tool in the tab (page-tool-relay.js), {ok, result | error}.
// around: points of the top viewport (CSS pixels) to picture with the page around them, each
// marked: what a click by position or a drag will hit, for the user's question (page_actions.py).
// The layout is always asked for (a page that has none, a PDF, is pictured whole): its viewport
// and scrolling let a point of the picture be found on the page (picture_points.py).
export async function takeScreenshot(tab, { locator = null, labels = false, around = null } = {}, inPage) {
  const refused = await whyUnreadable(tab);
  if (refused) throw new PageUnavailable(refused);
  await mustBeShown(tab);
  const found = inPage ? await inPage("screenshot_layout", { locator, labels }) : { ok: false };
  const laidOut = found.ok && found.result?.viewport;
  if (!laidOut && (locator || labels || around)) return found.ok ? { ok: false, error: NO_LAYOUT } : found;
  const layout = laidOut ? { ...found.result, ...(around && { around }) } : null;
  const picture = await capture(tab.windowId);
  await mustBeShown(tab); // switched away meanwhile: that picture is of a tab no one allowed
  return { ok: true, result: { capture: picture, layout, url: tab.url, title: tab.title } };
}

// The composer's "A screenshot of the tab you are on": the user's own click, so nothing is
// asked; the tab the page tools would work on, pictured only while it is the one in front.
export async function screenshotToAttach(windowId) {
  const tab = await settled(await agentTab({ window_id: windowId }));
  const { result } = await takeScreenshot(tab, {}, null);
  return { capture: result.capture, url: result.url, title: result.title };
}
