// The main content of a page, the choosing: the element read_page turns into Markdown.
//
// On the copy of the page main-content-cleaning.js cleaned, Readability (Firefox Reader View's
// library, good at scoring paragraphs) chooses the article; when it finds none, the page's own
// markers of its main content (schema.org articleBody, <article>, <main>, the usual content class
// names) are used, and failing those the cleaned body. The reading chosen is widened to what
// belongs to it (the lead, the summary, a recipe's ingredients, a paper's abstract, a thread's
// other posts) and weighed against the page's other candidates so that it is never just the chrome.
// A form or an app, a page a person works in rather than reads, is not cleaned: form-or-app.js.

import { Readability } from "@mozilla/readability";

import { squash } from "./snippets.js";
import * as frames from "./frames.js";
import { words as WORDS } from "./lexicon.js";
import { readingLength, SENTENCE_END, textLength, linkShare, textBlocks, BLOCK_INSIDE, measureTree, measure, textOf, score, densestRegion } from "./content-quality.js";
import * as resultList from "./result-list.js";
import * as formOrApp from "./form-or-app.js";
import { cleanLines, CONTENT_MARKERS, firstDate, inListOrTable, isCookieNotice, isCredit, isDateLine, isDisclosure, isHeading, isSiteNotice, LEAD_CHARS, LEAF_BLOCKS, LINK_LIST_SHARE, MAX_LEAD_LINK_SHARE, MIN_ARTICLE_CHARS, nameWords, removeBoilerplate, removeEmptySections, removeLinkLists, SHORT_LINE, wrapLooseRuns } from "./main-content-cleaning.js";

// The content marker replaces Readability's article when it holds this share of the
// article's paragraphs and at most this many times its text (measured on the dev half).
const MIN_COVERED = 0.9;
const MAX_WIDENING = 3;

function readability(doc) {
  // serializer: hand back the element itself, not HTML text to parse again. keepClasses:
  // the Markdown rules read a code block's language from its class.
  const reader = new Readability(doc, { serializer: (el) => el, keepClasses: true });
  // Backport of mozilla/readability#958 (merged after 0.6.0, the pinned release): MathJax
  // output has the class "CtxtMenu_Attached_0", which the unlikely-candidate filter reads
  // as a menu, dropping every formula. Remove once the pin includes that change.
  reader.REGEXPS = { ...reader.REGEXPS, okMaybeItsACandidate: /and|article|body|column|content|main|mathjax|shadow/i };
  // Readability asks every element's inline style whether it hides it, and `el.style` makes
  // a declaration for each, most of which have no style attribute to say anything: those
  // (with no hidden or aria-hidden either) are visible without asking, as Readability finds.
  const probablyVisible = reader._isProbablyVisible;
  reader._isProbablyVisible = (node) => !(node.hasAttribute("style") || node.hasAttribute("hidden") || node.hasAttribute("aria-hidden"))
    || probablyVisible.call(reader, node);
  return reader.parse();
}

// Title, byline, excerpt, site name and date as the page states them (its <title>, <meta>
// and JSON-LD), read from the page itself: the cleaned copy may have lost the heading
// Readability compares the title with. (Readability's own steps, unchanged; they only read.)
function pageMetadata(doc) {
  const reader = new Readability(doc);
  const found = reader._getArticleMetadata(reader._getJSONLD(doc));
  return Object.fromEntries(Object.entries(found).filter(([, value]) => value));
}

// The page's own marker of its main content, the most specific kind first.
function marked(doc) {
  for (const selector of CONTENT_MARKERS) {
    const found = [...doc.querySelectorAll(selector)].find((el) => textLength(el) > 0);
    if (found) return found;
  }
  return null;
}

const leafBlocks = (root) => [...root.querySelectorAll(LEAF_BLOCKS)].filter((el) => !el.querySelector(LEAF_BLOCKS) && squash(el.textContent));

// The share of `inner`'s paragraphs (by characters) that `outer`'s text contains.
function covered(inner, outer) {
  const text = squash(outer.textContent);
  let total = 0, found = 0;
  for (const el of leafBlocks(inner)) {
    const t = squash(el.textContent);
    total += t.length;
    if (text.includes(t)) found += t.length;
  }
  return total ? found / total : 0;
}

