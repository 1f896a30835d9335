// Math in the model's Markdown: $$…$$ and \[…\] as blocks, $…$ and \(…\) inline. A dollar
// amount ("$5 and $10") is not math: an inline $…$ must not start or end with a space.
// KaTeX runs in a worker (formulas.js): a formula shows as its source until it is rendered,
// and as plain text with a note when it is too large to render.

import { formulaHtml } from "./formulas.js";

// Where inline math may start, for marked to stop plain text there. marked asks at every
// inline token with all the text left: searching all of it each time costs the square of
// its length, so only a window is searched, and its end is named when it holds no math
// (marked goes on from there, joining the text). Not for blocks: marked would put a line
// break where a paragraph was cut.
const WINDOW = 2_000;

function nextStart(src, pattern) {
  const index = src.slice(0, WINDOW + 2).search(pattern); // a "$$" across the window's end too
  return index >= 0 ? index : src.length > WINDOW ? WINDOW : undefined;
}

const blockMath = {
  name: "blockMath",
  level: "block",
  start: (src) => src.match(/\$\$|\\\[/)?.index,
  tokenizer(src) {
    const match = /^(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])(?:\n|$)/.exec(src);
    if (match) return { type: "blockMath", raw: match[0], tex: (match[1] ?? match[2]).trim() };
  },
  renderer: (token) => `<div class="math-block">${formulaHtml(token.tex, true)}</div>\n`,
};

const inlineMath = {
  name: "inlineMath",
  level: "inline",
  start: (src) => nextStart(src, /\$|\\\(/),
  tokenizer(src) {
    const match = /^(?:\$(?!\s)([^$\n]+?)(?<!\s)\$(?!\d)|\\\((.+?)\\\))/.exec(src);
    if (match) return { type: "inlineMath", raw: match[0], tex: match[1] ?? match[2] };
  },
  renderer: (token) => formulaHtml(token.tex, false),
};

export const mathExtension = { extensions: [blockMath, inlineMath] };
