// What every page tool shares: the error it throws for the user, the ceilings on what it
// returns, and how it reads its arguments.

// An error whose message is written for the user; run() passes it through unchanged.
export class PageToolError extends Error {}

// A part the page does not have (read_page's page 3 of a one-part page, list_controls' page 4):
// `part` says it in numbers, the reply's no_such_part (wire.js NO_SUCH_PART: asked, parts, and
// part_tokens for text), from which Python writes TabAgent's own error (app/no_such_part.py).
export class NoSuchPart extends PageToolError {
  constructor(message, part) {
    super(message);
    this.part = part;
  }
}

// Hard ceilings, whatever the caller asks for: results travel through structured clone
// to the service worker and then into a model's context.
export const LIMITS = { results: 500, chars: 200000, cellChars: 1000, contextChars: 2000 };

const clamp = (n, lo, hi) => Math.max(lo, Math.min(hi, Math.floor(n)));

// Keep at most `max` items, with a note saying how many there were and how to get more.
function cap(items, max, what, hint) {
  if (items.length <= max) return { items, note: undefined };
  return { items: items.slice(0, max), note: `Showing ${max} of ${items.length} ${what}; ${hint}.` };
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

export { clamp, cap, readArgs, arg };
