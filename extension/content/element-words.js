// An element in words a person (and the model) can follow: whether it shows, what kind of thing
// it is, its accessible name, and a one-line description.

import { squash, truncate } from "./snippets.js";
import { isSecretField } from "./secret-fields.js";

function isVisible(el) {
  if (!el.isConnected) return false;
  if (el.checkVisibility) return el.checkVisibility({ visibilityProperty: true });
  return el.getClientRects().length > 0;
}

const TEXT_INPUTS = new Set(["", "text", "search", "email", "url", "tel", "password", "number"]);
const VALUE_INPUTS = { date: "date field", time: "time field", "datetime-local": "date and time field", month: "month field",
  week: "week field", range: "slider", color: "colour picker", file: "file field" };

// What kind of thing an element is, in the user's words.
function roleOf(el) {
  return roleByMarkup(el) ?? (el.isContentEditable ? "editable area" : el.localName);
}

const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

// The role an element's tag and attributes give it, or null: then it is an editable area or its tag.
function roleByMarkup(el) {
  const own = el.getAttribute("role");
  if (own) return own;
  const tag = el.localName;
  if (tag === "a") return el.hasAttribute("href") ? "link" : null;
  if (tag === "button") return "button";
  if (tag === "input") {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (["button", "submit", "reset", "image"].includes(type)) return "button";
    if (type === "checkbox") return "checkbox";
    if (type === "radio") return "radio button";
    if (type === "password") return "password field";
    if (TEXT_INPUTS.has(type)) return "text field";
    if (Object.hasOwn(VALUE_INPUTS, type)) return VALUE_INPUTS[type];
    return null;
  }
  if (tag === "textarea") return "text area";
  if (tag === "select") return "drop-down list";
  if (tag === "img") return "image";
  if (HEADINGS.has(tag)) return "heading";
  return null;
}

// roleOf(el) === role, asked of every element of a page (places.js): from the markup alone where
// it decides, as it does for all but an element with no role of its own. isContentEditable is read
// only of those, and only when the role asked is an editable area or their tag: it is a style
// lookup, and read of every element it was most of a walk over the page (10,000 elements).
function hasRole(role) {
  return (el) => {
    const byMarkup = roleByMarkup(el);
    if (byMarkup) return byMarkup === role;
    if (role === "editable area") return el.isContentEditable;
    return el.localName === role && !el.isContentEditable;
  };
}

// A field's labels, as `el.labels` gives them: a label naming its id, or one around it. Not
// `el.labels` itself: Chromium walks the whole page for it, 0.3 ms a field on a page of 10,000
// elements, which made naming a page's buttons take most of a second.
const LABELABLE = new Set(["button", "input", "meter", "output", "progress", "select", "textarea"]);

function labelsOf(el) {
  if (!LABELABLE.has(el.localName)) return el.labels ? [...el.labels] : []; // a form-associated custom element
  const root = el.getRootNode();
  const naming = el.id && root.querySelectorAll ? [...root.querySelectorAll("label[for]")].filter((l) => l.htmlFor === el.id) : [];
  const around = el.closest("label");
  return [...new Set([...naming, around])].filter((l) => l?.control === el);
}

// Roles whose name is the author's alone (WAI-ARIA "name from: author"): a tab list or a menu is
// not named by all its items' text run together ("Section #2 Submit"), which reads like one of
// them and was clicked for it.
const NAMED_BY_AUTHOR = new Set(["tablist", "menu", "menubar", "listbox", "grid", "tree", "treegrid", "radiogroup",
  "toolbar", "tabpanel", "table"]);

