// What just changed on the page, for read_page to give beside the main content: what the page
// says in its status, alert and live regions and its open dialogs (a "Saved", a "Wrong
// password", a success box), and text that appeared since the last read. The main content's
// choosing drops those as too short or outside the article, so a model that trusted read_page
// reported failure after succeeding.
//
// By general signals only: the roles and attributes pages use to tell assistive technology of a
// change (ARIA live regions, role=status|alert|log, <output>, dialogs), and what a
// MutationObserver saw added since this script came into the page or since the last read.

import { look } from "./visibility.js";
import { squash } from "./snippets.js";

const SAYING = [
  ["alert", "[role=alert], [role=alertdialog], [aria-live=assertive]"],
  ["dialog", "dialog[open], [role=dialog]"],
  ["status", "[role=status], output, [aria-live=polite]"],
  ["log", "[role=log]"],
];
const ENTRY_CHARS = 500; // each thing said, at most
const TOTAL_CHARS = 3000; // all of them together
const WATCHED_AT_MOST = 300; // added elements remembered between two reads
const NOT_TEXT = "script, style, noscript, template";

let added = new Set(); // elements added, or whose text changed, since the last read

function watch() {
  if (typeof MutationObserver === "undefined" || !document.documentElement) return;
  new MutationObserver((records) => {
    for (const record of records) {
      const nodes = record.type === "characterData" ? [record.target] : record.addedNodes;
      for (const node of nodes) {
        const el = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
        if (el && !el.closest(NOT_TEXT)) added.add(el);
      }
    }
    while (added.size > WATCHED_AT_MOST) added.delete(added.values().next().value);
  }).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
}
watch();

const textOf = (el) => squash(el.innerText ?? el.textContent ?? "");

// The outermost of `elements`: a region and a line inside it are said once, as the region.
function outermost(elements) {
  const set = new Set(elements);
  return elements.filter((el) => { for (let up = el.parentElement; up; up = up.parentElement) if (set.has(up)) return false; return true; });
}

// [{kind, text}]: what the page is saying now, then what appeared since the last read that
// `markdown` (the main content read) does not already hold. The record starts again.
function justChanged(markdown) {
  const { isShown } = look(document);
  const said = [];
  const seen = new Set();
  let room = TOTAL_CHARS;
  const say = (kind, el) => {
    const text = textOf(el).slice(0, ENTRY_CHARS);
    if (!text || seen.has(text) || room <= 0) return;
    seen.add(text);
    room -= text.length;
    said.push({ kind, text });
  };
  const regions = [];
  for (const [kind, selector] of SAYING) {
    for (const el of outermost([...document.querySelectorAll(selector)].filter(isShown))) {
      if (regions.some((region) => region.contains(el))) continue;
      regions.push(el);
      say(kind, el);
    }
  }
  const appeared = outermost([...added].filter((el) => el.isConnected && isShown(el)
    && !regions.some((region) => region.contains(el) || el.contains(region))));
  added = new Set();
  const main = squash(markdown.replace(/[*_`#>|[\]()\\-]+/g, " "));
  for (const el of appeared) if (!main.includes(textOf(el))) say("new", el);
  return said;
}

export { justChanged };
