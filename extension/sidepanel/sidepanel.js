// The side panel: the chat. It shows the open conversation as its events stream in, sends
// the user's messages as turns, stops them, and lists past conversations.

import { Broadcast, MessageType } from "../shared/protocol/messages.js";
import { askBackground } from "../shared/protocol/runtime.js";
import { isOffscreenDocument, isServiceWorker } from "../shared/protocol/senders.js";
import { listConversations, loadConversation } from "../shared/storage/conversations.js";
import { TurnStatus } from "../shared/import-checks/conversation-schema.js";
import { loadSettings, whatIsMissing } from "../shared/settings/settings.js";
import { receiveAppCallEvents } from "./app-view.js";
import { AttachmentsView } from "./attachments-view.js";
import { ConversationView } from "./conversation-view.js";
import { HistoryView } from "./history-view.js";
import { ToolsView } from "./tools-view.js";
import { WorkflowsView } from "./workflows-view.js";
import { TraceView } from "./trace-view.js";
import { renderEmptyState } from "./empty-state.js";
import { startEditing } from "./message-actions.js";
import { handleKeys } from "./keyboard.js";
import { ConversationSettings, ModelPicker } from "./model-picker.js";
import { ComposerAdditions } from "./composer-additions.js";
import { OwnTabToggle } from "./own-tab-toggle.js";
import { localizePage, t, tn } from "../shared/ui/i18n.js";
import { exposeForDebugging } from "../shared/debug/debug-handle.js";

const $ = (id) => document.getElementById(id);
localizePage();
const OPEN_CONVERSATION = "openConversation"; // chrome.storage.session, set by the context menu

const prompt = $("prompt");
const sendButton = $("send");
const stopButton = $("stop");

function setRunning(running) {
  stopButton.hidden = !running;
  sendButton.hidden = running;
}

// Finished messages only, said once by screen readers (the stream is not announced).
function announce(text) {
  $("announcer").textContent = "";
  setTimeout(() => ($("announcer").textContent = text), 50);
}

const conversationSettings = new ConversationSettings();
const conversation = new ConversationView($("conversation"), {
  onRunningChange: setRunning,
  onOpen: (record) => conversationSettings.show(record),
  announce,
  renderEmpty: (element) => renderEmptyState(element, (text) => {
    prompt.value = text;
    $("composer").requestSubmit();
  }),
});

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

const ownTabToggle = new OwnTabToggle($("own-tab-toggle"));
const composerAdditions = new ComposerAdditions({ prompt, attached: $("attached"), commands: $("slash-commands") });
const attachments = new AttachmentsView({
  prompt, button: $("attach"), options: $("attach-options"), chips: $("attachments"), onError: (message) => showNotice(message),
});

async function send(event) {
  event.preventDefault();
  // An MCP server's prompt comes into the box first: the user sends it once they have read it.
  const served = await composerAdditions.fillMcpPrompt(prompt.value.trim());
  if (served) {
    if (served.text) prompt.value = served.text;
    composerAdditions.tell(served.error);
    return;
  }
  const text = composerAdditions.expand(prompt.value.trim());
  if (!text || !(await checkSettings())) return;
  const context = composerAdditions.context();
  const request = { conversationId: conversation.id, text, context, overrides: conversationSettings.read(), ...attachments.forTurn(), ...ownTabToggle.forTurn() };
  await startTurnWith(MessageType.startTurn, request, () => {
    prompt.value = "";
    ownTabToggle.reset();
    if (context) composerAdditions.clear();
    attachments.clear();
  });
}

// The browser window this panel belongs to: the turn works on the tab the user is on there.
const panelWindowId = () => chrome.windows.getCurrent().then((window) => window.id, () => undefined);

// Starts a turn (a new one, or an edited or regenerated one) and shows its conversation.
async function startTurnWith(type, request, onStarted = () => {}) {
  sendButton.disabled = true;
  try {
    const { conversationId } = await askBackground(type, { ...request, windowId: await panelWindowId() });
    onStarted();
    await conversation.open(conversationId);
  } catch (error) {
    // A message that sends the user to the settings gets the button (in either language's word).
    showNotice(error.message, { settingsButton: /settings/.test(error.message) || error.message.includes(t("settings")) });
  } finally {
    sendButton.disabled = false;
  }
}

// The actions of a turn's buttons (message-actions.js, error-actions.js).
async function onTurnAction({ action, turnId, text }) {
  const conversationId = conversation.id;
  if (action === "open-settings") return chrome.runtime.openOptionsPage();
  if (action === "regenerate" || action === "edit") {
    if (!(await checkSettings())) return;
    return startTurnWith(MessageType.editTurn, { conversationId, turnId, text, overrides: conversationSettings.read() });
  }
  if (action === "save-workflow") return saveWorkflow(conversationId, turnId);
  if (action === "delete") {
    try {
      await askBackground(MessageType.deleteTurn, { conversationId, turnId });
      await conversation.open(conversationId);
      if (conversation.turns.size === 0) conversation.showEmpty();
    } catch (error) {
      showNotice(error.message);
    }
  }
}

