// Makes sure the one offscreen document (the agent's Python) exists, and talks to it. The service worker
// can be stopped at any time, so this asks Chrome rather than remembering, and shares
// one creation between callers that arrive while it is under way.

import { Target } from "../shared/messages.js";

const OFFSCREEN_PATH = "extension/offscreen/offscreen.html";
let creating = null;

export async function offscreenDocumentExists() {
  const url = chrome.runtime.getURL(OFFSCREEN_PATH);
  const contexts = await chrome.runtime.getContexts({
    contextTypes: ["OFFSCREEN_DOCUMENT"],
    documentUrls: [url],
  });
  return contexts.length > 0;
}

export async function ensureOffscreenDocument() {
  if (await offscreenDocumentExists()) return;
  creating ??= chrome.offscreen
    .createDocument({
      url: OFFSCREEN_PATH,
      reasons: ["WORKERS", "IFRAME_SCRIPTING"],
      justification: "Runs the agent's Python (Pyodide) and its sandboxed code runner.",
    })
    .catch(async (error) => {
      // Another caller may have won the race in a previous life of this worker.
      if (!(await offscreenDocumentExists())) throw error;
    })
    .finally(() => {
      creating = null;
    });
  await creating;
}

export async function askOffscreen(message) {
  await ensureOffscreenDocument();
  const reply = await chrome.runtime.sendMessage({ ...message, target: Target.offscreen });
  if (!reply) throw new Error("the Python runtime did not answer");
  if (!reply.ok) throw new Error(reply.error);
  return reply.result;
}