// `outer` without what follows the last paragraph of `inner` in it (the trailing related
// links, tags and sharing a page's article element holds after the text).
function cutAfter(outer, inner) {
  const last = leafBlocks(inner).at(-1);
  if (!last) return outer;
  const text = squash(last.textContent);
  const match = leafBlocks(outer).findLast((el) => squash(el.textContent) === text);
  if (!match) return outer;
  const range = outer.ownerDocument.createRange();
  range.setStartAfter(match);
  range.setEnd(outer, outer.childNodes.length);
  range.deleteContents();
  return outer;
}

// In a wider reading than Readability's, the short lines Readability did not keep
// ("Read more", "Share this", a contact's name) are boilerplate, unless they are
// list items or table cells, or headings of text that is kept.
function pruneAdditions(wider, content) {
  const kept = new Set(leafBlocks(content).map((el) => squash(el.textContent)));
  const blocks = textBlocks(wider);
  const good = blocks.map((el) => { const t = squash(el.textContent); return kept.has(t) || readingLength(t) >= SHORT_LINE; });
  blocks.forEach((el, i) => {
    if (good[i] || el.closest("li, td, th, dd, dt, pre")) return;
    if (/^h[1-6]$/.test(el.localName) && good[i + 1]) return;
    el.remove();
  });
  return wider;
}

// The visible copy, unless hiding took most of the text (a slideshow whose slides wait for
// its scripts, a page read with its scripts off): then with what waits for the page's
// scripts, and still nothing else hidden (visibility.js says what). Text no one can read is left
// out of both.
function visibleCopy(doc) {
  const visible = frames.cloneWithFrames(doc, { dropHidden: true, dropUnseen: true });
  if (readableChars(visible) >= 0.5 * readableChars(doc)) return visible;
  return frames.cloneWithFrames(doc, { dropHidden: true, keepWaiting: true, dropUnseen: true });
}

function appCopy(doc) {
  const copy = frames.cloneWithFrames(doc, { dropHidden: true, dropUnseen: true, keepOptions: true });
  return copy.body || copy.documentElement;
}

// Characters of text, not counting the source of scripts and styles.
function readableChars(doc) {
  const root = doc.body || doc.documentElement;
  let chars = root.textContent.length;
  for (const el of root.querySelectorAll("script, style, noscript, template")) chars -= el.textContent.length;
  return chars;
}

// {article: Readability's metadata (may be {}), content: an element, extracted_by}.
// A form or an app is read whole (form-or-app.js says which pages are). On any other page,
// Readability on the cleaned page first. Its choice often leaves out the lead or subtitle
// in the article's header and sections beside its best one; when the page's own content
// marker holds nearly all of Readability's paragraphs and at most three times its text,
// the marker is read instead, up to Readability's last paragraph (what follows it there is
// mostly related links, tags and sharing). When Readability finds no article (under 500
// characters), the marker, and failing that the whole cleaned body. Whichever reading it is
// then loses its labels, link lines, photo credits, what trails its last sentence, the site's
// closing calls and its opening advertising disclosure, and gains the lead above its first
// paragraph and, on a recipe, the ingredients kept beside it; an answer it keeps gets its
// question back (withDisclosureLabels).
function extract(doc) {
  const visible = visibleCopy(doc);
  const body = visible.body || visible.documentElement;
  // A page a person works in (form-or-app.js) is read whole, its short lines and values kept
  // (from a copy with its lists' options: a list shows its chosen one).
  if (formOrApp.isFormOrApp(body)) return { article: pageMetadata(doc), content: formOrApp.reading(appCopy(doc)), extracted_by: "form or app" };
  const { article, content, extracted_by, page: cleaned, labels, summary } = choose(doc, visible);
  wrapLooseRuns(content);
  // A date line goes from the text, but its date stays, when the page gives none elsewhere.
  article.publishedTime ||= firstDate(content);
  const text = cleanLines(content);
  const whole = withIngredients(withAbstract(withSummary(withLead(text, cleaned), summary), cleaned), cleaned);
  return { article, content: withDisclosureLabels(whole, labels), extracted_by };
}

