// The sandbox page: where the code a model writes runs, behind a unique ("null") origin with
// no extension APIs, no storage, no cookies and a CSP that allows no connection (manifest:
// sandbox.pages and content_security_policy.sandbox; in Firefox, which has no sandbox pages,
// the frame's sandbox attribute and the page's own <meta> CSP). The offscreen document embeds it.
//
// The page itself runs no model code: it starts a worker that does (worker.js), so that code
// which never ends freezes neither this page nor the offscreen document, and relays messages
// between the worker and the parent. It accepts messages only from the window that embeds
// it and the worker it started, and only in the shapes sandbox-protocol.js allows.

import { closeWaysOut } from "./no-way-out.js";
import { FromSandbox, ToSandbox, problemFromSandbox, problemToSandbox } from "../shared/protocol/sandbox-protocol.js";

// The offscreen document's origin: the extension's. Ours is opaque, but our URL says whose.
const PARENT_ORIGIN = new URL(location.href).origin;
const WORKER_URL = new URL("worker.js", import.meta.url).href;

// A sandboxed page may not start a worker from an extension URL (its origin is not the
// extension's), but it may from a blob it made; the blob imports the real worker module and
// keeps the messages that arrive while it loads.
function startWorker() {
  const bootstrap = `
const arrivedWhileLoading = [];
onmessage = (event) => arrivedWhileLoading.push(event.data);
import(${JSON.stringify(WORKER_URL)}).then(
  (worker) => worker.start(arrivedWhileLoading),
  (error) => postMessage({ type: ${JSON.stringify(FromSandbox.bootFailed)}, error: "the sandbox worker did not load: " + error }),
);`;
  const url = URL.createObjectURL(new Blob([bootstrap], { type: "text/javascript" }));
  const worker = new Worker(url, { name: "tabagent-sandbox" });
  URL.revokeObjectURL(url);
  worker.onmessage = ({ data }) => {
    const problem = problemFromSandbox(data);
    if (problem) return console.warn("TabAgent sandbox page: dropped a message from the worker:", problem);
    parent.postMessage(data, PARENT_ORIGIN);
  };
  worker.onerror = (event) => {
    event.preventDefault(); // reported to the parent as a failed boot, not as an uncaught error
    const error = `the sandbox worker failed: ${event.message}`.slice(0, 9_000);
    parent.postMessage({ type: FromSandbox.bootFailed, error }, PARENT_ORIGIN);
  };
  return worker;
}

// Framed without the sandbox attribute (where the manifest makes no sandbox page, Firefox's
// origin is then the extension's, with its APIs and its IndexedDB), this is no sandbox: it
// starts nothing, and says why.
function isWalledIn() {
  if (self.origin === "null") return true;
  parent.postMessage({ type: FromSandbox.bootFailed, error: "the sandbox page was framed without the sandbox attribute" }, PARENT_ORIGIN);
  return false;
}

const worker = isWalledIn() ? startWorker() : null;
// Nothing here needs them, so nothing that gets hold of this page can use them.
closeWaysOut(self);

addEventListener("message", (event) => {
  if (!worker || event.source !== parent || event.origin !== PARENT_ORIGIN) return;
  const problem = problemToSandbox(event.data);
  if (problem) return console.warn("TabAgent sandbox page: dropped a message from the parent:", problem);
  const transfer = event.data.type === ToSandbox.boot ? bootFiles(event.data) : [];
  worker.postMessage(event.data, transfer);
});

function bootFiles({ wasm, stdlib, snapshot, packageZip, wheels }) {
  return [wasm, stdlib, snapshot, packageZip, ...wheels.map((w) => w.bytes)].filter(Boolean);
}
