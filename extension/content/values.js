// Inputs set by value rather than typed: date, time, datetime-local, month, week, number,
// range (a slider) and color. type_text gives them the value as text; it is checked first the
// way the browser itself would take it, so a value the field would reject (the wrong format, out
// of its min, max or step) is an error that names the format, never a field left silently empty.
// File inputs are never set: see fileRefused.

import { describe } from "./element-words.js";
import { PageToolError } from "./tool-arguments.js";

const FORMATS = {
  date: "a date as YYYY-MM-DD (like 2026-03-14)",
  time: "a time as HH:MM in 24 hours, or HH:MM:SS (like 09:30)",
  "datetime-local": "a date and time as YYYY-MM-DDTHH:MM (like 2026-03-14T09:30)",
  month: "a month as YYYY-MM (like 2026-03)",
  week: "a week as YYYY-Www (like 2026-W11)",
  number: "a number (like 42 or 3.5)",
  range: "a number (like 42 or 3.5)",
  color: "a colour as #rrggbb in hexadecimal (like #1e90ff)",
};
const NUMERIC = new Set(["number", "range"]);
const A_NUMBER = /^-?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?$/;

const takesValue = (el) => el.localName === "input" && Object.hasOwn(FORMATS, el.type);

// Why TabAgent chooses no file: the model would name a path on the user's disk, and the page
// would then read that file. Choosing what to upload is the user's, in the browser's own picker.
function fileRefused(el) {
  return new PageToolError(`The ${describe(el).summary} takes a file, and TabAgent never chooses files: the page would read whatever file the model named from your disk. Ask the user to choose the file themselves.`);
}

// A blank input of the same type and limits, given the value: what the browser makes of it.
function tried(el, text) {
  const probe = el.ownerDocument.createElement("input");
  probe.type = el.type;
  for (const name of ["min", "max", "step"]) if (el.hasAttribute(name)) probe.setAttribute(name, el.getAttribute(name));
  probe.value = text;
  return probe;
}

function limitsOf(el) {
  const parts = [];
  if (el.getAttribute("min")) parts.push(`from ${el.getAttribute("min")}`);
  if (el.getAttribute("max")) parts.push(`to ${el.getAttribute("max")}`);
  if (el.getAttribute("step") && el.getAttribute("step") !== "any") parts.push(`in steps of ${el.getAttribute("step")}`);
  return parts.length ? parts.join(" ") : "within the field's limits";
}

// The value as the field will hold it, or an error naming the format or the limits it breaks.
function checkedValue(el, text) {
  const wanted = String(text).trim();
  const probe = tried(el, wanted);
  const what = describe(el).summary;
  const numeric = NUMERIC.has(el.type);
  const understood = numeric ? A_NUMBER.test(wanted) : probe.value !== "" && probe.value.toLowerCase() === wanted.toLowerCase();
  if (!understood) throw new PageToolError(`The ${what} takes ${FORMATS[el.type]}; “${text}” is not one.`);
  // A slider moves an out-of-range value to the nearest it allows; the other types keep it as invalid.
  const moved = numeric && Number(probe.value) !== Number(wanted);
  const { rangeUnderflow, rangeOverflow, stepMismatch } = probe.validity;
  if (moved || rangeUnderflow || rangeOverflow || stepMismatch) {
    throw new PageToolError(`The ${what} takes ${FORMATS[el.type].replace(/ \(like .*\)$/, "")} ${limitsOf(el)}; “${text}” is outside them.`);
  }
  return numeric ? wanted : probe.value;
}

export { takesValue, fileRefused, checkedValue };
