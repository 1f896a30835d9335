// Gestures: what a person's hand does on the page, as the events it sends (pointer, mouse,
// keyboard, input), for the actions (actions.js) once the user allowed them. Synthetic events,
// sent the way frameworks such as React and Vue accept them; what the browser itself would do
// next (follow, toggle, submit, move the focus) is done here too.

import { isVisible, describe } from "./element-words.js";
import { squash, truncate } from "./snippets.js";
import { PageToolError } from "./tool-arguments.js";
import { OPTIONS_SHOWN } from "./control-words.js";
import { isSecretField } from "./secret-fields.js";

const quoted = (text, max = 200) => `“${truncate(text, max).text}”`;
const currentText = (el) => (el.isContentEditable ? el.innerText : el.value);

// What the user would hit instead, pressing the middle of `el` where it is on screen: the
// element on top there, when it is neither `el`, inside it, nor its label. An element out of
// view is judged once it is scrolled to (when the action is done).
function coveredBy(el) {
  const rect = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView;
  const [x, y] = [rect.left + rect.width / 2, rect.top + rect.height / 2];
  if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) return null;
  let hit = el.ownerDocument.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  // Not covered: the element itself, what it holds (a link's image), what holds it (an
  // element that lets clicks through to its box), or its own label drawn over it.
  if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return null;
  if (el.labels && [...el.labels].some((label) => label === hit || label.contains(hit))) return null;
  return hit;
}

// --- choosing: native <select>, and ARIA listboxes and comboboxes -------------------------

const optionText = (o) => squash(o.label ?? o.textContent);

function choicesOf(el) {
  if (el.localName === "select") return { options: [...el.options], current: [...el.selectedOptions], multiple: el.multiple };
  const role = el.getAttribute("role");
  if (role !== "listbox" && role !== "combobox") throw new PageToolError(`The ${describe(el).summary} is not a list to choose from.`);
  const list = role === "listbox" ? el : listOf(el);
  const options = list ? [...list.querySelectorAll('[role="option"]')] : [];
  return { options, current: options.filter((o) => o.getAttribute("aria-selected") === "true"),
    multiple: list?.getAttribute("aria-multiselectable") === "true" };
}

// A combobox's list: the element it names (aria-controls / aria-owns), or one inside it.
function listOf(combobox) {
  const ids = `${combobox.getAttribute("aria-controls") ?? ""} ${combobox.getAttribute("aria-owns") ?? ""}`.trim().split(/\s+/).filter(Boolean);
  return ids.map((id) => combobox.ownerDocument.getElementById(id)).find(Boolean) ?? combobox.querySelector('[role="listbox"]');
}

function matchOption(options, want, el) {
  const wanted = squash(want).toLowerCase();
  const found = options.find((o) => optionText(o).toLowerCase() === wanted) ??
    options.find((o) => (o.value ?? o.getAttribute("data-value") ?? "").toLowerCase() === wanted);
  if (found) return found;
  // The options named as list_controls names them: all of them up to OPTIONS_SHOWN, never a guess.
  const some = options.slice(0, OPTIONS_SHOWN).map((o) => quoted(optionText(o), 60)).join(", ");
  const more = options.length > OPTIONS_SHOWN ? `, and ${options.length - OPTIONS_SHOWN} more` : "";
  throw new PageToolError(`The ${describe(el).summary} has no option “${want}”; it has ${some || "none"}${more}.`);
}

function choose(el, chosen) {
  inView(el);
  if (el.localName === "select") {
    el.focus({ preventScroll: true });
    for (const option of el.options) option.selected = chosen.includes(option);
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    return;
  }
  if (el.getAttribute("role") === "combobox" && el.getAttribute("aria-expanded") !== "true") click(el);
  for (const option of chosen) click(option);
}

// --- checking ---------------------------------------------------------------------------

const CHECKABLE_ROLES = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"]);
const isCheckable = (el) => (el.localName === "input" && ["checkbox", "radio"].includes(el.type)) || CHECKABLE_ROLES.has(el.getAttribute("role"));
const isChecked = (el) => (el.localName === "input" ? el.checked : el.getAttribute("aria-checked") === "true");

// --- keys: "Enter", "Escape", "Tab", "ArrowDown", "Control+a", "Shift+Tab" ---------------

const KEY_CODES = { Enter: 13, Escape: 27, Tab: 9, Backspace: 8, Delete: 46, " ": 32, ArrowUp: 38, ArrowDown: 40,
  ArrowLeft: 37, ArrowRight: 39, Home: 36, End: 35, PageUp: 33, PageDown: 34 };
const MODIFIERS = { control: "ctrlKey", ctrl: "ctrlKey", shift: "shiftKey", alt: "altKey", meta: "metaKey", cmd: "metaKey" };

