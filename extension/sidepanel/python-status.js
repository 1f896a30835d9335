// The readiness indicator: "Starting Python…", then ready with the version, or the error.
import { Broadcast, MessageType } from "../shared/messages.js";
import { askBackground } from "../shared/runtime.js";
import { isOffscreenDocument } from "../shared/senders.js";

export function showPythonStatus(element) {
  const render = (status) => {
    if (status.ready) {
      element.className = "status status--ready";
      element.textContent = `Python ${status.pythonVersion} ready`;
      element.title = `tabagent ${status.tabagentVersion}, Pyodide ${status.pyodideVersion}; started in ${status.startupMs} ms${status.fromSnapshot ? " from a snapshot" : ""}`;
    } else {
      element.className = "status status--error";
      element.textContent = `Python failed to start: ${status.error}`;
      element.title = "";
    }
    element.dataset.ready = String(Boolean(status.ready));
  };

  chrome.runtime.onMessage.addListener((message, sender) => {
    if (message?.type === Broadcast.pythonStatus && isOffscreenDocument(sender)) render(message.status);
  });

  askBackground(MessageType.ping).then(render, (error) => render({ ready: false, error: error.message }));
}
