// Makes sure the one offscreen document (the agent's Python) exists when it is needed, talks
// to it, and closes it when it has been idle. The service worker can be stopped at any time,
// so this asks Chrome rather than remembering, shares one creation between callers that
// arrive while it is under way, and never closes the document while a message to it is on
// its way: a message asked for during a close waits for it, then starts Python again.

import { Target, MessageType } from "../shared/protocol/messages.js";
import { loadSettings } from "../shared/settings/settings.js";
import { closePythonPage, createPythonPage, pythonPageExists } from "../platform/chrome/python-page.js";

let creating = null;
let closing = null;
let markListening = null; // resolves when a new document's handlers are in place: only then may it be asked
let asking = 0; // messages to the offscreen document not yet answered

export const offscreenDocumentExists = pythonPageExists;

export async function ensureOffscreenDocument() {
  while (closing) await closing;
  if (creating) return creating; // it exists already, but may not be listening yet
  if (await offscreenDocumentExists()) return;
  creating ??= create();
  await creating;
}

// When this worker started and its module ran, and when the last creation was asked for, loaded
// and listened (Unix ms): the ping's answer carries them, for the start-up profile
// (bench/profile_start.py, bench/bench_boot.py).
export const creationTimes = { serviceWorkerStarted: Math.round(performance.timeOrigin) };

function create() {
  creationTimes.createAsked = Date.now();
  const listening = new Promise((resolve) => (markListening = resolve));
  return createPythonPage()
    // createDocument resolves once the page has loaded, which can be before its module has run.
    // (A worker stopped meanwhile never hears it: then wait no more than a few seconds.)
    .then(() => (creationTimes.documentLoaded = Date.now()))
    .then(() => Promise.race([listening, new Promise((resolve) => setTimeout(resolve, 5_000))]))
    .then(() => (creationTimes.documentListening = Date.now()))
    .catch(async (error) => {
      // Another caller may have won the race in a previous life of this worker.
      if (!(await offscreenDocumentExists())) throw error;
    })
    .finally(() => {
      creating = null;
    });
}

// The new document says its handlers are in place.
export function offscreenListening() {
  markListening?.();
  return {};
}

// Every message carries the idle-close setting, so the document always counts with the
// user's current choice.
export async function askOffscreen(message) {
  asking += 1;
  try {
    const [{ settings }] = await Promise.all([loadSettings(), ensureOffscreenDocument()]);
    const reply = await chrome.runtime.sendMessage({ ...message, target: Target.offscreen, idle_close_minutes: settings.idle_close_minutes });
    if (!reply) throw new Error("the Python runtime did not answer");
    if (!reply.ok) throw new Error(reply.error);
    return reply.result;
  } finally {
    asking -= 1;
  }
}

// What only a running Python page knows (a download under way, a model loaded), asked without
// starting it: null when it is not running, so a settings page that opens starts no Python.
export async function askOffscreenIfRunning(message) {
  while (closing) await closing;
  if (!creating && !(await offscreenDocumentExists())) return null;
  return askOffscreen(message);
}

// A new idle-close setting reaches a running offscreen document at once (none: nothing to do).
export async function tellOffscreenIdleClose(minutes) {
  if (closing || !(await offscreenDocumentExists())) return;
  await chrome.runtime.sendMessage({ target: Target.offscreen, type: MessageType.idleCloseChanged, idle_close_minutes: minutes }).catch(() => {});
}

// The offscreen document says it has been idle: close it, unless something is asking it
// something meanwhile or it is no longer idle by the time we ask.
export async function closeIdleOffscreenDocument() {
  if (closing || creating || asking > 0) return { closed: false };
  let closed = false;
  closing = (async () => {
    const reply = await chrome.runtime.sendMessage({ target: Target.offscreen, type: MessageType.idleCheck }).catch(() => null);
    if (!reply?.ok || !reply.result.idle) return;
    await closePythonPage();
    closed = true;
  })()
    .catch((error) => console.warn("TabAgent: could not close the idle offscreen document:", error.message))
    .finally(() => {
      closing = null;
    });
  await closing;
  return { closed };
}
