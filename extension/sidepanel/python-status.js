// Python's readiness, shown only while it is not ready: "Starting Python…", or the error.
// Once it is ready, its versions are the tooltip of the panel's name beside it, which stays
// in sight (a tooltip on the hidden status could never be seen).
// Opening the panel starts Python (the ping makes the service worker create the offscreen
// document), and the panel then holds a port to it, which keeps Python there while the panel
// is open. Typing and sending never wait for it: a turn sent meanwhile runs once it is ready.
// This module is the panel page's first script, of its own and async: it pings as soon as its
// few modules have loaded, without waiting for the page's style sheets, the end of its parsing
// or the rest of the panel (sidepanel.js: 60 modules), and Python starts while those load. What
// it shows waits for the page to be parsed.
import { Broadcast, MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { t } from "../shared/ui/i18n.js";
import { isOffscreenDocument } from "../shared/protocol/senders.js";

// Shows each status given on the page's #python-status, from when it is called.
function statusShower(element) {
  const name = element.parentElement.querySelector(".title");
  // Its words are this module's from now on: sidepanel.js localises the page's words later, and
  // would put "Starting Python…" back over what Python said by then.
  element.removeAttribute("data-i18n");
  return (status) => {
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
}

let latest = { ready: false };
let shown = null; // statusShower's function, once the page is parsed
function show(status) {
  latest = status;
  shown?.(status);
}

chrome.runtime.onMessage.addListener((message, sender) => {
  if (message?.type === Broadcast.pythonStatus && isOffscreenDocument(sender)) show(message.status);
});

function start() {
  askBackground(MessageType.ping).then(
    (status) => {
      show(status);
      // Python went away under an open panel (closed from outside, or crashed): start it again.
      chrome.runtime.connect({ name: MessageType.panelOpen }).onDisconnect.addListener(() => {
        show({ ready: false });
        start();
      });
    },
    (error) => show({ ready: false, error: error.message }),
  );
}
start();

// The page is parsed ("interactive") before its deferred scripts (sidepanel.js) run.
function whenParsed(then) {
  if (document.readyState !== "loading") then();
  else document.addEventListener("readystatechange", then, { once: true });
}
whenParsed(() => {
  shown = statusShower(document.getElementById("python-status"));
  shown(latest);
});