function parseKeys(text) {
  const parts = String(text).split("+").map((p) => p.trim());
  const key = parts.pop();
  if (!key) throw new PageToolError(`press_key: “${text}” names no key (try "Enter", "Escape", "Tab", "ArrowDown" or "Control+a").`);
  const held = {};
  for (const part of parts) {
    const name = MODIFIERS[part.toLowerCase()];
    if (!name) throw new PageToolError(`press_key: “${part}” is not a modifier (Control, Shift, Alt, Meta).`);
    held[name] = true;
  }
  const spoken = key.toLowerCase() === "space" ? " " : key; // (" " cannot be written between the "+")
  const named = spoken.length === 1 ? spoken : Object.keys(KEY_CODES).find((k) => k.toLowerCase() === key.toLowerCase()) ?? key;
  return { key: named, held, label: String(text) };
}

function pressKey(el, { key, held }) {
  const code = KEY_CODES[key] ?? key.toUpperCase().charCodeAt(0);
  const init = { bubbles: true, cancelable: true, composed: true, key, keyCode: code, which: code, ...held };
  const proceed = el.dispatchEvent(new KeyboardEvent("keydown", init));
  if (key.length === 1 && !held.ctrlKey && !held.metaKey) el.dispatchEvent(new KeyboardEvent("keypress", init));
  el.dispatchEvent(new KeyboardEvent("keyup", init));
  if (!proceed) return; // the page handled it
  // What the browser itself would do, for the keys whose default a page relies on.
  if (key === "Tab") moveFocus(el, held.shiftKey ? -1 : 1);
  if (key === "Enter" && (el.form || el.closest?.("form")) && el.localName === "input") (el.form || el.closest("form")).requestSubmit();
}

function moveFocus(from, step) {
  const focusable = [...document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]')]
    .filter((el) => !el.disabled && el.tabIndex >= 0 && isVisible(el));
  const next = focusable[(focusable.indexOf(from) + step + focusable.length) % focusable.length];
  next?.focus();
}

function hover(el) {
  inView(el);
  pointerArrives(el, centreOf(el));
}

const centreOf = (el) => {
  const rect = el.getBoundingClientRect();
  return { bubbles: true, cancelable: true, composed: true, clientX: rect.left + rect.width / 2, clientY: rect.top + rect.height / 2 };
};

// The pointer comes to rest over the centre of `el`, as a person's mouse does before a press:
// over, enter (the element and each box around it: menus listen there), then a move.
function pointerArrives(el, at) {
  el.dispatchEvent(new PointerEvent("pointerover", { ...at, pointerType: "mouse", isPrimary: true }));
  el.dispatchEvent(new MouseEvent("mouseover", at));
  const entered = [];
  for (let node = el; node && node.nodeType === 1; node = node.parentElement ?? node.getRootNode().host) entered.unshift(node);
  for (const node of entered) {
    node.dispatchEvent(new PointerEvent("pointerenter", { ...at, bubbles: false, pointerType: "mouse", isPrimary: true }));
    node.dispatchEvent(new MouseEvent("mouseenter", { ...at, bubbles: false }));
  }
  el.dispatchEvent(new PointerEvent("pointermove", { ...at, pointerType: "mouse", isPrimary: true }));
  el.dispatchEvent(new MouseEvent("mousemove", at));
}

// What an action changed that the model should know: a field's value and its validation
// message, a box's state, a dialog that opened.
function outcome(el) {
  const out = {};
  if (el && "value" in el && el.localName !== "button") out.value = isSecretField(el) ? "•••" : truncate(String(el.value), 1000).text;
  if (el && isCheckable(el)) out.checked = isChecked(el);
  if (el?.localName === "select") out.selected = [...el.selectedOptions].map(optionText);
  if (el?.validationMessage) out.validation_message = el.validationMessage;
  // A form that would not submit says why: its first field the browser finds wrong.
  const refusing = el?.form?.querySelector?.(":invalid");
  if (refusing && refusing !== el && refusing.validationMessage) {
    out.form_invalid = `${describe(refusing).summary}: ${refusing.validationMessage}`;
  }
  const dialog = [...document.querySelectorAll('dialog[open], [role="dialog"], [role="alertdialog"]')].find((d) => isVisible(d));
  if (dialog) out.dialog = describe(dialog).summary;
  return out;
}

// Brings `el` into view and checks, there, that nothing covers it: an element out of view when
// the action was planned is judged where it is when the action is done.
function inView(el) {
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  const cover = coveredBy(el);
  if (cover) throw new PageToolError(`Nothing was done: the ${describe(el).summary} is covered by the ${describe(cover).summary}; close or move that first.`);
}

