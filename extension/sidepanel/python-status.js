// Python's readiness, shown only while it is not ready: "Starting Python…", or the error.
// Once it is ready, its versions are the tooltip of the panel's name beside it, which stays
// in sight (a tooltip on the hidden status could never be seen).
// Opening the panel starts Python (the ping makes the service worker create the offscreen
// document), and the panel then holds a port to it, which keeps Python there while the panel
// is open. Typing and sending never wait for it: a turn sent meanwhile runs once it is ready.
// This module is a script of the panel's page of its own, before sidepanel.js: its few modules
// load and ping at once, and Python starts while the rest of the panel (60 modules) loads.
import { Broadcast, MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { t } from "../shared/ui/i18n.js";
import { isOffscreenDocument } from "../shared/protocol/senders.js";

function showPythonStatus(element) {
  const name = element.parentElement.querySelector(".title");
  const render = (status) => {
    element.hidden = Boolean(status.ready);
    name.title = "";
    if (status.ready) {
      element.className = "status status--ready";
      element.textContent = t("pythonReady", status.pythonVersion);
      const versions = [status.pythonVersion, status.tabagentVersion, status.pyodideVersion, status.startupMs];
      name.title = t(status.fromSnapshot ? "pythonVersionsSnapshot" : "pythonVersions", ...versions);
    } else if (status.error) {
      element.className = "status status--error";
      element.textContent = t("pythonFailed", status.error);
    } else {
      element.className = "status status--starting";
      element.textContent = t("startingPython");
    }
    element.dataset.ready = String(Boolean(status.ready));
  };

  // Its words are this module's from now on: sidepanel.js localises the page's words later, and
  // would put "Starting Python…" back over what Python said by then.
  element.removeAttribute("data-i18n");
  render({ ready: false });
  chrome.runtime.onMessage.addListener((message, sender) => {
    if (message?.type === Broadcast.pythonStatus && isOffscreenDocument(sender)) render(message.status);
  });

  const start = () => {
    askBackground(MessageType.ping).then(
      (status) => {
        render(status);
        // Python went away under an open panel (closed from outside, or crashed): start it again.
        chrome.runtime.connect({ name: MessageType.panelOpen }).onDisconnect.addListener(() => {
          render({ ready: false });
          start();
        });
      },
      (error) => render({ ready: false, error: error.message }),
    );
  };
  start();
}

showPythonStatus(document.getElementById("python-status"));
