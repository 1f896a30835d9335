// Math in the model's Markdown, rendered by KaTeX: $$…$$ and \[…\] as blocks, $…$ and \(…\)
// inline. A dollar amount ("$5 and $10") is not math: an inline $…$ must not start or end
// with a space. Bad TeX shows as red source text, never as an exception.

import katex from "../vendor/katex/katex.mjs";

function render(tex, displayMode) {
  return katex.renderToString(tex, { displayMode, throwOnError: false, output: "htmlAndMathml" });
}

const blockMath = {
  name: "blockMath",
  level: "block",
  start: (src) => src.match(/\$\$|\\\[/)?.index,
  tokenizer(src) {
    const match = /^(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])(?:\n|$)/.exec(src);
    if (match) return { type: "blockMath", raw: match[0], tex: (match[1] ?? match[2]).trim() };
  },
  renderer: (token) => `<div class="math-block">${render(token.tex, true)}</div>\n`,
};

const inlineMath = {
  name: "inlineMath",
  level: "inline",
  start: (src) => src.match(/\$|\\\(/)?.index,
  tokenizer(src) {
    const match = /^(?:\$(?!\s)([^$\n]+?)(?<!\s)\$(?!\d)|\\\((.+?)\\\))/.exec(src);
    if (match) return { type: "inlineMath", raw: match[0], tex: match[1] ?? match[2] };
  },
  renderer: (token) => render(token.tex, false),
};

export const mathExtension = { extensions: [blockMath, inlineMath] };