// Readability often starts at the first paragraph of the body and leaves out the lead or
// standfirst above it. Full sentences just before the content's first block on the cleaned
// page (one other line between them allowed) join it.
function withLead(content, cleaned) {
  const first = textBlocks(content)[0];
  if (!first) return content;
  const firstText = squash(first.textContent);
  const blocks = textBlocks(cleaned.body || cleaned.documentElement);
  const at = blocks.findIndex((el) => squash(el.textContent) === firstText);
  const lead = [];
  for (let i = at - 1, skipped = 0; i >= 0 && skipped <= 1; i--) {
    if (isLead(blocks[i])) { lead.unshift(blocks[i]); skipped = 0; } else if (!isDropped(blocks[i]) && linkShare(blocks[i]) <= LINK_LIST_SHARE) skipped++;
  }
  if (lead.length) putFirst(content, first, lead);
  return content;
}
// (A date line or a disclosure between the lead and the text does not part them.)
function isDropped(el) {
  const text = squash(el.textContent);
  return isDateLine(el, text) || isDisclosure(text);
}
// Copies of `elements` go before the reading's `first` block, or before the list or table
// it opens (a reference list Readability took): not into its first item.
function putFirst(content, first, elements) {
  let at = first;
  for (let el = first.parentElement; el && el !== content; el = el.parentElement) if (el.matches("ul, ol, dl, table")) at = el;
  at.before(...elements.map((el) => content.ownerDocument.importNode(el, true)));
}
const isLead = (el) => !inListOrTable(el) && readsAsLead(el);
// A block that says the page's whole description (`summary`) needs no full stop: a standfirst
// set as a heading often has none.
function readsAsLead(el, summary = "") {
  const text = squash(el.textContent);
  return readingLength(text) >= LEAD_CHARS && (SENTENCE_END.test(text) || text === summary) && linkShare(el) < MAX_LEAD_LINK_SHARE
    && !isDisclosure(text) && !isSiteNotice(text) && !isCookieNotice(text) && !el.closest("h1");
}

// The page says what it is about in its description (<meta name=description>, og:, JSON-LD),
// and many pages show that sentence as their standfirst, in a header or a teaser box beside
// the body that Readability leaves out, or in a box whose name reads as boilerplate elsewhere
// (a video's page: "item-caption"; an institute's page header; an encyclopedia's summary). A
// visible block that says the description is the page's summary by the page's own word, and
// weighs more than its box's name: when the reading lacks it, it joins the reading first, if
// it reads as a lead would (in a list too: an encyclopedia's summary may sit in a <dd>; not
// a photo's caption with its credit, which a gallery's description may repeat, nor a header
// whose headline the description repeats). It is found on the visible copy before the cleaning (only what a
// reader sees: the meta text itself never enters the reading).
const SUMMARY_PROBE_CHARS = 60;
const SUMMARY_START_CHARS = 24;
const SUMMARY_BLOCK_RATIO = 2;
const NOT_TEXT = "script, style, noscript, template, textarea";
function summaryBlock(root, description) {
  const summary = squash(description || "").replace(/(\.\.\.|…)$/u, "").trim();
  if (readingLength(summary) < LEAD_CHARS) return null;
  const probe = summary.slice(0, SUMMARY_PROBE_CHARS);
  const start = summary.slice(0, SUMMARY_START_CHARS);
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!saysPartOf(node, summary, start)) continue;
    const el = boxSaying(node, root, probe, SUMMARY_BLOCK_RATIO * summary.length);
    if (el && !el.querySelector("h1, h2") && readsAsLead(el, summary) && !isCredit(squash(el.textContent))) return asBlock(el);
  }
  return null;
}
// The smallest box around `node` whose text holds `probe`, if it is at most `chars` long.
function boxSaying(node, root, probe, chars) {
  for (let el = node.parentElement; el && el !== root; el = el.parentElement) {
    const text = squash(el.textContent);
    if (text.length > chars) return null;
    if (text.includes(probe)) return el;
  }
  return null;
}
// A text node that opens the summary, or a part of it (the summary may open with a name in
// italics or a link: "Tanya Chua" in <i>).
const SUMMARY_PART_CHARS = 16;
function saysPartOf(node, summary, start) {
  if (node.data.length < SUMMARY_PART_CHARS || node.parentElement?.closest(NOT_TEXT)) return false;
  const text = squash(node.data);
  return text.includes(start) || (text.length >= SUMMARY_PART_CHARS && summary.includes(text));
}
// A copy that Markdown reads as a paragraph of its own (an inline box is wrapped in one, and
// a standfirst set as a heading is a paragraph, not a section's title).
function asBlock(el) {
  const copy = el.cloneNode(true);
  const heading = isHeading(el);
  if (el.matches(BLOCK_INSIDE) && !heading) return copy;
  const paragraph = el.ownerDocument.createElement("p");
  paragraph.append(...(heading ? copy.childNodes : [copy]));
  return paragraph;
}
function withSummary(content, summary) {
  if (!summary) return content; // (most pages: the reading's text goes unread)
  const first = textBlocks(content)[0];
  if (!first || squash(content.textContent).includes(squash(summary.textContent).slice(0, SUMMARY_PROBE_CHARS))) return content;
  putFirst(content, first, [summary]);
  return content;
}

