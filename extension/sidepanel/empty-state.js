// The panel before the first message: what TabAgent can do, with three suggestions for the
// page the user is on. Clicking one sends it as the user's own message, so the suggestions are
// in our words only: a page's title is the page's words (it may be written as orders to the
// agent), and the agent reads the page, marked as the page's, when it needs it.

import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";

export function suggestionsFor(tab) {
  if (!/^https?:|^file:/.test(tab?.url ?? "")) {
    return [t("suggestNoPage1"), t("suggestNoPage2"), t("suggestNoPage3")];
  }
  return [t("suggestPage1"), t("suggestPage2"), t("suggestPage3")];
}

async function activeTab() {
  try {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    return tab;
  } catch {
    return null;
  }
}

export async function renderEmptyState(element, onPick) {
  const suggestions = suggestionsFor(await activeTab());
  element.replaceChildren(
    h("div", { class: "empty" },
      h("h2", { class: "empty-title" }, t("emptyTitle")),
      h("p", { class: "empty-hint" }, t("emptyHint")),
      h("ul", { class: "suggestions", "aria-label": t("suggestions") },
        ...suggestions.map((text) => h("li", {}, h("button", { type: "button", class: "suggestion", onclick: () => onPick(text) }, text))))),
  );
}
