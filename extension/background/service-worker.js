// The service worker: TabAgent's router. It opens the side panel from the toolbar button,
// creates the offscreen document when it is missing and relays messages to it. Chrome may
// stop this worker whenever it is idle, so it keeps nothing that is not in storage.

import { MessageType, Target } from "../shared/messages.js";
import { ensureOffscreenDocument } from "./offscreen-document.js";

chrome.sidePanel
  .setPanelBehavior({ openPanelOnActionClick: true })
  .catch((error) => console.error("TabAgent: cannot set the side panel behaviour:", error));

async function askOffscreen(message) {
  await ensureOffscreenDocument();
  const reply = await chrome.runtime.sendMessage({ ...message, target: Target.offscreen });
  if (!reply) throw new Error("the Python runtime did not answer");
  if (!reply.ok) throw new Error(reply.error);
  return reply.result;
}

const handlers = {
  [MessageType.ping]: (message) => askOffscreen(message),
};

chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
  if (message?.target !== Target.background) return false;
  const handler = handlers[message.type];
  if (!handler) return false;
  handler(message).then(
    (result) => sendResponse({ ok: true, result }),
    (error) => sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
  return true;
});

// Start Python as soon as the browser or the extension starts, so it is warm when the
// user opens the panel.
chrome.runtime.onStartup.addListener(() => ensureOffscreenDocument().catch(console.error));
chrome.runtime.onInstalled.addListener(() => ensureOffscreenDocument().catch(console.error));