// Save as workflow: Python writes it, and it opens in the Tools view to be read before it runs.
async function saveWorkflow(conversationId, turnId) {
  try {
    const { name, renamedFrom } = await askBackground(MessageType.saveWorkflow, { conversationId, turnId });
    await tools.toggle(true);
    $("show-tools").setAttribute("aria-pressed", "true");
    await workflows.refresh(name);
    showNotice(renamedFrom ? t("workflowSavedRenamed", renamedFrom, name) : t("workflowSavedNotice", name));
  } catch (error) {
    showNotice(error.message);
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
  if (record?.turns.some((turn) => turn.status === TurnStatus.running)) await conversation.open(latest.id);
}

// Turns stream from the offscreen document, changes to the list from the service worker; the
// same broadcast from a content script (a web page) is not shown.
chrome.runtime.onMessage.addListener((message, sender) => {
  if (message?.type === Broadcast.turnEvents && isOffscreenDocument(sender)) conversation.receive(message);
  else if (message?.type === Broadcast.turnFinished && isOffscreenDocument(sender)) conversation.finished(message);
  else if (message?.type === Broadcast.appCallEvents && isOffscreenDocument(sender)) receiveAppCallEvents(message);
  else if (message?.type === Broadcast.conversationsChanged && isServiceWorker(sender)) {
    history.refresh();
    if (message.conversationId && message.conversationId === conversation.id) conversation.open(conversation.id);
  }
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "session" && changes[OPEN_CONVERSATION]?.newValue) conversation.open(changes[OPEN_CONVERSATION].newValue);
  if (area === "session" && changes.lastError?.newValue) showNotice(changes.lastError.newValue, { settingsButton: true });
  if (area === "local" && (changes.settings || changes.apiKey)) checkSettings();
  if (area === "local" && changes.settings && changes.settings.newValue?.own_tab !== changes.settings.oldValue?.own_tab) ownTabToggle.reset();
  if (area === "local" && changes.settings) conversation.stepsOpen = Boolean(changes.settings.newValue?.show_steps);
  if (area === "local" && changes.settings && !document.querySelector(".model-picker").contains(document.activeElement)) modelPicker.show();
});

const traceView = new TraceView($("trace"));
$("conversation").addEventListener("show-trace", (event) => traceView.show(event.detail.calls));
$("conversation").addEventListener("turn-action", (event) => onTurnAction(event.detail));
handleKeys({
  prompt,
  running: () => !stopButton.hidden,
  stop,
  editLast: () => {
    const last = conversation.lastTurn();
    if (last && last.element.dataset.status !== TurnStatus.running) startEditing(last);
    return Boolean(last);
  },
});

$("composer").addEventListener("submit", send);
stopButton.addEventListener("click", stop);
$("new-chat").addEventListener("click", () => {
  history.toggle(false);
  conversation.showEmpty();
  prompt.focus();
});
const tools = new ToolsView($("tools"));
const workflows = new WorkflowsView($("tools"), {
  onRun: (name) => {
    tools.toggle(false);
    $("show-tools").setAttribute("aria-pressed", "false");
    prompt.value = `/${name} `;
    prompt.focus();
  },
});
$("show-history").addEventListener("click", (event) => {
  history.toggle();
  event.currentTarget.setAttribute("aria-pressed", String(history.visible));
});
$("show-tools").addEventListener("click", async (event) => {
  const button = event.currentTarget;
  await tools.toggle();
  if (tools.visible) await workflows.refresh();
  button.setAttribute("aria-pressed", String(tools.visible));
});
for (const id of ["open-settings", "notice-settings"]) $(id).addEventListener("click", () => chrome.runtime.openOptionsPage());
$("export-all-json").addEventListener("click", () => history.export(null, "json"));
$("export-all-md").addEventListener("click", () => history.export(null, "md"));
$("import-json").addEventListener("change", async (event) => {
  const [file] = event.target.files;
  if (!file) return;
  try {
    const { imported, notes } = await history.import(file);
    showNotice([tn("imported", imported), ...notes].join(" "));
  } catch (error) {
    showNotice(error.message);
  }
  event.target.value = "";
});

const modelPicker = new ModelPicker({ onError: (message) => showNotice(message) });
modelPicker.show();
checkSettings();
loadSettings().then(({ settings }) => (conversation.stepsOpen = Boolean(settings.show_steps)));
conversation.showEmpty();
openInitialConversation();
composerAdditions.start();
prompt.focus();

// For the console and tests: the view on screen, through the one debug handle.
exposeForDebugging("conversation", conversation);
