// The parent's side of one sandbox: a sandboxed extension page (sandbox.html) embedded in
// the offscreen document, and the worker it starts. A frame boots by being sent every file
// its Pyodide needs (the sandbox may fetch nothing), then takes messages only from its own
// window and only in the shapes sandbox-protocol.js allows. Removing a frame ends its worker, and
// with it whatever code was running there: that is how the host stops code for certain.

import { FromSandbox, ToSandbox, problemFromSandbox } from "../../shared/protocol/sandbox-protocol.js";

const PAGE = new URL("../../sandbox/sandbox.html", import.meta.url).href;
const VENDOR = new URL("../../vendor/", import.meta.url);
const INDEX_URL = new URL("pyodide/", VENDOR).href;
// A frame that sends this many malformed or unexpected messages is given up on.
const MALFORMED_MESSAGE_LIMIT = 100;

const frames = new Map(); // the frame's window -> SandboxFrame
addEventListener("message", (event) => frames.get(event.source)?.receive(event.data));

async function fetchVendor(url, as = "arrayBuffer") {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} is missing from the extension (${response.status}): run make build`);
  return response[as]();
}

// Every file the sandbox's Pyodide starts from, fetched here because the sandbox may fetch
// nothing. Fetched anew per frame (from the extension's own files: milliseconds) so that
// the offscreen document does not hold tens of megabytes between starts.
async function fetchBootFiles() {
  const [build, made, wheelNames] = await Promise.all([
    fetchVendor(new URL("build-info.json", VENDOR), "json"),
    fetchVendor(new URL("python.snapshot.json", VENDOR), "json").catch(() => null),
    fetchVendor(new URL("wheels/wheels.json", VENDOR), "json"),
  ]);
  const snapshotFits = made?.key === `${build.pyodideVersion}/${build.packageHash}`;
  const [wasm, stdlib, lock, snapshot, packageZip, wheels] = await Promise.all([
    fetchVendor(new URL("pyodide.asm.wasm", INDEX_URL)),
    fetchVendor(new URL("python_stdlib.zip", INDEX_URL)),
    fetchVendor(new URL("pyodide-lock.json", INDEX_URL), "json"),
    snapshotFits ? fetchVendor(new URL("python.snapshot", VENDOR)) : null,
    fetchVendor(new URL("tabagent.zip", VENDOR)),
    Promise.all(wheelNames.map(async (name) => ({ name, bytes: await fetchVendor(new URL(`wheels/${name}`, VENDOR)) }))),
  ]);
  const message = { type: ToSandbox.boot, indexURL: INDEX_URL, wasm, stdlib, lock, snapshot, packageZip, wheels };
  return [message, [wasm, stdlib, snapshot, packageZip, ...wheels.map((w) => w.bytes)].filter(Boolean)];
}

class SandboxFrame {
  constructor(container, bootTimeoutMs) {
    this.iframe = document.createElement("iframe");
    // As the manifest says for the page (said twice, kept once); in Firefox, which has no
    // sandbox pages, this alone makes its origin opaque (extension/platform/firefox/code-sandbox.js).
    this.iframe.sandbox.add("allow-scripts");
    this.iframe.referrerPolicy = "no-referrer";
    this.iframe.hidden = true;
    this.iframe.src = PAGE;
    this.listener = null; // { message(m), broken(reason) } of the host using this frame
    this.malformed = 0;
    this.info = null;
    this.broken = null; // why it cannot be used any more
    this.ready = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.ready.catch(() => {}); // a spare may fail unwatched: whoever takes it sees why
    this.bootTimer = setTimeout(() => this.fail(`it did not start within ${bootTimeoutMs / 1000} s`), bootTimeoutMs);
    this.iframe.addEventListener("load", () => this.boot(), { once: true });
    container.append(this.iframe);
    this.window = this.iframe.contentWindow;
    frames.set(this.window, this);
  }

  async boot() {
    try {
      const [message, transfer] = await fetchBootFiles();
      this.post(message, transfer);
    } catch (error) {
      this.fail(error.message);
    }
  }

  post(message, transfer = []) {
    // The sandbox's origin is opaque, so no origin can be named; the window is ours.
    this.window?.postMessage(message, "*", transfer);
  }

  receive(message) {
    const problem = problemFromSandbox(message);
    if (problem) return this.malformedMessage(problem);
    if (message.type === FromSandbox.ready && !this.info) {
      clearTimeout(this.bootTimer);
      this.info = { startupMs: message.startupMs, fromSnapshot: message.fromSnapshot };
      this.settle.resolve(this.info);
    } else if (message.type === FromSandbox.bootFailed) {
      this.fail(message.error);
    } else if (this.info && this.listener) {
      this.listener.message(message);
    } else {
      this.malformedMessage(`unexpected ${message.type}`);
    }
  }

  malformedMessage(problem) {
    console.warn("TabAgent: dropped a message from the sandbox:", problem);
    if (++this.malformed === MALFORMED_MESSAGE_LIMIT) this.fail("it sent too many malformed messages");
  }

  fail(reason) {
    clearTimeout(this.bootTimer);
    this.broken ??= reason;
    this.settle.reject(new Error(`the sandbox failed: ${reason}`));
    this.listener?.broken(reason);
  }

  destroy() {
    clearTimeout(this.bootTimer);
    this.settle.reject(new Error("the sandbox was discarded"));
    frames.delete(this.window);
    this.listener = null;
    this.window = null;
    this.iframe.remove(); // ends the page, and the worker running the code with it
  }
}

// One spare, shared by all hosts, started once the frame before it is ready (so that two
// starts never compete for the processor) and replaced as soon as it is taken.
let spare = null;

export function takeFrame(container, bootTimeoutMs) {
  const frame = spare ?? new SandboxFrame(container, bootTimeoutMs);
  spare = null;
  frame.ready.then(
    () => (spare ??= prepareSpare(container, bootTimeoutMs)),
    () => {}, // it failed: the next take starts another instead of queueing behind a broken one
  );
  return frame;
}

// For tabagentDebug.sandboxStatus (code-sandbox.js): is a spare waiting, and is it ready?
export function spareState() {
  if (!spare) return "none";
  return spare.info ? "ready" : spare.broken ? "broken" : "starting";
}

function prepareSpare(container, bootTimeoutMs) {
  const frame = new SandboxFrame(container, bootTimeoutMs);
  frame.ready.catch(() => {
    if (spare !== frame) return; // taken meanwhile: its host replaces it
    spare = null;
    frame.destroy();
  });
  return frame;
}
