// read_page on a form or an app: a page a person works in rather than reads. Its words are
// short: a field's label, a slider's value shown beside it, the month a date picker shows,
// the letters in a box to copy, a status line, a display. The article's cleaning drops each
// of those as a label or a link list, and leaves nothing to act on; on such a page the reading
// is what a person sees, every short line of it, with each field showing its value.
//
// A page is a form or an app by general signals, measured on the visible copy (not by site
// or class names): no article on it (less prose, sentences with few links, than an article
// has, and no element the page marks as its article), and its own controls thick among its
// words (few characters of text per control; a menu's toggles and a search box in the site's
// navigation, header or footer are the site's, not the page's). An article's page with a comment
// form has more prose or marks its article, and has far more text per control.

import { squash } from "./snippets.js";
import { measure } from "./content-quality.js";
import { CONTENT_MARKERS, MIN_ARTICLE_CHARS } from "./main-content-cleaning.js";
import { secretShown } from "./secret-fields.js";

// At most this many characters of visible text per control, and at least this many controls.
const CHARS_PER_CONTROL = 120;
const MIN_CONTROLS = 1;

// What a person sets, and what a person presses.
const FIELDS = ["input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image])",
  "select", "textarea", "[contenteditable=''], [contenteditable=true]",
  ...["slider", "spinbutton", "textbox", "combobox", "checkbox", "radio", "switch", "listbox", "searchbox"].map((role) => `[role=${role}]`)];
// (What takes the keyboard's focus or declares a click handler, a custom widget's handle or a
// clickable cell, is pressed too.)
const PRESSED = ["button", "input[type=submit], input[type=button], input[type=reset], input[type=image]",
  ...["button", "tab", "menuitem", "option", "gridcell"].map((role) => `[role=${role}]`),
  "[tabindex]:not([tabindex^='-']):not(a), [onclick]:not(a)"];
const CONTROLS = [...FIELDS, ...PRESSED].join(", ");
// The site's chrome around the page, and where pages mark an article (the most specific of the
// content markers: not <main>, which an app has too).
const SITE_CHROME = ["nav, header, footer, aside",
  ...["navigation", "banner", "contentinfo", "complementary", "search", "menubar"].map((role) => `[role=${role}]`)].join(", ");
const ARTICLE_MARKED = CONTENT_MARKERS.slice(0, 3).join(", ");

// Never what a person reads on the page.
const NOT_SHOWN = "script, style, noscript, template, rt, rp";

// Whether the visible copy's `body` is a form or an app (as said at the top). (The cheap
// counts first: an article's page stops at its length, before its prose is measured.)
function isFormOrApp(body) {
  const controls = [...body.querySelectorAll(CONTROLS)].filter((el) => !el.closest(SITE_CHROME)).length;
  if (controls < MIN_CONTROLS || shownChars(body) > CHARS_PER_CONTROL * controls) return false;
  return !body.querySelector(ARTICLE_MARKED) && measure(body).prose < MIN_ARTICLE_CHARS;
}
function shownChars(body) {
  let chars = squash(body.textContent).length;
  for (const el of body.querySelectorAll(NOT_SHOWN)) chars -= squash(el.textContent).length;
  return chars;
}

// What a field shows, as a short bracketed text: "[vina]", "[ ]" when empty (or the hint it
// shows then: "[placeholder: From]"), "[x]" for a ticked box, "[March ▾]" for a list,
// "[slider: 42]". A password shows that it is filled, never what it holds: a person sees dots (the
// copy read marks every password field, however the page made it one: secret-fields.js).
function shownValue(el) {
  if (el.hasAttribute("data-tabagent-secret")) return secretShown(el.getAttribute("data-tabagent-secret") === "filled");
  if (el.localName === "select") return `[${[...el.selectedOptions].map((o) => squash(o.textContent)).join(", ") || " "} ▾]`;
  if (el.localName === "textarea") return typed(el.value.trim(), el.placeholder);
  if (el.localName === "progress" || el.localName === "meter") return el.hasAttribute("value") ? `[${el.localName}: ${el.value} of ${el.max}]` : `[${el.localName}]`;
  if (el.localName !== "input") return ariaValue(el);
  const type = el.type;
  if (type === "checkbox" || type === "radio") return el.checked ? "[x]" : "[ ]";
  if (type === "range") return `[slider: ${el.value}]`;
  if (type === "file") return "[file]"; // (the copy holds no file: cloning leaves the choice out)
  return TYPED.has(type) ? typed(el.value, el.placeholder) : null; // (a button's value is its label: kept as text)
}
const typed = (value, placeholder) => (value || !squash(placeholder) ? `[${value || " "}]` : `[placeholder: ${squash(placeholder)}]`);
const TYPED = new Set(["text", "search", "email", "url", "tel", "number", "date", "time", "datetime-local", "month", "week", "color"]);

// An ARIA widget's value, when it states one: "[slider: 42]", "[x]" for a ticked box.
function ariaValue(el) {
  const role = el.getAttribute("role");
  const checked = el.getAttribute("aria-checked");
  if (checked !== null && /^(checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/.test(role)) return checked === "true" ? "[x]" : "[ ]";
  const value = el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow");
  if (value !== null && /^(slider|spinbutton|progressbar|meter|scrollbar)$/.test(role)) return `[${role}: ${value}]`;
  return null;
}

const NATIVE = new Set(["input", "select", "textarea", "progress", "meter"]);
const VALUED = "input, select, textarea, progress, meter, [role][aria-checked], [role][aria-valuenow], [role][aria-valuetext]";

// The copy's body as the reading: nothing dropped for being short, each field in place of what
// it shows, an ARIA widget's value before its own text.
function reading(body) {
  for (const el of body.querySelectorAll(NOT_SHOWN)) el.remove();
  for (const el of [...body.querySelectorAll(VALUED)].reverse()) {
    const shown = shownValue(el);
    if (shown === null) {
      if (el.localName === "input" && el.value) el.replaceWith(` ${el.value} `);
    } else if (NATIVE.has(el.localName)) {
      el.replaceWith(` ${shown} `);
    } else {
      el.prepend(`${shown} `); // (an ARIA widget's own text is its label: "[x] Remember me")
    }
  }
  return body;
}

export { isFormOrApp, reading };
