// find_in_page: where a phrase occurs, with the text around each match and a locator for
// the element it is in (the link or button itself when the match is inside one, so
// find_in_page("Subscribe") then click(locator) does what the user means).

import { PAGE_TOOL_DEFAULTS } from "../shared/wire.js";
import { isVisible, describe } from "./element-words.js";
import { tail, head } from "./snippets.js";
import { PageToolError, LIMITS, clamp, arg } from "./tool-arguments.js";
import * as frames from "./frames.js";
import * as locators from "./locators.js";

export const tools = {};

const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TEXTAREA"]);
const BLOCKS = new Set(["ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "BR", "DD", "DIV", "DL", "DT", "FIELDSET",
  "FIGCAPTION", "FIGURE", "FOOTER", "FORM", "H1", "H2", "H3", "H4", "H5", "H6", "HEADER", "HR", "LI", "MAIN", "NAV",
  "OL", "P", "PRE", "SECTION", "TABLE", "TD", "TH", "TR", "UL", "BODY", "OPTION", "BUTTON", "LABEL"]);
const ACTIONABLE = "a[href], button, summary, label, select, [role=button], [role=link], [role=tab], [role=menuitem], [onclick]";

const nearestBlock = (el) => {
  while (el && !BLOCKS.has(el.nodeName)) el = el.parentElement;
  return el;
};

// The document's text as one string, with a line break where one block ends and the
// next begins (so a phrase never matches across two paragraphs), and for each text node
// the offset where it starts, to map a match back to its node.
function textIndex(doc) {
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (SKIP.has(node.parentNode.nodeName) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  let text = "";
  const starts = [];
  const nodes = [];
  let lastBlock = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const block = nearestBlock(node.parentElement);
    if (block !== lastBlock && text) text += "\n";
    lastBlock = block;
    starts.push(text.length);
    nodes.push(node);
    text += node.data;
  }
  return { text, starts, nodes };
}

// The text node holding character `offset`: the last node starting at or before it.
function nodeAt({ starts, nodes }, offset) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return nodes[lo];
}

// The query matches whatever whitespace the page has between its words.
const pattern = (query, caseSensitive) =>
  new RegExp(query.trim().split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"),
    caseSensitive ? "g" : "gi");

function findInPage({ query, max_results, context_chars, case_sensitive }) {
  if (!query.trim()) throw new PageToolError("find_in_page needs some text to look for.");
  const max = clamp(max_results, 1, LIMITS.results);
  const size = clamp(context_chars, 0, LIMITS.contextChars);
  const regex = pattern(query, case_sensitive);
  const matches = [];
  let total = 0;
  for (const doc of frames.allDocuments()) {
    if (!doc.body) continue;
    const index = textIndex(doc);
    for (const found of index.text.matchAll(regex)) {
      total++;
      if (matches.length >= max) continue; // keep counting, so the note can say how many
      const el = nodeAt(index, found.index).parentElement;
      const target = el.closest(ACTIONABLE) || el;
      const end = found.index + found[0].length;
      // A little more text than asked for, so the snippet can end between two words.
      matches.push({
        locator: locators.locatorFor(target),
        match: found[0],
        before: tail(index.text.slice(Math.max(0, found.index - size - 40), found.index), size),
        after: head(index.text.slice(end, end + size + 40), size),
        element: describe(target).summary,
        visible: isVisible(el),
      });
    }
  }
  const result = { query, count: total, matches };
  if (total > matches.length) result.note = `Showing ${matches.length} of ${total} matches; raise max_results or search for a longer phrase.`;
  if (!total) result.note = `“${query}” does not occur in the page's text.`;
  return result;
}

tools.find_in_page = {
  params: {
    query: arg("string"),
    max_results: arg("number", PAGE_TOOL_DEFAULTS.find_in_page.max_results),
    context_chars: arg("number", PAGE_TOOL_DEFAULTS.find_in_page.context_chars),
    case_sensitive: arg("boolean", false),
  },
  run: findInPage,
};
