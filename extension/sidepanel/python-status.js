// The readiness indicator: "Starting Python…" or the error, shown only while Python is not
// ready; once ready it hides (the versions stay in its tooltip, for developers).
import { Broadcast, MessageType } from "../shared/messages.js";
import { askBackground } from "../shared/runtime.js";
import { t } from "../shared/i18n.js";

export function showPythonStatus(element) {
  const render = (status) => {
    if (status.ready) {
      element.className = "status status--ready";
      element.textContent = `Python ${status.pythonVersion} ready`;
      element.hidden = true;
      element.title = `Python ${status.pythonVersion}, tabagent ${status.tabagentVersion}, Pyodide ${status.pyodideVersion}; started in ${status.startupMs} ms${status.fromSnapshot ? " from a snapshot" : ""}`;
    } else {
      element.hidden = false;
      element.className = "status status--error";
      element.textContent = t("pythonFailed", status.error);
      element.title = "";
    }
    element.dataset.ready = String(Boolean(status.ready));
  };

  chrome.runtime.onMessage.addListener((message) => {
    if (message?.type === Broadcast.pythonStatus) render(message.status);
  });

  askBackground(MessageType.ping).then(render, (error) => render({ ready: false, error: error.message }));
}
