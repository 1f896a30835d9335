// One control in words, for list_controls' line: its value exactly as the page holds it, its
// state, a drop-down list's options, and for a control with no name, what it shows.
//
// A value is shown whole up to VALUE_CHARS characters, never squashed: spaces at its ends are
// kept and said (an exact answer may end in one), line breaks are written \n (so a value
// cannot write a control line of its own). A longer value says how much of it is shown.
// Names and options are squashed to a line.

import { squash, truncate } from "./snippets.js";
import { isSecretField } from "./secret-fields.js";

const VALUE_CHARS = 500;
export const OPTIONS_SHOWN = 100; // a select's options named in its line, and in an error (gestures.js)
const OPTION_CHARS = 60;
const NEAR_CHARS = 40;
const NO_VALUE_INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset", "image", "file"]);
// Every character a reader may take for the end of a line: a value never starts a line of its own.
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
const VALUE_ROLES = new Set(["combobox", "textbox", "searchbox", "slider", "spinbutton"]);

const quoted = (text, max) => `“${truncate(squash(text), max).text}”`;

// `= “value”`, exact, with what a reader could miss said after it.
function exactValue(raw) {
  const text = String(raw);
  const shown = text.slice(0, VALUE_CHARS).replace(LINE_BREAK, "\\n").replace(/\t/g, "\\t");
  const words = [`= “${shown}${text.length > VALUE_CHARS ? "…" : ""}”`];
  if (text.length > VALUE_CHARS) words.push(`(the first ${VALUE_CHARS} of ${text.length} characters)`);
  const edges = [/^\s+/.exec(text)?.[0].length, /\s+$/.exec(text)?.[0].length];
  const spaces = (n) => `${n} space${n === 1 ? "" : "s"}`;
  if (edges[0] && text.trim()) words.push(`(starts with ${spaces(edges[0])})`);
  if (edges[1] && text.trim() && text.length <= VALUE_CHARS) words.push(`(ends with ${spaces(edges[1])})`);
  return words;
}

function selectWords(el) {
  const words = [];
  const chosen = [...el.selectedOptions].map((o) => quoted(o.text, OPTION_CHARS));
  if (chosen.length) words.push(`= ${chosen.join(", ")}`);
  const all = [...el.options];
  const names = all.slice(0, OPTIONS_SHOWN).map((o) => quoted(o.text, OPTION_CHARS) + (o.disabled ? " (disabled)" : ""));
  const more = all.length > OPTIONS_SHOWN ? `, and ${all.length - OPTIONS_SHOWN} more` : "";
  const several = el.multiple ? "; several may be chosen" : "";
  words.push(`(${all.length} option${all.length === 1 ? "" : "s"}${all.length ? ": " : ""}${names.join(", ")}${more}${several})`);
  return words;
}

function valueWords(el) {
  const tag = el.localName;
  if (tag === "select") return selectWords(el);
  if ((tag === "input" && !NO_VALUE_INPUTS.has(el.type)) || tag === "textarea") {
    if (!el.value) return [];
    return isSecretField(el) ? ["= “•••”"] : exactValue(el.value);
  }
  if (el.isContentEditable && squash(el.innerText)) return isSecretField(el) ? ["= “•••”"] : exactValue(el.innerText.replace(/\n$/, ""));
  if (VALUE_ROLES.has(el.getAttribute("role"))) {
    const value = el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow") ?? squash(el.textContent);
    if (squash(value)) return exactValue(value);
  }
  return [];
}

function stateWords(el) {
  const words = [];
  const aria = (name) => el.getAttribute(`aria-${name}`);
  if (el.checked === true || aria("checked") === "true" || aria("pressed") === "true") words.push("checked");
  else if (aria("checked") === "mixed") words.push("partly checked");
  if (aria("selected") === "true" || aria("current") === "true") words.push("selected");
  if (aria("expanded") === "true") words.push("expanded");
  else if (aria("expanded") === "false" || (el.localName === "summary" && !el.parentElement?.open)) words.push("collapsed");
  if (el.disabled || aria("disabled") === "true") words.push("disabled");
  if (el.readOnly || aria("readonly") === "true") words.push("read-only");
  if (el.required || aria("required") === "true") words.push("required");
  if (aria("invalid") === "true" || (el.validity && !el.validity.valid && el.value)) words.push("invalid");
  return words;
}

// "rgb(231, 76, 60)" -> "#e74c3c"; null for a colour one cannot see (transparent).
function hex(color) {
  const parts = (color || "").match(/[\d.]+/g)?.map(Number);
  if (!parts || parts.length < 3 || (parts.length > 3 && parts[3] < 0.05)) return null;
  return "#" + parts.slice(0, 3).map((c) => Math.round(c).toString(16).padStart(2, "0")).join("");
}

// The file a picture comes from, without its folder and extension ("flag-fr"); none for data.
function pictureName(url) {
  if (!url || url === "none") return null;
  const match = /url\(["']?([^"')]+)/.exec(url) ?? [null, url];
  if (!match[1] || match[1].startsWith("data:")) return null;
  const file = match[1].split(/[?#]/)[0].split("/").pop();
  return squash(decodeURIComponent(file.replace(/%(?![0-9a-f]{2})/gi, "%25")).replace(/\.\w+$/, "")) || null;
}

// The text next to an element: its siblings', then its parent's siblings'.
function nearbyText(el) {
  for (let at = el, level = 0; at && level < 2; at = at.parentElement, level++) {
    for (const side of ["previousSibling", "nextSibling"]) {
      for (let node = at[side]; node; node = node[side]) {
        const text = squash(node.textContent);
        if (text) return text.length <= NEAR_CHARS ? text : null;
      }
    }
  }
  return null;
}

// "3rd of 9 alike": where an element stands among its like siblings (a board's cells).
function placeInRun(el) {
  const classes = el.getAttribute("class");
  const alike = [...el.parentElement?.children ?? []].filter((c) => c.localName === el.localName && c.getAttribute("class") === classes);
  if (alike.length < 2) return null;
  const n = alike.indexOf(el) + 1;
  const suffix = n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th";
  return `${n}${suffix} of ${alike.length} alike`;
}

// What a control with no name shows, from the DOM and its styles alone (never the pixels of a
// picture): its colour, the picture file or icon it shows, the text beside it.
function lookWords(el) {
  const style = el.ownerDocument.defaultView.getComputedStyle(el);
  const looks = [];
  const colour = hex(style.backgroundColor);
  if (colour) looks.push(`coloured ${colour}`);
  const icon = el.querySelector?.("use")?.getAttribute("href")?.replace(/^#/, "");
  const picture = pictureName(el.localName === "img" ? el.currentSrc || el.src : style.backgroundImage) || icon;
  if (picture) looks.push(`shows “${truncate(picture, OPTION_CHARS).text}”`);
  const run = placeInRun(el);
  if (run) looks.push(run);
  const near = nearbyText(el);
  if (near) looks.push(`beside “${near}”`);
  return looks.length ? `(no name; ${looks.join("; ")})` : "(no name)";
}

export { valueWords, stateWords, lookWords };
