// The panel before the first message: what TabAgent can do, with three suggestions for the
// page the user is on. Clicking one asks it.

import { h } from "./dom.js";
import { t } from "../shared/i18n.js";

function shorten(text, length = 48) {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

export function suggestionsFor(tab) {
  const url = tab?.url ?? "";
  if (!/^https?:|^file:/.test(url)) {
    return [t("suggestNoPage1"), t("suggestNoPage2"), t("suggestNoPage3")];
  }
  const title = shorten(tab.title || new URL(url).hostname);
  return [t("suggestPage1", title), t("suggestPage2"), t("suggestPage3")];
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
