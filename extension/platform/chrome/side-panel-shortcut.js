// The toolbar shortcut ("toggle-panel" in the manifest): it opens the side panel in the window
// it was pressed in, and closes it there when it is open. Chrome lets sidePanel.open() run only
// inside the key press, which ends at the first await, so whether the panel is open has to be
// known at once: Chrome's onOpened/onClosed keep a set of windows, and chrome.storage.session
// keeps that set across this worker's restarts (Chrome stops the worker when idle; the key, or
// the panel opening or closing, starts it again). chrome.runtime.getContexts() cannot stand in:
// it reports a side panel's window as -1.

const TOGGLE_PANEL = "toggle-panel";
const OPEN_IN_WINDOWS = "panelOpenInWindows"; // chrome.storage.session: the windows showing the panel

const openWindows = new Set();
const panelChangedIn = new Set(); // windows whose panel opened or closed since this worker started
let restoredState = false;
// What storage said when this worker started, before any event of this life.
const storedAtStart = chrome.storage.session.get(OPEN_IN_WINDOWS).then(
  (stored) => stored[OPEN_IN_WINDOWS] ?? [],
  () => [],
);
const restoring = storedAtStart.then((windowIds) => {
  for (const windowId of windowIds) if (!panelChangedIn.has(windowId)) openWindows.add(windowId);
  restoredState = true;
});

function remember(windowId, open) {
  panelChangedIn.add(windowId);
  if (open) openWindows.add(windowId);
  else openWindows.delete(windowId);
  restoring
    .then(() => chrome.storage.session.set({ [OPEN_IN_WINDOWS]: [...openWindows] }))
    .catch((error) => console.warn("TabAgent: cannot remember where the side panel is open:", error.message));
}

// Whether the panel is open in this window: true, false, or undefined while the worker has just
// started and storage has not answered yet.
function isOpenIn(windowId) {
  return restoredState || panelChangedIn.has(windowId) ? openWindows.has(windowId) : undefined;
}

// Chrome closes a side panel and says when one opens or closes only since version 141 or so;
// in an older one the shortcut only opens the panel.
const canToggle = () => typeof chrome.sidePanel.close === "function" && Boolean(chrome.sidePanel.onOpened && chrome.sidePanel.onClosed);

const warn = (error) => console.warn("TabAgent: the shortcut could not open or close the side panel:", error.message);

function closePanel(windowId) {
  return chrome.sidePanel.close({ windowId }).catch(warn);
}

function onShortcut(command, tab) {
  if (command !== TOGGLE_PANEL) return;
  const windowId = tab?.windowId;
  if (windowId === undefined) return;
  const open = canToggle() ? isOpenIn(windowId) : false;
  if (open) {
    closePanel(windowId);
    return;
  }
  // Opened now, inside the key press: a panel that is already open stays as it is.
  const opening = chrome.sidePanel.open({ windowId });
  opening.catch(warn);
  if (open === undefined) {
    // The key woke this worker: if storage says the panel was open, open() changed nothing.
    Promise.all([opening, storedAtStart]).then(([, windowIds]) => windowIds.includes(windowId) && closePanel(windowId), () => {});
  }
}

export function followSidePanel() {
  chrome.sidePanel.onOpened?.addListener(({ windowId }) => remember(windowId, true));
  chrome.sidePanel.onClosed?.addListener(({ windowId }) => remember(windowId, false));
  chrome.commands.onCommand.addListener(onShortcut);
}