// A recipe's ingredients are half of it, but pages keep them in a box of their own beside the
// method, which is what Readability picks. The page's ingredient lists (schema.org
// recipeIngredient, or a box named "ingredients") that the reading lacks join it, first.
const INGREDIENT_WORDS = WORDS.ingredient;
const INGREDIENT_NAMED = ["ngredient", "ngrédient", "utaten"].map((part) => `[class*=${part} i], [id*=${part} i]`).join(", ");
function ingredientBoxes(root) {
  const named = [...root.querySelectorAll(INGREDIENT_NAMED)].filter((el) => nameWords(el).some((word) => INGREDIENT_WORDS.has(word)));
  const listed = [...root.querySelectorAll("[itemprop=recipeIngredient], [itemprop=ingredients]")]
    .map((el) => el.closest("ul, ol, table") || el);
  const boxes = [...new Set([...named, ...listed])];
  return boxes.filter((el) => !boxes.some((other) => other !== el && other.contains(el)) && textLength(el) > 0);
}
const withIngredients = (content, cleaned) => withBoxes(content, ingredientBoxes(cleaned.body || cleaned.documentElement));

// A paper's abstract is kept in a section of its own too, and Readability often picks the
// body or the references instead. The one box named "abstract" (a whole text, not the
// teasers of a list of papers) joins the reading first when the reading lacks it.
const ABSTRACT_NAMED = "[class*=bstract i], [id*=bstract i], [data-title=abstract i]";
const MIN_ABSTRACT_CHARS = 200;
function abstractBoxes(root) {
  const named = [...root.querySelectorAll(ABSTRACT_NAMED)]
    .filter((el) => nameWords(el).includes("abstract") || /^abstract$/i.test(el.dataset.title || ""));
  const boxes = named.filter((el) => !named.some((other) => other !== el && other.contains(el))
    && textLength(el) >= MIN_ABSTRACT_CHARS && linkShare(el) < MAX_LEAD_LINK_SHARE);
  return boxes.length === 1 ? boxes : [];
}
const withAbstract = (content, cleaned) => withBoxes(content, abstractBoxes(cleaned.body || cleaned.documentElement));

// The `boxes` the reading lacks join it, before its first block. (A box around the reading
// itself, or larger than it, is a page's wrapper, not a list.)
function withBoxes(content, boxes) {
  if (!boxes.length) return content; // (most pages: the reading's blocks and text go unread)
  const first = textBlocks(content)[0];
  if (!first) return content;
  const text = squash(content.textContent);
  const firstText = squash(first.textContent);
  const missing = boxes.filter((box) => {
    const boxText = squash(box.textContent);
    return !boxText.includes(firstText) && boxText.length < text.length
      && leafBlocks(box).some((el) => !text.includes(squash(el.textContent)));
  });
  if (missing.length) putFirst(content, first, missing);
  return content;
}

function choose(doc, visible) {
  // The cleaned copy of the page (of `visible`, made once); Readability changes what it reads,
  // so it reads a copy of that. (Disclosure labels are taken before the cleaning drops their buttons.)
  const labels = disclosureLabels(visible);
  const metadata = pageMetadata(doc);
  const summary = summaryBlock(visible.body || visible.documentElement, metadata.excerpt);
  const cleaned = removeBoilerplate(visible);
  // A page of results (a search's) is read as its list: Readability takes a result's title,
  // a link, for a link list. (Found first: the readings below change the copy they read.)
  const results = resultList.find(cleaned.body || cleaned.documentElement);
  if (!results) return { ...notJustTheChrome(firstChoice(metadata, cleaned)), labels, summary };
  const first = firstChoice(metadata, cleaned.cloneNode(true));
  const content = removeEmptySections(removeLinkLists(results.list, results.titles));
  return { ...first, content, extracted_by: "result list", page: cleaned, labels, summary };
}

