// The sandbox's worker: the Pyodide that runs model-written code, on a thread of its own.
// Code that never ends blocks only this thread; the sandbox page and the offscreen document
// stay responsive, and the parent stops it for certain by removing the sandbox page, which
// ends this worker with it.
//
// The worker cannot fetch anything (the CSP forbids it and the fetch function is removed
// before model code runs): the parent sends every file Pyodide needs in the boot message,
// and a stand-in `fetch` hands them to Pyodide's loader while it starts.

import { PACKAGE_DIR } from "../shared/python/interpreter-setup.js";
import { WAYS_OUT, closeWaysOut } from "./no-way-out.js";
import { FromSandbox, ToSandbox, problemFromSandbox, problemToSandbox } from "../shared/protocol/sandbox-protocol.js";

const WASM_PAGE = 65_536;
// Past the limit the parent is told and stops the sandbox; meanwhile growth is refused
// only well beyond it, so that Emscripten's habit of asking for 20% extra at a time does
// not turn an allocation that fits into a MemoryError.
const HARD_LIMIT_FACTOR = 1.5;

// After a run, the time the tasks it started have to end as they are cancelled (cleaning up
// may take a moment, longer on a loaded machine): what is still there after it ignored the
// run's end. Only leftovers wait for it: a run after one that left nothing starts at once.
const SETTLE_MS = 1000;

const send = self.postMessage.bind(self);
const setTimer = self.setTimeout.bind(self); // ours, whatever model code does to self.setTimeout
const wait = (ms) => new Promise((resolve) => setTimer(resolve, ms));
const timers = trackTimers();
let booting = null; // the boot under way or done: there is only one
let runtime = null; // the Python SandboxRuntime, once booted
let leftovers = null; // how many tasks and callbacks could still run Python (in_sandbox/runtime.py watch_leftovers)
let lastRunQuiet = () => Promise.resolve(true); // the verdict on what the run before left running
let memoryLimit = Infinity;
let memoryReported = false;

// Messages that arrived while this module was loading come first.
export function start(early) {
  self.onmessage = (event) => receive(event.data);
  for (const message of early) receive(message);
}

function receive(message) {
  const problem = problemToSandbox(message);
  if (problem) return console.warn("TabAgent sandbox: dropped a message:", problem);
  try {
    if (message.type === ToSandbox.boot) {
      if (booting) throw new Error("already booted");
      booting = boot(message).catch((error) => send({ type: FromSandbox.bootFailed, error: String(error?.message ?? error).slice(0, 9_000) }));
    } else if (!runtime) {
      throw new Error(`${message.type} before boot`);
    } else if (message.type === ToSandbox.run) {
      startRun(message).catch((error) => console.warn("TabAgent sandbox: refused a run:", error.message ?? error));
    } else if (message.type === ToSandbox.toolResult) {
      runtime.receive(JSON.stringify(message));
    }
  } catch (error) {
    console.warn("TabAgent sandbox: refused a message:", error.message ?? error);
  }
}

// A run starts at once when the run before left nothing running (the usual case: no
// waiting between back-to-back runs); otherwise once that has ended, or never: the parent,
// told the sandbox is not quiet, replaces it and sends the run to the new one.
async function startRun(message) {
  if (!(await lastRunQuiet())) return;
  memoryLimit = message.memory_limit_bytes || Infinity;
  memoryReported = false;
  runtime.start_run(JSON.stringify(message));
}

// Python's messages out: checked like everything else that leaves the sandbox.
function fromPython(text) {
  const message = JSON.parse(text);
  const problem = problemFromSandbox(message);
  if (problem) throw new Error(`the sandbox made a bad message: ${problem}`);
  if (message.type === FromSandbox.result) timers.clear();
  send(message);
  if (message.type === FromSandbox.result) lastRunQuiet = watchLeftovers(message.run_id);
}

// Whatever the run started has been told to end (its tasks cancelled, its timers cleared).
// Code that ignores that would change the next run's variables behind its back or keep this
// thread busy for good, so the parent replaces a sandbox that does not report itself quiet.
// The report goes once per run: when the next run arrives (at once if nothing is left), or
// SETTLE_MS after the run if none comes first, so a busy leftover is ended between runs too.
function watchLeftovers(runId) {
  const deadline = performance.now() + SETTLE_MS;
  let verdict = null;
  const report = () =>
    (verdict ??= untilQuiet(deadline).then((quiet) => {
      send({ type: FromSandbox.settled, run_id: runId, quiet });
      return quiet;
    }));
  setTimer(report, SETTLE_MS);
  return report;
}

