// list_controls: the page's controls at a glance, for the model to act on by locator.
//
// Every visible control (links, buttons, fields, lists, boxes, ARIA widgets, anything the
// page made focusable or clickable), in reading order, across same-origin frames and open
// shadow roots, one short line each:
//   ta-12 button “Subscribe”
//   ta-13 text field “Email” = “old@example.org” required
//   ta-14 checkbox “Remember me” checked
//   ta-15 drop-down list “Country” = “France” (3 options) below
// The locator is the one every other tool takes; it stays while the element lives. Where it
// is: nothing when in view, "below" or "above" the visible part of the page.

import { PAGE_TOOL_DEFAULTS } from "../shared/wire.js";
import { isVisible, nameOf, describe } from "./element-words.js";
import { squash, truncate } from "./snippets.js";
import { PageToolError, LIMITS, clamp, arg } from "./tool-arguments.js";
import * as frames from "./frames.js";
import * as locators from "./locators.js";

export const tools = {};

const CONTROL_TAGS = new Set(["a", "button", "input", "select", "textarea", "summary"]);
const CONTROL_ROLES = new Set(["button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "combobox", "listbox", "textbox", "searchbox", "slider", "spinbutton", "treeitem"]);
const LINE_NAME_CHARS = 80;

function isControl(el) {
  const tag = el.localName;
  if (tag === "a") return el.hasAttribute("href");
  if (tag === "input") return el.type !== "hidden";
  if (CONTROL_TAGS.has(tag)) return true;
  if (CONTROL_ROLES.has(el.getAttribute("role"))) return true;
  if (el.isContentEditable && !el.parentElement?.isContentEditable) return true;
  const tabindex = el.getAttribute("tabindex");
  return (tabindex !== null && Number(tabindex) >= 0) || el.hasAttribute("onclick");
}

// A page's own clickable text (a span with a click handler, drawn as a link): the pointer
// it shows is the only sign. Small elements only, and not inside another one that shows it.
function looksClickable(el) {
  if (el.childElementCount > 3 || squash(el.textContent).length > 80) return false;
  const view = el.ownerDocument.defaultView;
  return view.getComputedStyle(el).cursor === "pointer" &&
    !(el.parentElement && view.getComputedStyle(el.parentElement).cursor === "pointer");
}

// Elements under `root` in document order, into open shadow roots and same-origin frames.
function* elementsUnder(root) {
  const walker = (root.ownerDocument ?? root).createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.currentNode; node; node = walker.nextNode()) {
    if (node.nodeType !== 1) continue;
    yield node;
    if (node.shadowRoot) yield* elementsUnder(node.shadowRoot);
    if (node.localName === "iframe" || node.localName === "frame") {
      const inner = frames.frameDocument(node);
      if (inner?.documentElement) yield* elementsUnder(inner.documentElement);
    }
  }
}

// A control inside a control (a link's span with a tabindex) is the outer one's.
function insideAnother(el, listed) {
  for (let up = el.parentElement; up; up = up.parentElement) if (listed.has(up)) return true;
  return false;
}

const quoted = (text, max = 60) => `“${truncate(squash(text), max).text}”`;

function state(el) {
  const words = [];
  const tag = el.localName;
  const aria = (name) => el.getAttribute(`aria-${name}`);
  if (tag === "select") {
    const chosen = [...el.selectedOptions].map((o) => o.text);
    if (chosen.length) words.push(`= ${chosen.map((t) => quoted(t, 40)).join(", ")}`);
    words.push(`(${el.options.length} option${el.options.length === 1 ? "" : "s"}${el.multiple ? ", several may be chosen" : ""})`);
  } else if ((tag === "input" && !["checkbox", "radio", "button", "submit", "reset", "image", "file"].includes(el.type)) || tag === "textarea") {
    if (el.value) words.push(`= ${el.type === "password" ? "“•••”" : quoted(el.value)}`);
  } else if (el.isContentEditable && squash(el.innerText)) {
    words.push(`= ${quoted(el.innerText)}`);
  } else if (["combobox", "textbox", "searchbox", "slider", "spinbutton"].includes(el.getAttribute("role"))) {
    const value = aria("valuetext") ?? aria("valuenow") ?? el.textContent;
    if (squash(value)) words.push(`= ${quoted(value)}`);
  }
  if (el.checked === true || aria("checked") === "true" || aria("pressed") === "true") words.push("checked");
  else if (aria("checked") === "mixed") words.push("partly checked");
  if (aria("selected") === "true") words.push("selected");
  if (aria("expanded") === "true") words.push("expanded");
  else if (aria("expanded") === "false" || (tag === "summary" && !el.parentElement?.open)) words.push("collapsed");
  if (el.disabled || aria("disabled") === "true") words.push("disabled");
  if (el.required || aria("required") === "true") words.push("required");
  if (aria("invalid") === "true" || (el.validity && !el.validity.valid && el.value)) words.push("invalid");
  return words;
}

function where(el) {
  const rect = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView;
  if (rect.top >= view.innerHeight) return "below";
  if (rect.bottom <= 0) return "above";
  return "";
}

function line(el) {
  const { role: named } = describe(el);
  const role = named === el.localName && !CONTROL_TAGS.has(named) ? "clickable" : named; // a div or span made clickable
  const name = nameOf(el);
  const parts = [locators.locatorFor(el), role];
  if (name && !(el.localName === "input" && el.value === name && el.type !== "submit" && el.type !== "button")) {
    parts.push(quoted(name, LINE_NAME_CHARS));
  }
  parts.push(...state(el));
  const placed = where(el);
  if (placed) parts.push(placed);
  if (el.ownerDocument !== document) parts.push("(in a frame)");
  return parts.join(" ");
}

// keep(el): a cheaper test to pass first (a screenshot's labels: in view), or none.
function controls(root, keep = null) {
  const listed = new Set();
  for (const el of elementsUnder(root)) {
    if ((keep && !keep(el)) || insideAnother(el, listed)) continue;
    if ((isControl(el) || looksClickable(el)) && isVisible(el)) listed.add(el);
  }
  return [...listed];
}

tools.list_controls = {
  params: { within: arg("string", null), page: arg("number", PAGE_TOOL_DEFAULTS.list_controls.page), max_controls: arg("number", PAGE_TOOL_DEFAULTS.list_controls.max_controls) },
  run({ within, page: number, max_controls }) {
    const root = within ? locators.findOne(within) : document.documentElement;
    const found = controls(root);
    const size = clamp(max_controls, 10, LIMITS.results);
    const pages = Math.max(1, Math.ceil(found.length / size));
    if (!Number.isInteger(number) || number < 1 || number > pages) {
      throw new PageToolError(`There is no page ${number} of controls: there ${pages === 1 ? "is 1" : `are ${pages}`}.`);
    }
    const shown = found.slice((number - 1) * size, number * size);
    const result = { url: location.href, count: found.length, page: number, pages, controls: shown.map(line).join("\n") };
    if (number < pages) result.note = `Showing ${shown.length} of ${found.length} controls; call list_controls with page=${number + 1} for more, or within= a form or dialog.`;
    if (!found.length) result.note = within ? `The ${describe(root).summary} holds no visible control.` : "The page shows no control.";
    return result;
  },
};
export { controls }; // the screenshot numbers what list_controls lists
