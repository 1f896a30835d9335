// Text that is in a conversation's record yet not on the screen: what the panel draws as
// nothing, or in another order. An imported memory agreeing with its events letter for letter
// (imported-memory.js) still hides words if those letters never show: written in invisible
// characters (Unicode's tag characters, "ASCII smuggling"; bytes in variation selectors),
// turned around by bidirectional controls, or, in a reply the panel renders as Markdown, put
// in an HTML comment, raw HTML (which the sanitizer may drop with its content) or a link
// reference definition. A real reply rarely holds any of these outside code; one that does is
// treated as hiding something, which costs that memory, never the user's sight.

import { HIDING, LONE_SHOWS, UNSEEN } from "../wire.js";

const hex = (code) => code.toString(16).toUpperCase().padStart(4, "0");
const characterClass = (ranges) => `[${ranges.map(([first, last]) => `\\u{${hex(first)}}-\\u{${hex(last)}}`).join("")}]`;

// The characters that hide words (tabagent/unseen.py HIDING, the list page text loses them by:
// tag characters, variation selectors, bidi embeddings, overrides, isolates), but for one
// variation selector alone, which is how an emoji is written: two or more in a row hide.
const isLone = ([first, last]) => first === LONE_SHOWS[0] && last === LONE_SHOWS[1];
const HIDING_CHARACTERS = new RegExp(`${characterClass(HIDING.filter((range) => !isLone(range)))}|${characterClass([LONE_SHOWS])}{2,}`, "u");

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
const UNSEEN_CHARACTER = new RegExp(characterClass(UNSEEN), "gu");
const isUnseen = (code) => UNSEEN.some(([first, last]) => first <= code && code <= last);

export function shown(text) {
  return String(text ?? "").replace(UNSEEN_CHARACTER, (character) => `⟨U+${hex(character.codePointAt(0))}⟩`);
}

// `shown` undone: each ⟨U+…⟩ of a character that draws nothing is that character again (an
// edited text that was shown written out, kept as it was; a written-out letter stays text).
export function unshown(text) {
  return String(text ?? "").replace(/⟨U\+([0-9A-F]{4,6})⟩/g, (written, code) => {
    const point = parseInt(code, 16);
    return isUnseen(point) && !(point >= 0xD800 && point <= 0xDFFF) ? String.fromCodePoint(point) : written;
  });
}

// `shown`, and at most `limit` characters of it (a name may be a sentence).
export function shownWithin(text, limit) {
  const visible = shown(text);
  return visible.length <= limit ? visible : `${visible.slice(0, limit - 1)}…`;
}