async function untilQuiet(deadline) {
  while (leftovers() > 0) {
    if (performance.now() >= deadline) return false;
    await wait(1);
  }
  timers.clear(); // timers that code of the run set in JavaScript after it ended never fire
  return true;
}

// Timers that Python code starts (setTimeout and setInterval, directly through `js` or by
// asyncio's call_later) are cleared when its run ends, and again once the sandbox is quiet
// after it: nothing the run started keeps the sandbox busy after it (Python cancels the
// tasks it started: in_sandbox/runtime.py). Tracked from when the sandbox takes code (Pyodide's
// own start-up timers are left alone); the worker's own waits use the timer saved before.
function trackTimers() {
  const { setTimeout: later, setInterval: every, clearTimeout: clear } = self;
  const pending = new Set();
  let tracking = false;
  self.setTimeout = function setTimeout(callback, ms, ...args) {
    const id = later((...given) => {
      pending.delete(id);
      if (typeof callback === "function") callback(...given);
    }, ms, ...args);
    if (tracking) pending.add(id);
    return id;
  };
  self.setInterval = function setInterval(callback, ms, ...args) {
    const id = every(callback, ms, ...args);
    if (tracking) pending.add(id);
    return id;
  };
  return {
    startTracking() {
      tracking = true;
    },
    clear() {
      for (const id of pending) clear(id); // clears intervals too: one pool of ids
      pending.clear();
    },
  };
}

// Pyodide's heap grows through WebAssembly.Memory.prototype.grow: the one place to watch it.
function guardMemory() {
  const grow = WebAssembly.Memory.prototype.grow;
  Object.defineProperty(WebAssembly.Memory.prototype, "grow", {
    configurable: false,
    writable: false,
    value: function guardedGrow(pages) {
      const bytes = this.buffer.byteLength + pages * WASM_PAGE;
      if (bytes > memoryLimit * HARD_LIMIT_FACTOR) throw new RangeError("over the sandbox's memory limit");
      const previous = grow.call(this, pages);
      if (bytes > memoryLimit && !memoryReported) {
        memoryReported = true;
        send({ type: FromSandbox.memoryExceeded, usedBytes: bytes });
      }
      return previous;
    },
  });
}

// Serves Pyodide's loader the files the parent sent, and nothing else.
function serveFiles(files) {
  self.fetch = async (url) => {
    const bytes = files.get(String(url));
    if (!bytes) throw new TypeError(`the sandbox has no network (${url})`);
    const type = String(url).endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
    return new Response(bytes, { headers: { "Content-Type": type } });
  };
}

async function boot({ indexURL, wasm, stdlib, lock, snapshot, packageZip, wheels }) {
  const started = performance.now();
  serveFiles(new Map([[`${indexURL}pyodide.asm.wasm`, wasm], [`${indexURL}python_stdlib.zip`, stdlib]]));
  // Pyodide tells module workers from classic ones by trying importScripts; without it, it
  // does not try, and we never load scripts that way.
  closeWaysOut(self, ["importScripts"]);
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const options = { indexURL, lockFileContents: lock, env: { HOME: "/home/pyodide" } };
  let pyodide = null;
  if (snapshot) {
    try {
      pyodide = await loadPyodide({ ...options, _loadSnapshot: new Uint8Array(snapshot) });
    } catch (error) {
      console.warn("TabAgent sandbox: starting Python without the snapshot:", error.message ?? error);
    }
  }
  const fromSnapshot = pyodide !== null;
  pyodide ??= await loadPyodide(options);
  pyodide.unpackArchive(packageZip, "zip", { extractDir: PACKAGE_DIR });
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const wheel of wheels) pyodide.unpackArchive(wheel.bytes, "zip", { extractDir: sitePackages });
  pyodide.runPython(`
import importlib, sys
if ${JSON.stringify(PACKAGE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(PACKAGE_DIR)})
importlib.invalidate_caches()
`);
  const module = pyodide.pyimport("tabagent.app.in_sandbox.runtime");
  module.warm_up();
  runtime = module.SandboxRuntime(fromPython);
  leftovers = module.watch_leftovers(() => runtime.running);
  timers.startTracking();
  guardMemory();
  closeWaysOut(self, [...WAYS_OUT, "postMessage"]); // nor may model code post as the runtime does
  send({ type: FromSandbox.ready, startupMs: Math.round(performance.now() - started), fromSnapshot });
}