// A disclosure's label (an FAQ's question, a tab's name: the element with aria-expanded or
// role=tab whose aria-controls names the panel it opens) heads that panel but sits apart
// from it, in a button, which is not text, or in a box Readability takes for the page's
// header ("card-header"). When the reading keeps a panel's first block but not its label,
// the label goes before that block, in bold. (ARIA says what the label is: no class word.)
const DISCLOSURE_LABEL = "[aria-controls][aria-expanded], [aria-controls][role=tab]";
const LABEL_MAX_CHARS = 150;
function disclosureLabels(doc) {
  const labels = [];
  for (const el of doc.querySelectorAll(DISCLOSURE_LABEL)) {
    const panel = doc.getElementById(el.getAttribute("aria-controls"));
    const label = squash(el.textContent);
    if (!panel || panel.contains(el) || el.contains(panel) || !label || label.length > LABEL_MAX_CHARS) continue;
    const first = textBlocks(panel)[0];
    if (first) labels.push({ label, first: squash(first.textContent) });
  }
  return labels;
}
function withDisclosureLabels(content, labels) {
  if (!labels.length) return content; // (most pages: the reading's blocks go unread)
  const text = squash(content.textContent);
  const blocks = textBlocks(content);
  for (const { label, first } of labels) {
    const at = blocks.find((el) => squash(el.textContent) === first);
    if (!at || text.includes(label)) continue;
    const heading = content.ownerDocument.createElement("p");
    heading.append(content.ownerDocument.createElement("strong"));
    heading.firstChild.textContent = label;
    at.before(heading);
  }
  return content;
}

// Never empty, never just the chrome: when the reading keeps little of the page's text (and
// less prose than an article has), or more chrome than text (dates, menus, a sidebar), the page's landmarks, its densest region
// of text and its whole text are weighed against it by how much they read as text
// (content-quality.js). One that brings at least twice the text, and scores better for it
// against its chrome, is read instead: a region with less text than the reading is a part of
// it, never a better reading.
const THIN = 0.25;
const MORE_TEXT = 2;
const LANDMARKS = "[itemprop=articleBody], article, main, [role=main]";
function notJustTheChrome(chosen) {
  const kept = measure(chosen.content);
  const body = chosen.page.body || chosen.page.documentElement;
  // (The page is measured only for a reading with less prose than an article; the link lists
  // a reading may have cut from it were chrome, which its text does not count.)
  const thin = kept.prose < MIN_ARTICLE_CHARS && textOf(kept) < THIN * textOf(measure(body));
  if (!thin && score(kept) > 0) return chosen;
  const candidates = [...body.querySelectorAll(LANDMARKS)].map((el) => [el, "landmark"]);
  candidates.push([densestRegion(body), "densest text"], [body, "page body"]);
  let best = null, bestScore = Math.max(0, score(kept));
  for (const [el, by] of candidates) {
    const found = measure(el);
    if (textOf(found) >= MORE_TEXT * textOf(kept) && score(found) > bestScore) [best, bestScore] = [[el, by], score(found)];
  }
  if (!best) return chosen;
  return { ...chosen, content: removeEmptySections(removeLinkLists(best[0])), extracted_by: best[1] };
}

