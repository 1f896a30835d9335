// Shared helpers for the page tools: the error type tools throw, caps, text clean-up and
// describing an element in words a person (and the model) can follow.

// An error whose message is written for the user; run() passes it through unchanged.
export class PageToolError extends Error {}

// Hard ceilings, whatever the caller asks for: results travel through structured clone
// to the service worker and then into a model's context.
export const LIMITS = { results: 500, chars: 200000, cellChars: 1000, contextChars: 2000 };

const clamp = (n, lo, hi) => Math.max(lo, Math.min(hi, Math.floor(n)));

// Collapse runs of whitespace (including newlines) so snippets read as one line.
// (A lone space is left as it is rather than replaced by another: read_page squashes the
// text of every block several times, and most of its whitespace is lone spaces.)
const squash = (text) => (text || "").replace(/\s{2,}|[^\S ]/g, " ").trim();

// Cut `text` to `max` characters; `cut` tells whether anything was dropped.
function truncate(text, max) {
  return text.length <= max ? { text, cut: false } : { text: text.slice(0, max) + "…", cut: true };
}

// The last / first `max` characters of a context snippet, without a half word at the cut.
function tail(text, max) {
  const s = squash(text);
  if (s.length <= max) return s;
  const cut = s.slice(s.length - max);
  return /\s/.test(s[s.length - max - 1]) ? cut : cut.replace(/^\S*\s*/, "");
}
function head(text, max) {
  const s = squash(text);
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  return /\s/.test(s[max]) ? cut.trimEnd() : cut.replace(/\s*\S*$/, "");
}

// Keep at most `max` items, with a note saying how many there were and how to get more.
function cap(items, max, what, hint) {
  if (items.length <= max) return { items, note: undefined };
  return { items: items.slice(0, max), note: `Showing ${max} of ${items.length} ${what}; ${hint}.` };
}

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
  const tag = el.localName;
  const type = (el.getAttribute("type") || "").toLowerCase();
  if (el.getAttribute("role")) return el.getAttribute("role");
  if (tag === "a" && el.hasAttribute("href")) return "link";
  if (tag === "button" || (tag === "input" && ["button", "submit", "reset", "image"].includes(type))) return "button";
  if (tag === "input" && type === "checkbox") return "checkbox";
  if (tag === "input" && type === "radio") return "radio button";
  if (tag === "input" && type === "password") return "password field";
  if (tag === "input" && TEXT_INPUTS.has(type)) return "text field";
  if (tag === "input" && Object.hasOwn(VALUE_INPUTS, type)) return VALUE_INPUTS[type];
  if (tag === "textarea") return "text area";
  if (tag === "select") return "drop-down list";
  if (tag === "img") return "image";
  if (/^h[1-6]$/.test(tag)) return "heading";
  if (el.isContentEditable) return "editable area";
  return tag;
}

// The accessible name, approximately: what a screen reader would announce.
function nameOf(el) {
  const doc = el.ownerDocument;
  const labelledBy = (el.getAttribute("aria-labelledby") || "")
    .split(/\s+/).map((id) => id && doc.getElementById(id)?.textContent).filter(Boolean).join(" ");
  const labels = el.labels ? [...el.labels].map((l) => l.textContent).join(" ") : "";
  const candidates = [
    el.getAttribute("aria-label"), labelledBy, labels, el.getAttribute("placeholder"),
    el.getAttribute("alt"), el.localName === "input" ? el.getAttribute("value") : "",
    el.innerText ?? el.textContent, imageText(el), el.getAttribute("title"), el.getAttribute("name"),
  ];
  const name = candidates.map(squash).find(Boolean) || "";
  return truncate(name, 80).text;
}

// A link or button that holds only an image is named by the image's alt text.
const imageText = (el) => [...el.querySelectorAll("img[alt]")].map((img) => img.alt).join(" ");

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

// Read a tool's arguments against its parameter list: unknown names and wrong types are
// refused with a sentence naming the parameter, so a Python/JS contract drift shows up
// as a clear error instead of a silently ignored argument.
const REQUIRED = Symbol("required");
function readArgs(toolName, params, args) {
  if (args == null) args = {};
  if (typeof args !== "object" || Array.isArray(args)) {
    throw new PageToolError(`${toolName} takes its arguments as an object of named values.`);
  }
  const names = Object.keys(params);
  for (const key of Object.keys(args)) {
    if (!names.includes(key)) {
      throw new PageToolError(`${toolName} has no argument “${key}”; it takes: ${names.join(", ") || "nothing"}.`);
    }
  }
  const out = {};
  for (const [key, spec] of Object.entries(params)) {
    const value = args[key];
    const { type, def } = spec;
    if (value == null) {
      if (def === REQUIRED) throw new PageToolError(`${toolName} needs “${key}” (${type}).`);
      out[key] = def;
      continue;
    }
    const ok = type === "any" || (type === "array" ? Array.isArray(value) : typeof value === type);
    if (!ok || (type === "number" && !Number.isFinite(value))) {
      throw new PageToolError(`${toolName}: “${key}” should be a ${type}, not ${JSON.stringify(value)}.`);
    }
    out[key] = value;
  }
  return out;
}
// A parameter: arg("number", 20) has a default, arg("string", null) is optional,
// arg("string") is required. Types: typeof names, "array", or "any".
const arg = (type, def = REQUIRED) => ({ type, def });

export { clamp, squash, truncate, tail, head, cap, isVisible, nameOf, describe, readArgs, arg };
