// A long answer lexed a window at a time: marked lexes a megabyte in one go in about 200 ms,
// and the panel must never block that long. Each window's tokens are kept up to a blank line
// that has a whole block after it (one more token follows that block); the next window starts
// there. Where a block ends depends on no more than the first line after its blank lines
// (another list item, indented code going on), so what is kept is what lexing the whole text
// gives. The window's last blocks may go on past it (a list, a table, an unclosed fence or
// HTML block runs to the window's end, a cut line may turn out to be a list item): they are
// lexed again with the next window.
//
// Each window is rendered and cleaned by the sanitiser on its own, so HTML an answer opens in
// one window and closes in a later one (a <details> around paragraphs) would be closed at the
// window's end: the windows until it closes are handed out as one piece.
//
// Two things let a block depend on text far from it, and a text that may hold either is
// lexed whole: a reference link's definition may come after the link, and an HTML <a> left
// open turns off the bare addresses of every later block.

import { htmlLeftOpen } from "./render-limits.js";

// A line that may define a link ("[label]: url"), inside quotes and list items too: every
// definition matches, and a few lines that are not one do.
const MAY_DEFINE_A_LINK = /^[ \t>*+\-\d.)]*\[(?:\\[\s\S]|[^[\]\\])*\]:/m;
const OPENS_A_LINK = /<a /i; // how marked notices an HTML link starting

export class WindowedLexer {
  // `lex` turns Markdown into marked's tokens (a list with its `links`).
  constructor(markdown, lex) {
    this.text = String(markdown).replace(/\r\n|\r/g, "\n"); // as marked's lexer does first
    this.lex = lex;
    this.offset = 0; // where the text not lexed yet starts
    this.open = 0; // HTML elements the answer opened and has not closed yet
    this.piece = []; // finished tokens waiting for the HTML left open in them to close
    this.grown = 0; // the next window's length, when the last one had no finished block
    this.links = {};
    this.whole = MAY_DEFINE_A_LINK.test(this.text) || OPENS_A_LINK.test(this.text);
  }

  get done() {
    return this.offset >= this.text.length;
  }

  // The tokens of the next piece, of about `size` characters: blocks that are finished
  // whatever comes after them. A block or an HTML element longer than that takes more: the
  // window doubles, in the same call when `atOnce` is set (the first piece of an answer, so
  // that it shows at once), else at the next call (so that no task lexes more than twice
  // the block), and until then there is no piece (null).
  next(size, { atOnce = false } = {}) {
    for (;;) {
      const tokens = this.nextWindow(size);
      if (tokens) this.piece = this.piece.length ? this.piece.concat(tokens) : tokens;
      if (tokens && (this.open === 0 || this.done)) {
        const piece = Object.assign(this.piece, { links: this.links });
        this.piece = [];
        return piece;
      }
      if (!atOnce) return null;
    }
  }

  // One lex: the finished blocks of a window, or null when there are none yet.
  nextWindow(size) {
    const length = this.whole ? Infinity : Math.max(size, this.grown);
    const part = this.text.slice(this.offset, this.offset + length);
    const tokens = this.lex(part);
    const last = this.offset + part.length >= this.text.length;
    const kept = last ? tokens : finishedBlocks(tokens, part);
    if (!kept) {
      this.grown = length * 2;
      return null;
    }
    this.grown = 0;
    this.offset += last ? part.length : kept.reduce((sum, token) => sum + token.raw.length, 0);
    this.links = tokens.links;
    this.open = [...htmlIn(kept)].reduce((open, html) => htmlLeftOpen(html, open), this.open);
    return kept;
  }
}

// The HTML the tokens pass on as it is (blocks and tags inside text), in order.
function* htmlIn(tokens) {
  for (const token of tokens) {
    if (token.type === "html") yield token.text;
    if (token.tokens) yield* htmlIn(token.tokens);
    if (token.items) yield* htmlIn(token.items);
    for (const cell of [...(token.header ?? []), ...(token.rows ?? []).flat()]) yield* htmlIn(cell.tokens);
  }
}

// The tokens up to the last blank line that has a whole block after it, when their text is the
// start of `part` as it was (marked's tokens give back their text, but for a few merges
// that add a line break: then the window grows, and at the end the rest is lexed at once).
function finishedBlocks(tokens, part) {
  let end = tokens.length - 3; // a blank line, a block, and a token after that block
  while (end >= 0 && tokens[end].type !== "space") end -= 1;
  if (end < 0) return null;
  const kept = tokens.slice(0, end + 1);
  let at = 0;
  for (const { raw } of kept) {
    if (!part.startsWith(raw, at)) return null;
    at += raw.length;
  }
  return Object.assign(kept, { links: tokens.links });
}
