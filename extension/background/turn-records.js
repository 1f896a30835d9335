// Starting and stopping the user's turns. The turn itself runs in the offscreen document;
// the service worker records it and keeps the conversation in storage up to date as the
// offscreen document's event batches arrive.

import * as conversations from "../shared/storage/conversations.js";
import { MessageType } from "../shared/protocol/messages.js";
import { forPython, loadSettings, whatIsMissing, withOverrides } from "../shared/settings/settings.js";
import { askOffscreen, offscreenDocumentExists } from "./offscreen-document.js";
import { mcpForPython } from "../shared/settings/mcp-servers.js";
import { loadMcpServersSignedIn } from "./mcp-sign-in.js";
import { Status } from "../shared/wire.js";
import { userTab } from "./page-access.js";
import { openOwnTab, ownTabOf, stillOpenTabOf } from "./own-tab.js";
import { keepBackgroundWhile } from "../platform/chrome/background-lifetime.js";
import { loadWorkflows, workflowCommand, workflowsForPython } from "../shared/storage/workflows.js";
import { chosenDeviceModel } from "./device-models.js";

// What the user attached in the composer (sidepanel/attachments-view.js): tabs by id, each
// with the address its chip showed (Python reads a tab only while it shows that site), and the
// selection as they saw it. The turn's record keeps what they were, for the conversation.
// Pictures the user pasted or dropped: data URLs of images only (Python checks them again);
// a screenshot of a tab keeps the page it shows, which Python marks it as.
const PICTURE = /^data:image\/(png|jpeg|webp|gif);base64,/;
const ofPage = ({ page_url: pageUrl, page_title: pageTitle }) =>
  (pageUrl ? { page_url: String(pageUrl), page_title: String(pageTitle ?? "") } : {});
const pictures = (images) => (Array.isArray(images) ? images : [])
  .filter((image) => PICTURE.test(image?.url ?? "")).map((image) => ({ name: String(image.name ?? ""), url: image.url, ...ofPage(image) }));

function attachments(tabs, selection, images) {
  const chosen = (Array.isArray(tabs) ? tabs : []).filter((tab) => Number.isInteger(tab?.tabId));
  const text = typeof selection?.text === "string" ? selection.text : "";
  const picked = text.trim() ? { text, url: String(selection.url ?? ""), title: String(selection.title ?? "") } : null;
  const shown = pictures(images);
  const record = chosen.length || picked || shown.length
    ? { attachments: { tabs: chosen.map(({ tabId, title, url }) => ({ tabId, title: String(title ?? ""), url: String(url ?? "") })), selection: picked,
      ...(shown.length && { images: shown }) } }
    : {};
  const request = chosen.map(({ tabId, url }) => ({ tab_id: tabId, url: String(url ?? "") }));
  return { record, request: { attachedTabs: request, attachedSelection: picked, attachedImages: shown } };
}

// replacing: the turn a regenerated or edited one replaces, with every turn after it.
// windowId: the side panel's window, whose tab the turn works on.
// inOwnTab: the composer's choice for this turn (a tab of the agent's own, or not), over the
// "own tab" setting, which is what it is when the panel says nothing.
// unattended: a scheduled run's (scheduled-runs.js) { tabId: its own tab, scheduled: the mark
// its conversation keeps, sites: where the schedule may act unasked }; its questions stop it.
// Python gives those sites to the schedule alone (py/tabagent/app/consent.py), under the user's rules.
export async function startTurn({ conversationId, text, context, overrides, attachedTabs, attachedSelection, attachedImages, replacing, windowId, inOwnTab, unattended }) {
  if (!text?.trim()) throw new Error("Write a message first.");
  const { settings, apiKey } = await loadSettings();
  const missing = whatIsMissing(settings, apiKey);
  if (missing) throw new Error(missing);
  const title = conversations.titleFrom(unattended ? unattended.scheduled.name : context?.selection ? `${text} ${context.selection}` : text);
  const saved = await savedWorkflows(text); // before the turn is recorded: "/name {bad json}" is said, not run
  const found = conversationId
    ? await conversations.loadConversation(conversationId)
    : await conversations.createConversation(title, unattended && { scheduled: unattended.scheduled });
  if (!found) throw new Error("That conversation no longer exists.");
  const turnId = crypto.randomUUID();
  const attached = attachments(attachedTabs, attachedSelection, attachedImages);
  starting.add(turnId);
  try {
    const { agentTab, own } = await turnTab(windowId, (typeof inOwnTab === "boolean" ? inOwnTab : settings.own_tab) ? { conversationId, task: text } : null, unattended?.tabId);
    // Whose turn it is: a managed agent's own tab, opened later, stops this turn when closed.
    Object.assign(agentTab, { conversation_id: found.id, turn_id: turnId });
    // Refused in words while another turn of this conversation runs (another panel's, say).
    const turn = { id: turnId, text, context: context ?? null, ...attached.record, ...(own && { agentOwnTab: own }), startedAt: Date.now() };
    const record = await conversations.addTurn(found.id, turn, { overrides, replacing });
    if (own) await ownTabOf(own.tabId, found.id, turnId);
    const mcp = await loadMcpServersSignedIn();
    const schedule = unattended ? { name: unattended.scheduled.name, sites: unattended.sites ?? [] } : null;
    await runInPython(record, turnId, { text, context, settings, apiKey, mcp, attached: attached.request, saved, agentTab, unattended: Boolean(unattended), schedule });
    keepBackgroundWhile(async () => (await liveTurnIds())?.size > 0); // Firefox would stop it mid-turn
  } finally {
    starting.delete(turnId);
  }
  return { conversationId: found.id, turnId };
}

