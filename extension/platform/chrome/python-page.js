// Where the agent's Python lives (Chrome's version: an offscreen document; Firefox's event
// page hosts it in a frame of its own DOM: extension/platform/firefox/python-page.js). The page is
// offscreen.html either way, so senders.js knows it by its URL in both browsers.

export const PYTHON_PAGE = "extension/offscreen/offscreen.html";

export async function pythonPageExists() {
  const contexts = await chrome.runtime.getContexts({
    contextTypes: ["OFFSCREEN_DOCUMENT"],
    documentUrls: [chrome.runtime.getURL(PYTHON_PAGE)],
  });
  return contexts.length > 0;
}

// Resolves once the page has loaded (its module may not have run yet).
export function createPythonPage() {
  return chrome.offscreen.createDocument({
    url: PYTHON_PAGE,
    reasons: ["WORKERS", "IFRAME_SCRIPTING"],
    justification: "Runs the agent's Python (Pyodide) and its sandboxed code runner.",
  });
}

export function closePythonPage() {
  return chrome.offscreen.closeDocument();
}
