// The baseline of bench/bench_boot.py: what the browser itself takes to start, load an
// extension, open its panel and create an offscreen document, with nothing of TabAgent's in
// them. Laid out at TabAgent's paths so the same harness drives it. On the panel's ping this
// worker creates an empty offscreen document and answers once the document says it listens.

const times = { serviceWorkerStarted: Math.round(performance.timeOrigin) };
let listening = null;
let markListening = null;

function ensureDocument() {
  listening ??= new Promise((resolve) => {
    markListening = resolve;
    times.createAsked = Date.now();
    chrome.offscreen.createDocument({ url: "extension/offscreen/offscreen.html", reasons: ["WORKERS"], justification: "bench baseline" })
      .then(() => (times.documentLoaded = Date.now()));
  });
  return listening;
}

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (message?.type === "offscreen-listening") {
    times.documentListening = Date.now();
    times.documentStarted = message.documentStarted;
    markListening?.();
    return false;
  }
  if (message?.type !== "ping") return false;
  times.firstPing ??= Date.now();
  ensureDocument().then(() => {
    const readyAt = times.documentListening;
    sendResponse({ ok: true, result: { readyAt, startupMs: 0, pyodideLoadMs: 0, fromSnapshot: null, phases: { ...times, ready: readyAt } } });
  });
  return true;
});
times.serviceWorkerModuleRan = Date.now();