// The user's saved workflows, the agent's tools in every turn; "/name ..." runs one without the model.
async function savedWorkflows(text) {
  const workflows = await loadWorkflows();
  return { workflows: workflowsForPython(workflows), workflow: workflowCommand(text, workflows) };
}

// The tab the turn works on, chosen as it starts: a tab a page opens or brings to the front
// while the turn runs is not the user's. (No web tab now: each tool looks again, and says so.)
// wanted ({ conversationId, task }, the "own tab" setting): a tab of the agent's own instead,
// the conversation's from an earlier turn while it is open, else a new one showing the page the
// user is on (own-tab.js); `own` is what the turn's record keeps of it, for the panel.
// runTab: a scheduled run's tab (scheduled-runs.js), opened for it already.
async function turnTab(windowId, wanted, runTab = null) {
  if (runTab != null) return { agentTab: { tab_id: runTab, window_id: windowId ?? null } };
  const tab = await userTab(windowId).catch(() => null);
  if (!wanted) return { agentTab: { tab_id: tab?.id ?? null, window_id: windowId ?? null } };
  const kept = wanted.conversationId ? await stillOpenTabOf(wanted.conversationId) : null;
  const opened = kept ? { tab_id: kept.id, window_id: kept.windowId }
    : await openOwnTab({ windowId: windowId ?? tab?.windowId, url: tab?.url, task: conversations.titleFrom(wanted.task) });
  return { agentTab: { tab_id: opened.tab_id, window_id: opened.window_id }, own: { tabId: opened.tab_id } };
}

// attached: the tabs and the selection the user attached to this message themselves; reading
// them is what they asked for, so Python reads them with no question (attachments.py).
async function runInPython(record, turnId, { text, context, settings, apiKey, mcp, attached, saved, agentTab, unattended, schedule }) {
  return askOffscreen({
    type: MessageType.runTurn,
    conversationId: record.id,
    turnId,
    task: text,
    // The selection, its page's title and address come from the page: Python marks them as
    // page content (page_bridge.selection_task), with the one function that marks all of it.
    context: context?.selection ? { selection: context.selection, title: context.title ?? "", url: context.url ?? "" } : null,
    memory: record.memory,
    settings: forPython(withOverrides(settings, record.overrides)),
    apiKey,
    // The user's MCP servers and, apart, their headers: secrets, like the key.
    ...mcpForPython(mcp.servers, mcp.secrets),
    ...attached,
    ...saved, // workflows, and the one "/name" runs (savedWorkflows)
    agentTab,
    unattended, // nobody at the panel: a question stops the turn (offscreen/python/page-bridge.js)
    deviceModel: await chosenDeviceModel(settings), // the on-device model's record, when that is the provider
    schedule, // who acts in a scheduled run, and where it may act unasked
  });
}

// Stop always ends the turn: when Python has no turn running for the conversation (its end
// was lost, or Python is gone), the turn still marked running is marked stopped here.
export async function stopTurn({ conversationId }) {
  let stopped = false;
  try {
    ({ stopped } = await askOffscreen({ type: MessageType.stopTurn, conversationId }));
  } catch (error) {
    console.warn("TabAgent: could not ask Python to stop the turn:", error.message);
  }
  if (stopped) return { stopped };
  const ended = await conversations.markInterruptedTurns(liveTurnIds, { conversationId, status: Status.cancelled });
  return { stopped: ended > 0 };
}

// Turns being handed to Python by this worker right now: saved as running, not yet in Python.
const starting = new Set();

// The turns Python is running now (and those on their way to it); null when it cannot tell.
export async function liveTurnIds() {
  if (!(await offscreenDocumentExists())) return new Set(starting);
  try {
    return new Set([...starting, ...(await askOffscreen({ type: MessageType.liveTurns })).turnIds]);
  } catch (error) {
    console.warn("TabAgent: could not ask which turns are running:", error.message);
    return null;
  }
}

// Turns marked running that nothing runs can never finish: marked interrupted.
export function settleStaleTurns() {
  return conversations.markInterruptedTurns(liveTurnIds);
}

// Live batches (one every few milliseconds while a reply streams) that arrive while a save is
// under way are saved together by the next one: each save rewrites the conversation's record,
// and a save per batch kept a core busy while the panel drew the reply. Storage stays no
// further behind the stream than one save.
const unsaved = new Map(); // turn id -> { conversationId, turnId, events }
let saving = null;

export function saveTurnEvents({ conversationId, turnId, events }) {
  const batch = unsaved.get(turnId) ?? { conversationId, turnId, events: [] };
  batch.events.push(...events);
  unsaved.set(turnId, batch);
  saving ??= saveUnsaved();
  return saving;
}

async function saveUnsaved() {
  try {
    while (unsaved.size > 0) {
      const batches = [...unsaved.values()];
      unsaved.clear();
      await Promise.all(batches.map(({ conversationId, turnId, events }) => conversations.appendTurnEvents(conversationId, turnId, events)));
    }
  } finally {
    saving = null;
  }
}

export function saveFinishedTurn({ conversationId, turnId, status, memory, events }) {
  unsaved.delete(turnId); // the end has them all
  return conversations.finishTurn(conversationId, turnId, { status, memory, events });
}
