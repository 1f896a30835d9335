// How much a part of the page reads as text: the measures main-content-choosing.js weighs its
// candidates with (Readability's article, the page's landmarks, the densest text region, the
// whole page), so that a class name never decides alone what the reader gets.
//
// Prose is what a reader came for: blocks of a sentence or more with few links. Chrome is
// the rest: menus, dates, link lists, labels. A candidate scores its prose less a share of its
// chrome; a page's whole text has all the prose but all the chrome too, and a sidebar has
// chrome only, so the densest region of prose wins.

import { squash } from "./snippets.js";
import { innermostWithText } from "./text-blocks.js";

// How long a line reads, in Latin characters: a Chinese, Japanese or Korean character says
// about as much as a short word (a 10-character Chinese line is a sentence, not a label).
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/g;
const CJK_WEIGHT = 3;
const readingLength = (text) => text.length + (CJK_WEIGHT - 1) * (text.match(CJK)?.length ?? 0);
const SENTENCE_END = /[.!?…"“”»«)。！？]$/;

const textLength = (el) => squash(el.textContent).length;
// The share of an element's text that is link text (`chars`: its textLength, when known).
function linkShare(el, chars) {
  const links = el.getElementsByTagName("a");
  if (!links.length) return 0;
  let linked = 0;
  for (const a of links) linked += textLength(a);
  return linked / Math.max(1, chars ?? textLength(el));
}

// Blocks of text with no block of text inside (an icon's empty <div> beside a label does
// not make the label's cell a container).
const TEXT_BLOCKS = "p, li, h1, h2, h3, h4, h5, h6, td, th, dt, dd, blockquote, div, section, header, label, pre, figure";
const BLOCK_INSIDE = "p, li, h1, h2, h3, h4, h5, h6, td, th, dt, dd, blockquote, div, section, header, label, pre, table, ul, ol, dl, figure, article, aside, main";
const hasText = (el) => /\S/.test(el.textContent);
const textBlocks = (root) => innermostWithText(root, TEXT_BLOCKS, BLOCK_INSIDE);

// A block is prose when it reads as a sentence or more (a sentence's length, ending like
// one) and is not mostly links. (The same length makes a lead, main-content-cleaning.js's LEAD_CHARS.)
const PROSE_CHARS = 80;
const MAX_PROSE_LINKS = 0.3;
const isProse = (el, text = squash(el.textContent)) =>
  readingLength(text) >= PROSE_CHARS && SENTENCE_END.test(text) && linkShare(el, text.length) < MAX_PROSE_LINKS;

// Chrome is text that is mostly links (menus, link lists), or a short line standing alone
// that ends no sentence (a date, a label, a row of a listing). A list item, a table cell or a
// heading is information, as are longer lines: neither prose nor chrome.
const MAX_INFO_LINKS = 0.5;
const SHORT_LINE = 50;
function kindOf(block, text) {
  if (isProse(block, text)) return "prose";
  if (linkShare(block, text.length) > MAX_INFO_LINKS) return "chrome";
  if (block.closest("li, td, th, dd, dt, h1, h2, h3, h4, h5, h6, pre") || readingLength(text) >= SHORT_LINE) return "info";
  return "chrome";
}

// textBlocks(root) in one walk up from each block with text, not a search inside each
// block: a whole page is measured on most reads.
function leafTextBlocks(root) {
  const blocks = [...root.querySelectorAll(BLOCK_INSIDE)].filter(hasText);
  const holders = new Set();
  for (const el of blocks) {
    for (let up = el.parentElement; up && up !== root && !holders.has(up); up = up.parentElement) holders.add(up);
  }
  return blocks.filter((el) => !holders.has(el) && el.matches(TEXT_BLOCKS));
}

// {prose, info, chrome} characters of each text block of `root`, added up into every
// ancestor up to `root` (one pass, so the densest region of a large page costs one walk).
function measureTree(root) {
  const sums = new Map();
  for (const block of leafTextBlocks(root)) {
    const text = squash(block.textContent);
    const kind = kindOf(block, text);
    for (let el = block; el; el = el === root ? null : el.parentElement) {
      const sum = sums.get(el) ?? { prose: 0, info: 0, chrome: 0 };
      sum[kind] += text.length;
      sums.set(el, sum);
    }
  }
  return sums;
}
const measure = (root) => measureTree(root).get(root) ?? { prose: 0, info: 0, chrome: 0 };

// What a chrome character costs against a character of text: a region that adds a sidebar as
// long as its text is worse than the text alone, but a text with a few labels beats a scrap of
// it. Prose and information count alike.
const CHROME_COST = 0.5;
const textOf = ({ prose, info }) => prose + info;
const score = (sum) => textOf(sum) - CHROME_COST * sum.chrome;

// The element under `root` with the best score: where the page's prose is densest.
function densestRegion(root) {
  let best = root, bestScore = -Infinity;
  for (const [el, sum] of measureTree(root)) {
    if (!el.matches("p, li, h1, h2, h3, h4, h5, h6, pre, blockquote") && score(sum) > bestScore) [best, bestScore] = [el, score(sum)];
  }
  return best;
}

export { readingLength, SENTENCE_END, textLength, linkShare, textBlocks, BLOCK_INSIDE, isProse, measureTree, measure, textOf, score, densestRegion };
