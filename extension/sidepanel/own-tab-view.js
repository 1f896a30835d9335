// Which tab the agent works in, when the turn has a tab of its own (the "own tab" setting,
// background/own-tab.js): a line above the turn's steps naming the tab as the browser shows it
// (title, else address), kept up to date while the tab changes, and a button that brings it to
// the front; a managed agent's own tab (the `own_tab` event) gets the same line inside that
// agent's steps. The title is the page's, shown as text only. A tab is named only while it is
// listed as one the agent worked in for that very turn (shared/storage/own-tabs.js).

import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";
import { workedIn } from "../shared/storage/own-tabs.js";

function describe(tab) {
  return tab.title && tab.title !== tab.url ? `${tab.title} (${tab.url})` : tab.url || tab.pendingUrl || "";
}

export function ownTabLine(turn) {
  return tabLine(turn.agentOwnTab?.tabId, turn.id);
}

export function tabLine(tabId, turnId) {
  if (!Number.isInteger(tabId)) return null;
  const name = h("span", { class: "own-tab-name" });
  const show = h("button", { type: "button", class: "own-tab-show",
    onclick: () => chrome.tabs.update(tabId, { active: true }).catch(() => {}) }, t("ownTabShow"));
  const line = h("div", { class: "own-tab", "data-tab-id": String(tabId) }, name, show);
  const say = async (found) => {
    const tab = found && (await workedIn(tabId, turnId)) ? found : null;
    name.textContent = tab ? t("ownTabWorking", describe(tab)) : t("ownTabClosed");
    show.hidden = !tab;
    line.dataset.state = tab ? "open" : "closed";
  };
  chrome.tabs.get(tabId).then(say, () => say(null));
  // Events that come once the turn is off the screen (another conversation opened) unhook these.
  const forget = () => {
    chrome.tabs.onUpdated.removeListener(updated);
    chrome.tabs.onRemoved.removeListener(removed);
  };
  const updated = (id, _change, tab) => (!line.isConnected ? forget() : id === tabId && say(tab));
  const removed = (id) => (!line.isConnected ? forget() : id === tabId && say(null));
  chrome.tabs.onUpdated.addListener(updated);
  chrome.tabs.onRemoved.addListener(removed);
  return line;
}