function click(el) {
  inView(el);
  const at = { ...centreOf(el), button: 0 };
  // The pointer first moves onto the element (menus that choose on hover choose it), then the
  // whole press: pages that act on mousedown (menus, custom buttons) need it, not just "click".
  pointerArrives(el, at);
  el.dispatchEvent(new PointerEvent("pointerdown", { ...at, pointerType: "mouse", isPrimary: true }));
  el.dispatchEvent(new MouseEvent("mousedown", at));
  el.focus?.({ preventScroll: true });
  el.dispatchEvent(new PointerEvent("pointerup", { ...at, pointerType: "mouse", isPrimary: true }));
  el.dispatchEvent(new MouseEvent("mouseup", at));
  // click() also runs the default action: follow the link, toggle the box, submit the form.
  if (typeof el.click === "function") el.click();
  else el.dispatchEvent(new MouseEvent("click", at));
}

// A click at a point of the element (a click by position): the pointer arrives there, then
// the whole press, and the click the browser would send, with that point's coordinates (a
// board or a canvas reads them); dispatching it runs the default action (follow, toggle).
function clickAt(el, point) {
  const at = { bubbles: true, cancelable: true, composed: true, ...point, button: 0 };
  pointerArrives(el, at);
  el.dispatchEvent(new PointerEvent("pointerdown", { ...at, buttons: 1, pointerType: "mouse", isPrimary: true }));
  el.dispatchEvent(new MouseEvent("mousedown", { ...at, buttons: 1 }));
  el.closest?.("a[href], button, input, select, textarea, [tabindex]")?.focus?.({ preventScroll: true });
  el.dispatchEvent(new PointerEvent("pointerup", { ...at, pointerType: "mouse", isPrimary: true }));
  el.dispatchEvent(new MouseEvent("mouseup", at));
  el.dispatchEvent(new MouseEvent("click", { ...at, detail: 1 }));
}

// Typing goes where the focus is: a page that moves it away as the field is focused (to a
// look-alike field of its own) would get the text. Nothing is typed then.
function focusOn(el) {
  el.focus({ preventScroll: true });
  const focused = el.getRootNode().activeElement;
  if (focused === el || (el.isContentEditable && el.contains(focused))) return;
  const where = focused && focused !== el.ownerDocument.body ? `the ${describe(focused).summary}` : "elsewhere";
  throw new PageToolError(`Nothing was done: the page moved the focus from the ${describe(el).summary} to ${where} as it was focused, so the text would have gone there.`);
}

function typeText(el, text, clear, submit) {
  const doc = el.ownerDocument;
  inView(el);
  focusOn(el);
  if (el.isContentEditable) {
    const range = doc.createRange();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    doc.getSelection().removeAllRanges();
    doc.getSelection().addRange(range);
  }
  const before = currentText(el);
  const limit = el.maxLength > 0 ? el.maxLength : Infinity;
  const wanted = ((clear ? "" : before) + text).slice(0, limit);
  if (!el.isContentEditable) {
    // The prototype's setter, not el.value = ...: frameworks that wrap the property on the
    // element (React) must still see the change as user input.
    const setValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value").set;
    if (clear) setValue.call(el, "");
    try { el.setSelectionRange(el.value.length, el.value.length); } catch { /* no caret in this input type */ }
    // insertText is typing as far as the page can tell: beforeinput, input, undo history.
    if (!doc.execCommand("insertText", false, text) || el.value !== wanted) {
      setValue.call(el, wanted);
      el.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: text }));
    }
    el.dispatchEvent(new Event("change", { bubbles: true }));
  } else if (!doc.execCommand("insertText", false, text)) {
    el.textContent = wanted;
    el.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: text }));
  }
  if (submit) submitFrom(el);
}

// A date, time, number, slider or colour takes its value whole, as its picker gives it: set
// through the prototype's setter (frameworks such as React then see it as the user's), then the
// input and change events a picker sends.
function setValue(el, value, submit) {
  inView(el);
  focusOn(el);
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value").set.call(el, value);
  el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
  if (submit) submitFrom(el);
  return outcome(el);
}

function submitFrom(el) {
  const form = el.form || el.closest("form");
  if (form) form.requestSubmit();
  else for (const type of ["keydown", "keypress", "keyup"]) el.dispatchEvent(new KeyboardEvent(type, { bubbles: true, cancelable: true, key: "Enter", code: "Enter", keyCode: 13, which: 13 }));
}

export { coveredBy, inView, click, typeText, choose, choicesOf, matchOption, optionText, isCheckable, isChecked,
  parseKeys, pressKey, hover, clickAt, outcome, currentText, setValue };
