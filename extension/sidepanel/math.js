// Math in the model's Markdown: $$…$$ and \[…\] as blocks, $…$ and \(…\) inline. A dollar
// amount ("$5 and $10") is not math: an inline $…$ must not start or end with a space.
// KaTeX runs in a worker (formulas.js): a formula shows as its source until it is rendered,
// and as plain text with a note when it is too large to render.

import { formulaHtml } from "./formulas.js";

// Where inline math may start, for marked to stop plain text there. marked asks at every
// inline token with all the text left, so searching all of it each time would cost the
// square of its length. The search stops where marked's plain text stops anyway (the next
// mark, link or address), and after a window, whose end is named when it holds no math
// (marked goes on from there, joining the text).
const WINDOW = 2_000;
const TEXT_ENDS = /\$|\\\(|[\\<![`*_~]|https?:\/\/|ftp:\/\/|www\./;

function inlineStart(src) {
  const found = TEXT_ENDS.exec(src.slice(0, WINDOW + 2)); // "\\(" across the window's end too
  if (!found) return src.length > WINDOW ? WINDOW : undefined;
  return found[0] === "$" || found[0] === "\\(" ? found.index : undefined;
}

// For blocks marked asks so that a paragraph stops before math: a paragraph ends at a blank
// line anyway, so the search stops there too (searching all the text left, at every block,
// would cost the square of its length).
function blockStart(src) {
  const found = /\$\$|\\\[|\n[ \t]*\n/.exec(src);
  return found && found[0][0] !== "\n" ? found.index : undefined;
}

const blockMath = {
  name: "blockMath",
  level: "block",
  start: blockStart,
  tokenizer(src) {
    const match = /^(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])(?:\n|$)/.exec(src);
    if (match) return { type: "blockMath", raw: match[0], tex: (match[1] ?? match[2]).trim() };
  },
  renderer: (token) => `<div class="math-block">${formulaHtml(token.tex, true)}</div>\n`,
};

const inlineMath = {
  name: "inlineMath",
  level: "inline",
  start: inlineStart,
  tokenizer(src) {
    const match = /^(?:\$(?!\s)([^$\n]+?)(?<!\s)\$(?!\d)|\\\((.+?)\\\))/.exec(src);
    if (match) return { type: "inlineMath", raw: match[0], tex: match[1] ?? match[2] };
  },
  renderer: (token) => formulaHtml(token.tex, false),
};

export const mathExtension = { extensions: [blockMath, inlineMath] };
