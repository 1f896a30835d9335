// Where the agent's Python lives (Firefox's version of extension/platform/chrome/python-page.js).
// Firefox has no offscreen documents, but its MV3 background is an event page with a DOM:
// offscreen.html runs in a frame of it, an extension page of its own, so messages between
// the two are runtime messages with the same senders as in Chrome.

export const PYTHON_PAGE = "extension/offscreen/offscreen.html";
let frame = null;

export async function pythonPageExists() {
  return Boolean(frame?.isConnected);
}

// Resolves once the page has loaded (its module may not have run yet).
export function createPythonPage() {
  return new Promise((resolve, reject) => {
    frame = document.createElement("iframe");
    frame.addEventListener("load", () => resolve(), { once: true });
    frame.addEventListener("error", () => reject(new Error("the Python page did not load")), { once: true });
    frame.src = chrome.runtime.getURL(PYTHON_PAGE);
    document.body.append(frame);
  });
}

export async function closePythonPage() {
  frame?.remove();
  frame = null;
}
