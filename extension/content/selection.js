// get_selection: what the user selected, with the text around it, so "explain this" has
// the sentence or paragraph the selection sits in.

import { PAGE_TOOL_DEFAULTS } from "../shared/wire.js";
import { isVisible, describe } from "./element-words.js";
import { truncate, tail, head } from "./snippets.js";
import { LIMITS, clamp, arg } from "./tool-arguments.js";
import * as frames from "./frames.js";
import * as visibility from "./visibility.js";
import * as locators from "./locators.js";
import { isSecretField } from "./secret-fields.js";

export const tools = {};

// A selection inside a text field is not part of the document's selection: read it from
// the field itself.
function fieldSelection(doc) {
  const field = doc.activeElement;
  if (!field || !["input", "textarea"].includes(field.localName)) return null;
  let start, end;
  try {
    ({ selectionStart: start, selectionEnd: end } = field);
  } catch {
    return null; // input types without a text selection (number, email)
  }
  if (start == null || start === end || isSecretField(field)) return null;
  return { el: field, text: field.value.slice(start, end), before: field.value.slice(0, start), after: field.value.slice(end) };
}

// The nearest ancestor laid out as a block: the paragraph, list item or cell around it.
function blockAround(node) {
  let el = node.nodeType === 1 ? node : node.parentElement;
  while (el && el.parentElement && getComputedStyle(el).display.startsWith("inline")) el = el.parentElement;
  return el;
}

function documentSelection(doc) {
  const selection = doc.getSelection();
  if (!selection || selection.isCollapsed || !selection.rangeCount) return null;
  const range = selection.getRangeAt(0);
  const block = blockAround(range.commonAncestorContainer);
  const around = doc.createRange();
  around.selectNodeContents(block);
  // Text no one can read (white on white, 1px type: visibility.js) is left out, as read_page
  // leaves it out: a page may hide instructions where the user is likely to select.
  const unseen = doc.body ? visibility.unseenText(doc.body) : new Set();
  const hides = [...unseen].some((node) => around.intersectsNode(node));
  const textOf = hides ? (r) => seenText(r, unseen) : (r) => r.toString();
  const text = hides ? seenText(range, unseen) : selection.toString();
  around.setEnd(range.startContainer, range.startOffset);
  const before = textOf(around);
  around.selectNodeContents(block);
  around.setStart(range.endContainer, range.endOffset);
  return { el: block, text, before, after: textOf(around) };
}

// The text of `range` less the `unseen` text nodes, each block on a line of its own.
function seenText(range, unseen) {
  const root = range.commonAncestorContainer;
  const walker = root.ownerDocument.createTreeWalker(root.nodeType === Node.TEXT_NODE ? root.parentNode : root, NodeFilter.SHOW_TEXT);
  const lines = [];
  let block = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (unseen.has(node) || !range.intersectsNode(node) || !isVisible(node.parentElement)) continue;
    const start = node === range.startContainer ? range.startOffset : 0;
    const end = node === range.endContainer ? range.endOffset : node.data.length;
    const around = blockAround(node);
    if (around !== block) lines.push("");
    block = around;
    lines[lines.length - 1] += node.data.slice(start, end).replace(/\s+/g, " ");
  }
  return lines.map((line) => line.replace(/ {2,}/g, " ").trim()).filter(Boolean).join("\n");
}

function getSelection({ context_chars }) {
  const size = clamp(context_chars, 0, LIMITS.contextChars);
  for (const doc of frames.allDocuments()) {
    const found = fieldSelection(doc) || documentSelection(doc);
    if (!found || !found.text.trim()) continue;
    const { text, cut } = truncate(found.text, LIMITS.chars);
    const result = {
      text,
      before: tail(found.before, size),
      after: head(found.after, size),
      locator: locators.locatorFor(found.el),
      element: describe(found.el).summary,
      url: doc.URL,
    };
    if (cut) result.note = `The selection is longer than ${LIMITS.chars} characters; only the start is shown.`;
    return result;
  }
  return { text: "", before: "", after: "", locator: null, element: null, url: location.href, note: "Nothing is selected on the page." };
}

tools.get_selection = { params: { context_chars: arg("number", PAGE_TOOL_DEFAULTS.get_selection.context_chars) }, run: getSelection };
