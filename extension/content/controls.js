// list_controls: the page's controls at a glance, for the model to act on by locator.
//
// Every visible control (links, buttons, fields, lists, boxes, ARIA widgets, anything the
// page made focusable or clickable), in reading order, across same-origin frames and open
// shadow roots, one short line each:
//   ta-12 button “Subscribe”
//   ta-13 text field “Email” = “old@example.org” required
//   ta-14 checkbox “Remember me” checked
//   ta-15 drop-down list “Country” = “France” (3 options: “Germany”, “France”, “Italy”) below
//   ta-16 clickable (no name; coloured #e74c3c; beside “Pick a colour”)
// The locator is the one every other tool takes; it stays while the element lives. Where it
// is: nothing when in view, "below" or "above" the visible part of the page. A menu or list
// box is listed with its items; values are exact (control-words.js).

import { PAGE_TOOL_DEFAULTS } from "../shared/wire.js";
import { isVisible, nameOf, describe } from "./element-words.js";
import { clickableTest } from "./clickable.js";
import { valueWords, stateWords, lookWords } from "./control-words.js";
import { squash, truncate } from "./snippets.js";
import { NoSuchPart, LIMITS, clamp, arg } from "./tool-arguments.js";
import * as frames from "./frames.js";
import * as locators from "./locators.js";

export const tools = {};

const NATIVE = new Set(["button", "input", "select", "textarea", "summary"]); // (a link without href is no link)
const LINE_NAME_CHARS = 80;

// Walks the elements under `root` in document order, into open shadow roots and same-origin
// frames; visit(el) answers true to pass over what is inside el. reach.local (when given) is set
// false once the walk visits an element of a shadow root or of a frame.
function walk(root, visit, reach = null) {
  const walker = (root.ownerDocument ?? root).createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  let node = walker.currentNode;
  while (node) {
    if (node.nodeType === 1 && visit(node)) {
      node = pastInside(walker, root);
      continue;
    }
    if (node.shadowRoot) {
      if (reach && node.shadowRoot.firstElementChild) reach.local = false;
      walk(node.shadowRoot, visit, reach);
    }
    if (node.localName === "iframe" || node.localName === "frame") {
      const inner = frames.frameDocument(node);
      if (inner?.documentElement) {
        if (reach) reach.local = false;
        walk(inner.documentElement, visit, reach);
      }
    }
    node = walker.nextNode();
  }
}

// The next element after everything inside the walker's current one.
function pastInside(walker, root) {
  for (let at = walker.currentNode; at && at !== root; at = walker.parentNode()) {
    const next = walker.nextSibling();
    if (next) return next;
  }
  return null;
}

function within(el, containers) {
  for (let up = el.parentElement; up; up = up.parentElement) if (containers.has(up)) return true;
  return false;
}

function line(el) {
  const { role: named } = describe(el);
  const role = named === el.localName && !NATIVE.has(named) ? "clickable" : named; // a div or span made clickable
  const name = nameOf(el);
  const parts = [locators.locatorFor(el), role];
  if (name && !(el.localName === "input" && el.value === name && el.type !== "submit" && el.type !== "button")) {
    parts.push(`“${truncate(squash(name), LINE_NAME_CHARS).text}”`);
  } else if (!name) parts.push(lookWords(el));
  parts.push(...valueWords(el), ...stateWords(el));
  const placed = where(el);
  if (placed) parts.push(placed);
  if (el.ownerDocument !== document) parts.push("(in a frame)");
  return parts.join(" ");
}

function where(el) {
  const rect = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView;
  if (rect.top >= view.innerHeight) return "below";
  if (rect.bottom <= 0) return "above";
  return "";
}

// Every control under `root`, in reading order (see clickable.js for what counts). A native
// control or leaf widget holds none: what is inside it is not looked at.
// keep(el): a cheaper test to pass first (a screenshot's labels: in view), or none; reach: see walk.
function controls(root, keep = null, reach = null) {
  const listed = [];
  const containers = new Set();
  const kindOf = clickableTest();
  walk(root, (el) => {
    if (keep && !keep(el)) return false;
    const kind = kindOf(el, () => within(el, containers));
    if (!kind || !isVisible(el)) return false;
    listed.push(el);
    if (kind === "leaf") return true;
    containers.add(el);
    return false;
  }, reach);
  return withoutWrappers(listed, containers);
}

// One line per control: a box listed for its pointer or focus that holds exactly one listed
// control of the same name or none (a menu entry's <li> around its menu item, an autocomplete
// suggestion's wrapper around the suggestion) is that control's wrapper, and is left out, so
// the locator given is the item's and a click on it reaches the item, not the box.
function withoutWrappers(listed, containers) {
  const wrappers = new Set();
  for (let i = 0; i < listed.length; i++) {
    const el = listed[i];
    if (!containers.has(el) || el.hasAttribute("role")) continue; // a menu or list box is no wrapper
    let inside = 0;
    while (i + 1 + inside < listed.length && el.contains(listed[i + 1 + inside])) inside++;
    if (inside === 1 && namesNoMore(el, listed[i + 1])) wrappers.add(el);
  }
  return wrappers.size ? listed.filter((el) => !wrappers.has(el)) : listed;
}

// The box's name says nothing the item's does not: the same, or none (an icon-only item's name
// is its own aria-label or title, which the box's text does not hold).
function namesNoMore(box, item) {
  const name = squash(nameOf(box)).toLowerCase();
  return !name || name === squash(nameOf(item)).toLowerCase();
}

tools.list_controls = {
  params: { within: arg("string", null), page: arg("number", PAGE_TOOL_DEFAULTS.list_controls.page), max_controls: arg("number", PAGE_TOOL_DEFAULTS.list_controls.max_controls) },
  run({ within, page: number, max_controls }) {
    const root = within ? locators.findOne(within) : document.documentElement;
    const found = controls(root);
    const size = clamp(max_controls, 10, LIMITS.results);
    const pages = Math.max(1, Math.ceil(found.length / size));
    if (!Number.isInteger(number) || number < 1 || number > pages) {
      throw new NoSuchPart(`There is no page ${number} of controls: there ${pages === 1 ? "is 1" : `are ${pages}`}.`, { asked: number, parts: pages });
    }
    const shown = found.slice((number - 1) * size, number * size);
    const result = { url: location.href, count: found.length, page: number, pages, controls: shown.map(line).join("\n") };
    if (number < pages) result.note = `Showing ${shown.length} of ${found.length} controls; call list_controls with page=${number + 1} for more, or within= a form or dialog.`;
    if (!found.length) result.note = within ? `The ${describe(root).summary} holds no visible control.` : "The page shows no control.";
    return result;
  },
};
export { controls }; // the screenshot numbers what list_controls lists
