// A list of results: a search's results, a site search's, a listing's entries. Each entry is a
// title that is a link and a snippet of prose after it. By link density alone the titles are a
// menu, and Readability and the link-list rule take them out; but a menu's links have no prose
// beside them, and a list whose entries hold nearly all of the page's prose is what the page is
// for. (Beside an article, a few teasers of other stories hold a small share of it.)

import { textLength, linkShare, measureTree } from "./content-quality.js";

// A title: a heading or line that is mostly a link, a line long at most.
const TITLE_BLOCKS = "div, p, h1, h2, h3, h4, h5, h6, dt";
const TITLE_CHARS = 300;
const TITLE_LINKS = 0.6;
// How far above its link a title's block may be (Bing's link in an <h2> in a <div>).
const TITLE_DEPTH = 3;
// A snippet: a sentence's worth of text outside links (content-quality.js's PROSE_CHARS),
// a paragraph or two at most (the block after a menu may be the whole article).
const SNIPPET_CHARS = 80;
const MAX_SNIPPET_CHARS = 1500;
// A list: three entries or more, holding nearly all of the prose of what they are read in
// (a page of results has little else but menus, filters and labels; an article has its own).
const MIN_ENTRIES = 3;
const PROSE_SHARE = 0.8;

// Unlinked characters of a block, measured once per block.
function proseChars(el, cache) {
  if (!cache.prose.has(el)) {
    const chars = textLength(el);
    cache.prose.set(el, chars > MAX_SNIPPET_CHARS ? 0 : Math.round(chars * (1 - linkShare(el, chars))));
  }
  return cache.prose.get(el);
}

// The title block of `link` and its snippet, or null: the nearest block above the link that
// is mostly links, short, and followed by a snippet. (A block that is long or mostly text is
// no title, nor is any block around it.)
function entryOf(link, cache) {
  let title = link;
  for (let up = 0; up < TITLE_DEPTH && title.parentElement; up += 1) {
    title = title.parentElement;
    if (!title.nextElementSibling || !title.matches(TITLE_BLOCKS)) continue;
    if (!isTitle(title, cache)) return null;
    const snippet = snippetAfter(title, cache);
    if (snippet) return [title, snippet];
  }
  return null;
}
// The snippet after a title: the next block, past a few words set inline (Yahoo puts the
// address and a "Cached" link between them). A block that is no snippet ends the entry: the
// next title's snippet is not this one's (a comment's name, then its date line, then its text).
const SNIPPET_SIBLINGS = 3;
const INLINE = "a, span, cite, b, i, em, strong, small, br, wbr";
function snippetAfter(title, cache) {
  let next = title.nextElementSibling;
  for (let i = 0; next && i < SNIPPET_SIBLINGS; i += 1, next = next.nextElementSibling) {
    if (proseChars(next, cache) >= SNIPPET_CHARS) return next;
    if (!next.matches(INLINE)) return null;
  }
  return null;
}
// Short and mostly links: measured once per block (a title's links ask the same of it).
function isTitle(el, cache) {
  if (!cache.titles.has(el)) {
    const chars = textLength(el);
    cache.titles.set(el, chars < TITLE_CHARS && linkShare(el, chars) > TITLE_LINKS);
  }
  return cache.titles.get(el);
}

// Entries that hold nearly all of the prose hold a good share of all the text too (a result
// page's is a third or more, filters and menus included): a cheap look first, so that the few
// teasers of an article's page cost no measure of its prose.
const TEXT_SHARE = 0.2;
function holdMuchText(found, root) {
  let chars = 0;
  for (const [title, snippet] of found) chars += textLength(title) + textLength(snippet);
  return chars >= TEXT_SHARE * textLength(root);
}

// The entries under `root` ({title: snippet}), when they are a list that holds its prose.
function entries(root) {
  const found = new Map(), cache = { prose: new Map(), titles: new Map() };
  for (const link of root.querySelectorAll("a[href]")) {
    const entry = link.textContent.trim() && entryOf(link, cache);
    if (entry) found.set(...entry);
  }
  if (found.size < MIN_ENTRIES || !holdMuchText(found, root)) return new Map();
  const tree = measureTree(root);
  const prose = (el) => tree.get(el)?.prose ?? 0;
  let inEntries = 0;
  for (const [title, snippet] of found) inEntries += prose(title) + prose(snippet);
  return inEntries > 0 && inEntries >= PROSE_SHARE * prose(root) ? found : new Map();
}

// The result list under `root`: the element holding every entry (the nearest one) and the
// entries' titles; or null.
function find(root) {
  const titles = [...entries(root).keys()];
  if (!titles.length) return null;
  const chain = [];
  for (let el = titles[0].parentElement; el; el = el.parentElement) chain.push(el);
  let highest = 0;
  for (const title of titles.slice(1)) {
    let el = title.parentElement;
    while (el && !chain.includes(el)) el = el.parentElement;
    highest = Math.max(highest, chain.indexOf(el));
  }
  return { list: chain[highest], titles };
}

export { find };
