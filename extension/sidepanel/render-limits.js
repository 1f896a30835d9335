// How much rendering one piece of an answer may cost, and what is shown past that: the
// text itself, as plain text, with a note. The answer is untrusted (a page may have steered
// the model), and one hostile block must not freeze the panel or make a conversation
// unviewable: ten thousand nested quotes overflow the parser's stack, a 2 KB TeX macro
// expands into hundreds of thousands of elements.

import { t } from "../shared/ui/i18n.js";

export const LIMITS = {
  nesting: 16, // quotes, lists, emphasis inside each other; people read a handful
  emphasisMarks: 1_000, // *, _ and ~ in one paragraph (a bold word takes four)
  htmlNesting: 64, // HTML elements an answer writes inside each other in one block
  blockElements: 20_000, // elements one rendered block may hold (a long table fits)
  highlightChars: 20_000, // longer code is shown without colours
  texChars: 4_000, // one formula's source
  texNesting: 64, // braces, \left and \begin inside each other in one formula
  texElements: 10_000, // elements one rendered formula may hold (a 10×10 matrix of fractions: 3,400)
  texExpansions: 500, // KaTeX's macro expansions per formula
  texMilliseconds: 3_000, // a formula still rendering then is stopped (off the main thread)
};

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

// The fallback as HTML, for the Markdown renderer to put where the block would have been.
export function plainTextHtml(text, { inline = false } = {}) {
  const note = `<span class="render-limit-note">${escapeHtml(t("shownAsText"))}</span>`;
  if (inline) return `<span class="render-limit inline"><code class="render-limit-text">${escapeHtml(text)}</code> ${note}</span>`;
  return `<div class="render-limit"><pre class="render-limit-text">${escapeHtml(text)}</pre>${note}</div>\n`;
}

// The fallback as an element, for what failed after it was rendered.
export function plainTextElement(text, options) {
  const template = document.createElement("template");
  template.innerHTML = plainTextHtml(text, options);
  return template.content.firstElementChild;
}

// How deep braces, \left…\right and \begin…\end go in a formula: cheap, before KaTeX sees it.
export function texNesting(tex) {
  let depth = 0;
  let deepest = 0;
  for (const match of tex.matchAll(/\\(?:left|begin)\b|\\(?:right|end)\b|\\[{}]|[{}]/g)) {
    const token = match[0];
    if (token === "\\{" || token === "\\}") continue; // literal braces
    if (token === "{" || token.startsWith("\\left") || token.startsWith("\\begin")) deepest = Math.max(deepest, ++depth);
    else depth = Math.max(0, depth - 1);
  }
  return deepest;
}

// Elements that never hold others, so never nest.
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

// The tags in HTML an answer writes: [name, closing] of each, elements that never hold others left out.
function* tags(text) {
  if (!text.includes("<")) return;
  for (const [, closing, name, selfClosing] of text.matchAll(/<(\/?)([a-z][a-z0-9-]*)\b[^<>]*?(\/?)>/gi)) {
    if (!VOID.has(name.toLowerCase()) && !selfClosing) yield [name, Boolean(closing)];
  }
}

// How deep the HTML tags a block writes go: cheap, before the sanitiser parses them (ten
// thousand nested <div> cost it a third of a second, and the layout as much again).
export function htmlNesting(text) {
  let depth = 0;
  let deepest = 0;
  for (const [, closing] of tags(text)) {
    if (closing) depth = Math.max(0, depth - 1);
    else deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}

// How many elements are still open after `text`, `open` being open before it.
export function htmlLeftOpen(text, open = 0) {
  for (const [, closing] of tags(text)) open = closing ? Math.max(0, open - 1) : open + 1;
  return open;
}