// The accessible name, approximately: what a screen reader would announce.
function nameOf(el) {
  const doc = el.ownerDocument;
  const fromContent = !NAMED_BY_AUTHOR.has(el.getAttribute("role") || "");
  const labelledBy = () => (el.getAttribute("aria-labelledby") || "")
    .split(/\s+/).map((id) => id && doc.getElementById(id)?.textContent).filter(Boolean).join(" ");
  // Each source read only when those before it say nothing: the text of an element is not laid out
  // for one with an aria-label, nor its icons looked for when it has text (a page's buttons are
  // named twice per action: the question's place and the action's, places.js).
  const name = squash(el.getAttribute("aria-label")) || squash(labelledBy()) || squash(labelsOf(el).map((l) => l.textContent).join(" "))
    || squash(el.getAttribute("placeholder")) || squash(el.getAttribute("alt"))
    || squash(el.localName === "input" && el.hasAttribute("value") && !isSecretField(el) ? el.getAttribute("value") : "")
    || (fromContent ? squash(el.innerText ?? el.textContent) || squash(imageText(el)) : "")
    || squash(el.getAttribute("title")) || squash(el.getAttribute("name")) || "";
  return truncate(stepName(el, name), 80).text;
}

// A previous or next arrow (a date picker's month arrows, a carousel's, a pager's), told by
// what it shows or what the page calls it: only an arrow glyph for text, or the word in its
// class, id, aria-label, title or rel, with no other text than an arrow or that word.
const ARROWS = /^(?:[‹«◀◁◂⏴⯇←⟨❮〈<]+|[›»▶▷▸⏵⯈→⟩❯〉>]+)$/u;
const BACKWARD = /^[‹«◀◁◂⏴⯇←⟨❮〈<]/u;
const STEP_WORDS = { prev: "previous", previous: "previous", next: "next" };
const STEP_TEXT = /^(?:[^\p{L}\p{N}]*)(prev|previous|next)(?:[^\p{L}\p{N}]*)$/iu;

function stepOf(el) {
  const text = squash(el.textContent);
  if (text && ARROWS.test(text)) return BACKWARD.test(text) ? "previous" : "next";
  if (text && !STEP_TEXT.test(text)) return null;
  for (const attribute of ["class", "id", "aria-label", "title", "rel"]) {
    const words = (el.getAttribute(attribute) || "").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z]+/);
    const step = words.map((word) => STEP_WORDS[word]).find(Boolean);
    if (step) return step;
  }
  return text ? STEP_WORDS[STEP_TEXT.exec(text)[1].toLowerCase()] : null;
}

// An arrow's name says which way it goes: "Previous (‹)" for a glyph, "Next" for an icon the
// page named only in its class.
function stepName(el, name) {
  if (name && !ARROWS.test(name)) return name;
  const step = stepOf(el);
  if (!step) return name;
  const word = step[0].toUpperCase() + step.slice(1);
  return name ? `${word} (${name})` : word;
}

// A link or button that holds only an image or an icon is named by what the page says of it:
// the image's alt text or title, the icon's aria-label or title, an SVG's <title>.
const ICON_NAMES = "img[alt], img[title], [role=img][aria-label], svg[aria-label], svg title, i[aria-label], i[title], span[aria-label], span[title]";
function imageText(el) {
  const named = el.localName === "svg" ? [el.querySelector("title")] : [...el.querySelectorAll(ICON_NAMES)];
  return named.map((icon) => icon && (icon.localName === "title" ? icon.textContent
    : icon.getAttribute("aria-label") || icon.getAttribute("alt") || icon.getAttribute("title"))).filter(Boolean).join(" ");
}

// A structured description plus a one-line summary, e.g. button “Subscribe”.
function describe(el) {
  const role = roleOf(el);
  const name = nameOf(el);
  const info = { tag: el.localName, role, name };
  if (el.href && typeof el.href === "string") info.href = el.href;
  const frame = el.ownerDocument.defaultView?.frameElement;
  if (frame) info.frame_url = el.ownerDocument.URL;
  info.summary = name ? `${role} “${name}”` : role;
  if (frame) info.summary += " (inside a frame)";
  return info;
}

export { isVisible, roleOf, hasRole, nameOf, describe, stepOf };
