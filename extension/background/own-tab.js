// A tab of the agent's own: a turn (or a scheduled run) that works while the user keeps browsing
// does it in a tab it opens in the background, in a tab group named for the task, never in the
// user's tabs. openOwnTab is the one way such a tab is opened; the page tools then aim at it
// (page-access.js agentTab). Closing the tab, or its group (which closes its tabs), stops the
// turn that works in it. Kept in session storage: this worker may be stopped between two events.

import { refusal } from "./page-access.js";
import { OWN_TABS, ownTabs } from "../shared/storage/own-tabs.js";

const GROUP_COLOR = "purple";
const GROUP_TITLE_LENGTH = 40;

// One change at a time: two managed agents open their tabs at once, and two read-change-write
// rounds side by side would each write back the list without the other's tab.
let changing = Promise.resolve();

function keep(change) {
  const done = changing.then(async () => {
    const tabs = await ownTabs();
    change(tabs);
    await chrome.storage.session.set({ [OWN_TABS]: tabs });
  });
  changing = done.catch(() => {});
  return done;
}

const groupTitle = (task) => (task.length > GROUP_TITLE_LENGTH ? `${task.slice(0, GROUP_TITLE_LENGTH - 1)}…` : task);

// Puts the tab in a new group titled for the task. Firefox before 139 has no tab groups: the tab
// is then the agent's alone without one (docs/firefox.md).
async function group(tab, task) {
  if (typeof chrome.tabs.group !== "function" || !chrome.tabGroups) return null;
  try {
    const groupId = await chrome.tabs.group({ tabIds: [tab.id], createProperties: { windowId: tab.windowId } });
    await chrome.tabGroups.update(groupId, { title: groupTitle(task), color: GROUP_COLOR, collapsed: false });
    return groupId;
  } catch (error) {
    console.warn("TabAgent: the agent's tab has no group:", error.message);
    return null;
  }
}

// Opens a tab of the agent's own in `windowId`, in the background, showing `url` when it is a page
// an extension may work in (else an empty tab, where the agent navigates as it would anywhere,
// asking first), in the group `groupId` when given, else in a new group titled for `task`.
// Returns { tab_id, window_id, group_id, url }.
export async function openOwnTab({ windowId, url, task, groupId = null }) {
  const start = url && !refusal({ url }) && /^https?:/.test(url) ? url : "about:blank";
  const tab = await chrome.tabs.create({ url: start, active: false, ...(windowId != null && { windowId }) });
  const grouped = groupId != null ? await joinGroup(tab, groupId) : null;
  return { tab_id: tab.id, window_id: tab.windowId, group_id: grouped ?? (await group(tab, task)), url: start };
}

async function joinGroup(tab, groupId) {
  try {
    return await chrome.tabs.group({ tabIds: [tab.id], groupId });
  } catch (error) {
    console.warn("TabAgent: the agent's tab is not in the task's group:", error.message);
    return null; // the group was closed meanwhile: a group of its own then
  }
}

// The turn works in this tab: closing it stops the turn.
export function ownTabOf(tabId, conversationId, turnId) {
  return keep((tabs) => {
    const turns = tabs[tabId]?.conversationId === conversationId ? tabs[tabId].turns ?? [] : [];
    tabs[tabId] = { conversationId, turnId, turns: [...new Set([...turns, turnId])] };
  });
}

// The conversation's own tab from an earlier turn, when it is still open: its next turn goes on
// there rather than opening another.
export async function stillOpenTabOf(conversationId) {
  const [tabId] = Object.entries(await ownTabs()).find(([, owner]) => owner.conversationId === conversationId) ?? [];
  if (tabId == null) return null;
  return chrome.tabs.get(Number(tabId)).catch(() => null);
}

// Stops the turn working in a tab the user closed (`stop`: turn-records.js stopTurn); `isLive`
// says whether that turn still runs (a finished turn's tab closes with nothing to stop).
export function followOwnTabs(stop, isLive) {
  chrome.tabs.onRemoved.addListener(async (tabId) => {
    const owner = (await ownTabs())[tabId];
    if (!owner) return;
    await keep((tabs) => delete tabs[tabId]);
    if (await isLive(owner.turnId)) await stop({ conversationId: owner.conversationId });
  });
}

// A managed agent's own tab (py/tabagent/app/own_tabs.py asks for it at its first page-tool
// call): opened beside the turn's, showing the page the turn's tab shows, in the turn's tab group
// (a group of its own, titled for the agent, when the turn's tab has none); closing it stops the
// turn (`agent`: the turn's agent tab, which says whose turn it is).
export const OPEN_OWN_TAB = "open_own_tab";

export async function openOwnTabFor(agent, tab, { task } = {}) {
  const groupId = Number.isInteger(tab.groupId) && tab.groupId > -1 ? tab.groupId : null;
  const opened = await openOwnTab({ windowId: tab.windowId, url: tab.url, task: String(task ?? ""), groupId });
  if (agent?.conversation_id && agent?.turn_id) await ownTabOf(opened.tab_id, agent.conversation_id, agent.turn_id);
  return opened;
}
