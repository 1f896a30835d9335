// The offscreen document: home of the agent's Python. It starts Pyodide once, keeps it,
// and answers messages addressed to it. Only chrome.runtime is available here, so
// storage and tabs go through the service worker.

import { Broadcast, MessageType, Target } from "../shared/messages.js";
import { isServiceWorker } from "../shared/senders.js";
import { answerConfirmation, callTool, pageBridge } from "./page-bridge.js";
import { startPython } from "./python.js";
import { SandboxHost } from "./sandbox-host.js";
import { TurnRunner } from "./turns.js";

const python = startPython();
// Runs the code a CodeAgent writes in a sandboxed page; Python reaches it as
// js.tabagent.sandbox (and tests and the console reach both through globalThis.tabagent).
const sandbox = new SandboxHost();
globalThis.tabagent = { ...globalThis.tabagent, sandbox, python };
const turns = new TurnRunner(python);

python.then(
  ({ info }) => announce({ ready: true, ...info }),
  (error) => announce({ ready: false, error: describe(error) }),
);

function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

function announce(status) {
  chrome.runtime.sendMessage({ type: Broadcast.pythonStatus, status }).catch(() => {
    // Nobody is listening (no panel open): the next ping will ask again.
  });
}

const handlers = {
  async [MessageType.ping]() {
    const { info } = await python;
    return { ready: true, ...info };
  },
  [MessageType.runTurn]: (message) => turns.start(message),
  [MessageType.stopTurn]: (message) => turns.stop(message),
  [MessageType.liveTurns]: async () => ({ turnIds: turns.liveTurnIds() }),
  [MessageType.answerConfirmation]: (message) => answerConfirmation(message),
  [MessageType.callTool]: async (message) => callTool(await turns.api(), message),
  [MessageType.listTools]: async () => JSON.parse((await turns.api()).list_tools_json(pageBridge(null))),
};

// Everything the offscreen document does for others comes through the service worker, which
// checks who asked: a content script addressing this document directly is not answered.
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (message?.target !== Target.offscreen || !isServiceWorker(sender)) return false;
  const handler = Object.hasOwn(handlers, message.type) ? handlers[message.type] : null;
  if (!handler) {
    sendResponse({ ok: false, error: `offscreen: unknown message type ${message.type}` });
    return false;
  }
  handler(message).then(
    (result) => sendResponse({ ok: true, result }),
    (error) => sendResponse({ ok: false, error: describe(error) }),
  );
  return true; // the answer comes asynchronously
});
