// Password fields, as a person knows them, not only <input type=password>: a field the page
// marks for a password or a one-time code (autocomplete current-password, new-password,
// one-time-code), one whose letters it draws as dots (CSS -webkit-text-security, as a PIN pad
// does with a text field), and one named or labelled for a password or a code (in the words of
// py/tabagent/secret_words.py, through wire.js SECRET_WORDS). TabAgent never types into one
// (actions.js: a login is handed back to the user) and no reading tool shows what one holds
// (list_controls, read_page on a form, page_html, query_page, an action's outcome): a copy of
// the page made for reading has their values taken out here (hideSecrets).

import { normalized, patternOf } from "../shared/secret-words.js";

const AUTOCOMPLETE = new Set(["current-password", "new-password", "one-time-code"]);
// A field named for these is a password field (a name or a label is no proof of a PIN: "PIN
// code" is a postal code in India; a masked or marked PIN field is caught by its look or mark).
const FIELD_KINDS = ["password", "one_time_code"];
// Input types a password is typed into, and the ones read by their name too (an e-mail or a
// search field named "password…" is an e-mail or a search, not a password).
const TEXTUAL = new Set(["", "text", "search", "email", "url", "tel", "password", "number"]);
const NAMED = new Set(["", "text", "tel", "password", "number"]);
const FIELDS = "input, textarea, [contenteditable]";

const FIELD_NAME = patternOf(FIELD_KINDS);

function isTextField(el) {
  if (el.localName === "input") return TEXTUAL.has(el.type);
  return el.localName === "textarea" || el.isContentEditable;
}

function masked(el) {
  const style = el.ownerDocument.defaultView?.getComputedStyle(el);
  const drawn = style?.getPropertyValue("-webkit-text-security") || style?.webkitTextSecurity || "none";
  return drawn !== "none";
}

// The words a field is known by: its name, id, label and hints (cheapest first).
function* wordsOf(el) {
  for (const attribute of ["name", "id", "aria-label", "placeholder", "title"]) yield el.getAttribute(attribute);
  const root = el.getRootNode();
  for (const id of (el.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean)) yield root.getElementById?.(id)?.textContent;
  if (el.labels) for (const label of el.labels) yield label.textContent;
}

// Whether `el` is a field for a password or a one-time code, as the page marks, draws or names it.
export function isSecretField(el) {
  if (!el || el.nodeType !== 1 || !isTextField(el)) return false;
  if (el.localName === "input" && el.type === "password") return true;
  if ((el.getAttribute("autocomplete") ?? "").toLowerCase().split(/\s+/).some((token) => AUTOCOMPLETE.has(token))) return true;
  if (masked(el)) return true;
  if (el.localName === "input" && !NAMED.has(el.type)) return false;
  for (const text of wordsOf(el)) if (text && FIELD_NAME.test(normalized(text))) return true;
  return false;
}

// In a copy of `live` (a document, a shadow root or an element, copied exactly), each password
// field marked (data-tabagent-secret: "filled" or "empty") and its value taken out, before
// anything else changes the copy; takeOutSecrets then empties what such a field holds as text.
export function hideSecrets(live, copy) {
  const copied = copy.querySelectorAll(FIELDS);
  const pairs = [...live.querySelectorAll(FIELDS)].map((el, i) => [el, copied[i]]);
  if (live.nodeType === 1 && live.matches(FIELDS)) pairs.unshift([live, copy]);
  for (const [el, twin] of pairs) {
    if (!twin || !isSecretField(el)) continue;
    const filled = "value" in el ? el.value : el.textContent.trim();
    twin.setAttribute("data-tabagent-secret", filled ? "filled" : "empty");
    twin.removeAttribute("value");
    if ("value" in twin) twin.value = "";
  }
}

export function takeOutSecrets(copy) {
  for (const el of copy.querySelectorAll("[data-tabagent-secret]")) if (el.localName !== "input") el.replaceChildren();
}

// What a reading shows of a password field: that it is filled, never what it holds.
export const secretShown = (filled) => (filled ? "[••••]" : "[ ]");
