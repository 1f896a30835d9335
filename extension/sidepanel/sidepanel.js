// The side panel: the chat. It shows the open conversation as its events stream in, sends
// the user's messages as turns, stops them, and lists past conversations.

import { Broadcast, MessageType } from "../shared/messages.js";
import { askBackground } from "../shared/runtime.js";
import { isOffscreenDocument, isServiceWorker } from "../shared/senders.js";
import { listConversations, loadConversation } from "../shared/conversations.js";
import { loadSettings, whatIsMissing } from "../shared/settings.js";
import { ConversationView } from "./conversation-view.js";
import { HistoryView } from "./history-view.js";
import { showPythonStatus } from "./python-status.js";
import { ToolsView } from "./tools-view.js";
import { TraceView } from "./trace-view.js";

const $ = (id) => document.getElementById(id);
const OPEN_CONVERSATION = "openConversation"; // chrome.storage.session, set by the context menu

const prompt = $("prompt");
const sendButton = $("send");
const stopButton = $("stop");

function setRunning(running) {
  stopButton.hidden = !running;
  sendButton.hidden = running;
}

const conversation = new ConversationView($("conversation"), { onRunningChange: setRunning });

function showNotice(text, { settingsButton = false } = {}) {
  $("notice").hidden = !text;
  $("notice-text").textContent = text;
  $("notice-settings").hidden = !settingsButton;
}

async function checkSettings() {
  const { settings, apiKey } = await loadSettings();
  const missing = whatIsMissing(settings, apiKey);
  showNotice(missing, { settingsButton: Boolean(missing) });
  return !missing;
}

async function send(event) {
  event.preventDefault();
  const text = prompt.value.trim();
  if (!text || !(await checkSettings())) return;
  sendButton.disabled = true;
  try {
    const { conversationId } = await askBackground(MessageType.startTurn, { conversationId: conversation.id, text });
    prompt.value = "";
    await conversation.open(conversationId);
  } catch (error) {
    showNotice(error.message);
  } finally {
    sendButton.disabled = false;
  }
}

async function stop() {
  stopButton.disabled = true;
  try {
    await askBackground(MessageType.stopTurn, { conversationId: conversation.id });
  } catch (error) {
    showNotice(error.message);
  } finally {
    stopButton.disabled = false;
  }
}

const history = new HistoryView({
  section: $("history"),
  list: $("history-list"),
  search: $("history-search"),
  onOpen: async (id) => {
    history.toggle(false);
    await conversation.open(id);
  },
  onError: (message) => showNotice(message),
});

// What to show when the panel opens: the conversation the context menu just started, or
// one still being answered, or a new conversation.
async function openInitialConversation() {
  // A turn still marked running that nothing runs (its end was lost) is marked interrupted first.
  await askBackground(MessageType.settleStaleTurns).catch((error) => console.warn("TabAgent:", error.message));
  const { [OPEN_CONVERSATION]: requested, lastError } = await chrome.storage.session.get([OPEN_CONVERSATION, "lastError"]);
  if (requested) return conversation.open(requested);
  if (lastError) {
    showNotice(lastError, { settingsButton: true });
    await chrome.storage.session.remove("lastError");
  }
  const [latest] = await listConversations();
  const record = latest && (await loadConversation(latest.id));
  if (record?.turns.some((turn) => turn.status === "running")) await conversation.open(latest.id);
}

// Turns stream from the offscreen document, changes to the list from the service worker; the
// same broadcast from a content script (a web page) is not shown.
chrome.runtime.onMessage.addListener((message, sender) => {
  if (message?.type === Broadcast.turnEvents && isOffscreenDocument(sender)) conversation.receive(message);
  else if (message?.type === Broadcast.turnFinished && isOffscreenDocument(sender)) conversation.finished(message);
  else if (message?.type === Broadcast.conversationsChanged && isServiceWorker(sender)) {
    history.refresh();
    if (message.conversationId && message.conversationId === conversation.id) conversation.open(conversation.id);
  }
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "session" && changes[OPEN_CONVERSATION]?.newValue) conversation.open(changes[OPEN_CONVERSATION].newValue);
  if (area === "session" && changes.lastError?.newValue) showNotice(changes.lastError.newValue, { settingsButton: true });
  if (area === "local" && (changes.settings || changes.apiKey)) checkSettings();
});

const traceView = new TraceView($("trace"));
$("conversation").addEventListener("show-trace", (event) => traceView.show(event.detail.calls));

$("composer").addEventListener("submit", send);
prompt.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) $("composer").requestSubmit();
});
stopButton.addEventListener("click", stop);
$("new-chat").addEventListener("click", () => {
  history.toggle(false);
  conversation.showEmpty();
  prompt.focus();
});
const tools = new ToolsView($("tools"));
$("show-history").addEventListener("click", (event) => {
  history.toggle();
  event.currentTarget.setAttribute("aria-pressed", String(history.visible));
});
$("show-tools").addEventListener("click", async (event) => {
  const button = event.currentTarget;
  await tools.toggle();
  button.setAttribute("aria-pressed", String(tools.visible));
});
for (const id of ["open-settings", "notice-settings"]) $(id).addEventListener("click", () => chrome.runtime.openOptionsPage());
$("export-all-json").addEventListener("click", () => history.export(null, "json"));
$("export-all-md").addEventListener("click", () => history.export(null, "md"));
$("import-json").addEventListener("change", async (event) => {
  const [file] = event.target.files;
  if (!file) return;
  try {
    const imported = await history.import(file);
    showNotice(`Imported ${imported} conversation${imported === 1 ? "" : "s"}.`);
  } catch (error) {
    showNotice(error.message);
  }
  event.target.value = "";
});

showPythonStatus($("python-status"));
checkSettings();
openInitialConversation();

// For DevTools and the benchmarks: the open conversation's view.
globalThis.tabagent = { conversation };