// A thread's posts (a forum's, a question's answers, a blog's page of posts) sit side by side
// in boxes alike: the same tag, the same first class name and the same template inside (the
// tags and class names within, mostly shared), each with prose of its own. Readability scores
// them apart and may take one (and a page's first <article> is one): when the reading lies
// within one of at least three such boxes holding prose, all of them are the reading, in their
// order. (A layout's rows or columns are not alike: "col-8" beside "col-4", or a header's row
// beside the text's.)
const MIN_POSTS = 3;
const SAME_TEMPLATE = 0.5;
const TEMPLATE_DEPTH = 3;
function threadAround(cleaned, content) {
  const blocks = leafBlocks(content);
  if (!blocks.length) return null;
  const [first, last] = [blocks[0], blocks.at(-1)].map((el) => squash(el.textContent));
  const root = cleaned.body || cleaned.documentElement;
  const start = [...root.querySelectorAll(LEAF_BLOCKS)].find((el) => squash(el.textContent) === first);
  let el = start?.parentElement;
  while (el && el !== root && !squash(el.textContent).includes(last)) el = el.parentElement;
  for (; el && el !== root; el = el.parentElement) {
    const posts = postsBeside(el);
    if (posts.length < MIN_POSTS) continue;
    const tree = measureTree(el.parentElement);
    if (posts.filter((post) => tree.get(post)?.prose > 0).length < MIN_POSTS) return null;
    const thread = cleaned.createElement("div");
    thread.append(...posts.map((post) => post.cloneNode(true)));
    return thread;
  }
  return null;
}
// `el` and its siblings alike (the same tag, first class name and template).
function postsBeside(el) {
  const name = el.classList[0];
  if (!name || el.matches(LEAF_BLOCKS)) return [];
  const template = templateOf(el);
  return [...el.parentElement.children].filter((other) => other.localName === el.localName && other.classList[0] === name
    && (other === el || similarity(template, templateOf(other)) >= SAME_TEMPLATE));
}
// The tags inside `el`, down to a few levels, alone and with each class name (not a name
// with a number: "wp-image-15026", "post-6331411" name one item, not the template; a grid's
// "col-8" is the template's).
function templateOf(el, depth = TEMPLATE_DEPTH, names = new Set()) {
  for (const child of el.children) {
    names.add(child.localName);
    for (const name of child.classList) if (!/\d{3}/.test(name)) names.add(`${child.localName}.${name}`);
    if (depth > 1) templateOf(child, depth - 1, names);
  }
  return names;
}
function similarity(a, b) {
  if (!a.size && !b.size) return 1;
  let shared = 0;
  for (const name of a) if (b.has(name)) shared += 1;
  return shared / (a.size + b.size - shared);
}

// The reading below, or the thread it is one post of.
function firstChoice(pageFacts, cleaned) {
  const chosen = oneReading(pageFacts, cleaned);
  const thread = chosen.extracted_by !== "page body" && threadAround(cleaned, chosen.content);
  return thread ? { ...chosen, content: removeEmptySections(removeLinkLists(thread)), extracted_by: "thread" } : chosen;
}

// Readability's article, widened to the page's content marker when that holds it, or the
// marker, or the cleaned body.
function oneReading(pageFacts, cleaned) {
  const article = readability(cleaned.cloneNode(true));
  const content = article ? removeEmptySections(article.content) : null;
  const found = content ? textLength(content) : 0;
  const metadata = { ...article, ...pageFacts };
  const marker = marked(cleaned);
  // `page`: the cleaned copy the reading was found on (extract looks for its lead there).
  const reading = (content, extracted_by) => ({ article: metadata, content, extracted_by, page: cleaned });
  if (found >= MIN_ARTICLE_CHARS) {
    if (marker) {
      const wider = removeEmptySections(pruneAdditions(removeLinkLists(cutAfter(marker, content)), content));
      // The title is read_page's own field; Readability leaves its heading out too.
      const title = squash(metadata.title || "");
      for (const heading of wider.querySelectorAll("h1, h2")) if (title && squash(heading.textContent) === title) heading.remove();
      const chars = textLength(wider);
      if (chars > found && chars <= MAX_WIDENING * found && covered(content, wider) >= MIN_COVERED) {
        return reading(wider, "content marker");
      }
      // Readability chose a block outside the page's own content marker (a disclaimer, a
      // reference list) while the marker holds at least as much text: the marker (as cut
      // and pruned above, in place: nothing of Readability's article was found in it).
      const other = removeEmptySections(removeLinkLists(marker));
      if (textLength(other) >= found && covered(content, other) < 0.5) return reading(other, "content marker");
    }
    return reading(content, "readability");
  }
  if (marker && textLength(marker) > found) {
    return reading(removeEmptySections(removeLinkLists(marker)), "content marker");
  }
  // No article and no marker: the whole page, with its boilerplate gone, rather than a scrap.
  return reading(removeEmptySections(removeLinkLists(cleaned.body || cleaned.documentElement)), "page body");
}

export { extract };
