// Text that is in a conversation's record yet not on the screen: what the panel draws as
// nothing, or in another order. An imported memory agreeing with its events letter for letter
// (imported-memory.js) still hides words if those letters never show: written in invisible
// characters (Unicode's tag characters, "ASCII smuggling"; bytes in variation selectors),
// turned around by bidirectional controls, or, in a reply the panel renders as Markdown, put
// in an HTML comment, raw HTML (which the sanitizer may drop with its content) or a link
// reference definition. A real reply rarely holds any of these outside code; one that does is
// treated as hiding something, which costs that memory, never the user's sight.

import { UNSEEN } from "../wire.js";

// Tag characters, the variation-selector supplement, two or more variation selectors in a row
// (one after an emoji is how emoji are written), and the bidi embeddings, overrides, isolates.
// eslint-disable-next-line no-misleading-character-class -- the class is of the selectors themselves, counted in a row
const HIDING_CHARACTERS = /[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]|[\uFE00-\uFE0F]{2,}|[\u202A-\u202E\u2066-\u2069]/u;

// In Markdown: an HTML comment, a raw tag (not an autolink such as <https://…>), a link
// reference definition, or a numeric character reference (which could write any of the above).
const HIDING_MARKDOWN = /<!--|<\/?[A-Za-z][A-Za-z0-9-]*(?=[\s/>])|^ {0,3}\[[^\]\n]+\]:|&#/m;

// Code is shown as written, markup and all.
const CODE = /^ {0,3}(`{3,}|~{3,})[\s\S]*?(^ {0,3}\1|(?![\s\S]))|`+[^`]*`+/gm;

// Whether some of `text` would not show, where the panel shows it as plain text (the user's
// message, a tool's call and result).
export function hidesText(text) {
  return HIDING_CHARACTERS.test(text);
}

// The same for the model's reply, which the panel renders as Markdown.
export function markdownHidesText(text) {
  return hidesText(text) || HIDING_MARKDOWN.test(text.replace(CODE, ""));
}

// The one rule wherever the user is shown what the model reads or what will run (a question
// before an action, an MCP tool's description and parameters, a server's prompt put in the
// message box): every character that draws nothing is written out, as ⟨U+E0041⟩. The list is
// Python's (tabagent/unseen.py, through wire.js), which writes out what the model is told the
// same way, so the two read the same text.
const hex = (code) => code.toString(16).toUpperCase().padStart(4, "0");
const UNSEEN_CHARACTER = new RegExp(`[${UNSEEN.map(([first, last]) => `\\u{${hex(first)}}-\\u{${hex(last)}}`).join("")}]`, "gu");

export function shown(text) {
  return String(text ?? "").replace(UNSEEN_CHARACTER, (character) => `⟨U+${hex(character.codePointAt(0))}⟩`);
}

// `shown`, and at most `limit` characters of it (a name may be a sentence).
export function shownWithin(text, limit) {
  const visible = shown(text);
  return visible.length <= limit ? visible : `${visible.slice(0, limit - 1)}…`;
}
