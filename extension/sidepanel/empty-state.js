// The panel before the first message: what TabAgent can do, with three suggestions for the
// page the user is on. Clicking one asks it.

import { h } from "./dom.js";

function shorten(text, length = 48) {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

export function suggestionsFor(tab) {
  const url = tab?.url ?? "";
  if (!/^https?:|^file:/.test(url)) {
    return ["What can you do for me on a web page?", "Write Python that prints the first 10 primes", "Explain recursion with a short example"];
  }
  const title = shorten(tab.title || new URL(url).hostname);
  return [`Summarize “${title}”`, "What are the three key points of this page?", "List the facts and figures on this page in a table"];
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
      h("h2", { class: "empty-title" }, "Ask about the page you are on"),
      h("p", { class: "empty-hint" }, "Or select text on a page, right-click it and choose a TabAgent action."),
      h("ul", { class: "suggestions", "aria-label": "Suggestions" },
        ...suggestions.map((text) => h("li", {}, h("button", { type: "button", class: "suggestion", onclick: () => onPick(text) }, text))))),
  );
}
