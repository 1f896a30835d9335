// Python's worker, started by the offscreen document's first module script: offscreen.html
// lists this module before offscreen.js, whose graph (30 modules) the document's thread then
// loads while the worker loads Pyodide on a thread of its own. worker-link.js takes it over.
// A worker that fails to load says so once, in an event that may come before anyone listens:
// it is kept for them.

export const pythonWorker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });

export const workerFailedEarly = new Promise((resolve) => {
  pythonWorker.addEventListener("error", resolve, { once: true });
});
