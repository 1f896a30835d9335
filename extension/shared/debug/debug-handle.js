// The one way in for tests and developers: globalThis.tabagentDebug, a frozen object with
// the named entries below, in the extension pages that have them (the DevTools console of
// the side panel or of the offscreen document, or the DevTools protocol). Nothing in the
// extension reads it: it shows what a page already holds, and adds no way to reach it from
// a web page or a content script (these pages are extension pages only). A test
// (tests/unit/test_debug_handle.py) fails when production code makes a global or an export
// for someone outside in any other way, so every such entry is declared and documented here
// (and in the README's "Seeing what the agent does").
//
//   conversation        side panel: the ConversationView on screen (its id, open(id), stepsOpen)
//   python              offscreen document: the promise of the agent's Python (in its worker),
//                       { info, run(code, sandboxFor) }: run resolves to the code's value
//   sandboxStatus(host) offscreen document: a CodeSandbox's state, { ready, running, spare, runs, restarts, ... }
//   onDeviceModel       offscreen document: the on-device model's runner (on-device/model-runner.js):
//                       status() { loaded, loads, replies }, unload()

const ENTRIES = Object.freeze(["conversation", "python", "sandboxStatus", "onDeviceModel"]);
const registered = new Map();

// The handle exists once per page; its entries read what the page's modules registered.
const entries = Object.fromEntries(ENTRIES.map((name) => [name, { get: () => registered.get(name), enumerable: true }]));
Object.defineProperty(globalThis, "tabagentDebug", {
  value: Object.freeze(Object.defineProperties({}, entries)),
  enumerable: false,
  writable: false,
  configurable: false,
});

// Called by the module that owns `value`, once, as it starts.
export function exposeForDebugging(name, value) {
  if (!ENTRIES.includes(name)) throw new Error(`tabagentDebug has no entry ${name}: declare it in debug-handle.js`);
  registered.set(name, value);
}
