// The context menu: Summarize this page; Explain / Translate / Rewrite the selection; Ask about
// selection… (opens the panel with the selection attached and the cursor in the box); and the
// user's own prompts. Each opens the side panel; the ready-made ones start their turn at once.

import { openPanel } from "../platform/chrome/panel.js";
import { loadSettings } from "../shared/settings/settings.js";
import { ASK_ABOUT_SELECTION, BUILT_IN, PENDING_SELECTION, fillPrompt, parsePrompts } from "../shared/settings/quick-actions.js";
import { runPageTool } from "./page-tool-relay.js";
import { startTurn } from "./turn-records.js";
import { t } from "../shared/ui/i18n.js";

export const OPEN_CONVERSATION = "openConversation"; // chrome.storage.session: what the panel shows
const OWN_PROMPT = "prompt:";
const created = []; // the items made (Chrome cannot list them)

export async function createRightClickMenu() {
  const { settings } = await loadSettings();
  const { prompts } = parsePrompts(settings.custom_prompts);
  await chrome.contextMenus.removeAll();
  const add = (item) => {
    created.push(item);
    chrome.contextMenus.create(item, () => void chrome.runtime.lastError);
  };
  created.length = 0;
  add({ id: "tabagent", title: "TabAgent", contexts: ["page", "selection"] });
  for (const [id, action] of Object.entries(BUILT_IN)) add({ id, parentId: "tabagent", title: t(action.title), contexts: action.contexts });
  add({ id: ASK_ABOUT_SELECTION, parentId: "tabagent", title: t("menuAsk"), contexts: ["selection"] });
  if (prompts.length) add({ id: "own-separator", parentId: "tabagent", type: "separator", contexts: ["page", "selection"] });
  for (const [index, { name }] of prompts.entries()) {
    add({ id: `${OWN_PROMPT}${index}`, parentId: "tabagent", title: name, contexts: ["page", "selection"] });
  }
  return created;
}

async function requestFor(menuItemId) {
  if (BUILT_IN[menuItemId]) return BUILT_IN[menuItemId].text;
  if (!String(menuItemId).startsWith(OWN_PROMPT)) return null;
  const { settings } = await loadSettings();
  return parsePrompts(settings.custom_prompts).prompts[Number(menuItemId.slice(OWN_PROMPT.length))]?.prompt ?? null;
}

export function onRightClickMenuClick(info, tab) {
  // The panel may only be opened inside the click's user gesture: before any await.
  openPanel(tab);
  const page = { title: tab?.title ?? "", url: tab?.url ?? info.pageUrl ?? "" };
  return seenSelection(tab, info.selectionText ?? "").then((selection) => answerClick(info.menuItemId, { selection, ...page }));
}

function answerClick(menuItemId, context) {
  if (menuItemId === ASK_ABOUT_SELECTION) {
    return chrome.storage.session.set({ [PENDING_SELECTION]: { ...context, at: Date.now() }, [OPEN_CONVERSATION]: null }).then(() => null);
  }
  return requestFor(menuItemId).then((template) => {
    if (!template) return null;
    const text = fillPrompt(template, context, languageName());
    return startTurn({ text, context: context.selection ? context : { ...context, selection: undefined } }).then(
      async (started) => {
        await chrome.storage.session.set({ [OPEN_CONVERSATION]: started.conversationId });
        return started;
      },
      async (error) => {
        // Nothing to run (no model configured, say): the panel shows why.
        await chrome.storage.session.set({ [OPEN_CONVERSATION]: null, lastError: error.message });
        return null;
      },
    );
  });
}

// The selection as the user sees it. The browser's selectionText includes text no one can
// read that lies inside the selection (white on white, 1px type), where a page may hide
// instructions; get_selection leaves it out (content/visibility.js). Its text is taken when it is
// the browser's less some words; anything else (a selection in a frame we cannot enter, a
// PDF, a page we may not read) keeps the browser's.
async function seenSelection(tab, selectionText) {
  if (!selectionText.trim() || tab?.id === undefined) return selectionText;
  try {
    const reply = await runPageTool({ name: "get_selection", args: { context_chars: 0 }, tab_id: tab.id });
    const seen = reply.ok ? reply.result?.text ?? "" : "";
    return seen.trim() && wordsWithin(seen, selectionText) ? seen : selectionText;
  } catch {
    return selectionText;
  }
}

function wordsWithin(part, whole) {
  const count = new Map();
  for (const word of whole.trim().split(/\s+/)) count.set(word, (count.get(word) ?? 0) + 1);
  return part.trim().split(/\s+/).every((word) => count.set(word, (count.get(word) ?? 0) - 1).get(word) >= 0);
}

// The browser's language, in words the model understands ("German"), for Translate.
function languageName() {
  const code = chrome.i18n.getUILanguage();
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(code.split("-")[0]) ?? "English";
  } catch {
    return "English";
  }
}
