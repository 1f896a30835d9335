// The main content of a page, the cleaning: what is not the page's text goes, first from a copy
// of the page, then from the reading chosen on it (main-content-choosing.js chooses).
//
// Readability (Firefox Reader View's library) is misled by what surrounds the article (comment
// threads, newsletter forms and link lists that out-score a short article). So, as the best
// extractors do (trafilatura's rules), the page is cleaned first: what announces itself as
// boilerplate by its tag, ARIA role or class (navigation, footers, sharing, cookie banners,
// related links, comments), link lists and the sections they leave empty (removeBoilerplate,
// removeLinkLists, removeEmptySections). The reading chosen then loses the lines that are not
// its text: readers' comments, labels, link lines, pointers to other stories, photo credits,
// what trails its last sentence, the site's calls to action and its advertising disclosure
// (cleanLines).

import { squash } from "./snippets.js";
import { words as WORDS, phrases as PHRASES, anyOf, wordsOf } from "./lexicon.js";
import { readingLength, SENTENCE_END, textLength, linkShare, textBlocks, BLOCK_INSIDE, isProse, measureTree } from "./content-quality.js";

// Readability's own threshold for "this is an article"; below it its answer is a guess.
const MIN_ARTICLE_CHARS = 500;
// An element holding this share of the page's text is a wrapper, whatever its name says
// ("page has-sidebar"); removing it would remove the article.
const WRAPPER_SHARE = 0.4;
// A block whose text is more than this share of link text is a list of links (more
// stories, a menu); between the lead and the article it does not separate them.
const LINK_LIST_SHARE = 0.6;
// ... and shorter than this (a longer one is the text, linked throughout).
const LINK_LIST_MAX_CHARS = 2000;
// Characters below which a line the wider reading adds is a label, not text.
const SHORT_LINE = 50;
// The blocks that hold a line of text and no other such block.
const LEAF_BLOCKS = "p, li, h1, h2, h3, h4, h5, h6, pre, td, blockquote";
// A lead's sentences run at least this long, in a block at most this share links (the
// choosing's withLead): a closing line as long as a lead is text, not a call to action.
const LEAD_CHARS = 80;
const MAX_LEAD_LINK_SHARE = 0.3;
// Characters below which a line that ends no sentence is a label, wherever it is.
const LABEL_CHARS = 20;

// Never text a reader reads as the page's content.
// (Ruby annotations, <rt> and <rp>, are the readings of the words beside them.)
const NOT_CONTENT = "script, style, noscript, template, button, select, textarea, input, dialog, rt, rp";
// Boilerplate unless it holds the article (see holdsTheArticle).
const BOILERPLATE_TAGS = "nav, footer, aside, [hidden]";
const BOILERPLATE_ROLES = ["navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog", "menu", "menubar"]
  .map((role) => `[role="${role}"]`).join(", ");
// Class and id words of boilerplate, as whole words of the name (split at - _ and space,
// and at camelCase humps).
const BOILERPLATE_WORDS = WORDS.boilerplate;
// Where pages mark their main content themselves (trafilatura's list, most specific first).
const CONTENT_MARKERS = [
  "[itemprop=articleBody]",
  "#articleContent, [class*=article-body], [class*=article__body], [class*=articleBody], [class*=article-content], [class*=entry-content], [class*=post-content], [class*=post-body], [class*=post-entry], [class*=article-text], [class*=story-body], [class*=story-content], [id*=article-body], [id*=story-body]",
  "article",
  "[role=article], #article, #story, .story, .fulltext, [class*=single-content], [class*=blog-content], [class*=page-content], [class*=main-content], [id*=main-content], [class*=content-main], [class*=content-body], [id*=content-body]",
  "main, [role=main], #content, .content, #main, .main",
];

// Captions and photo credits: trafilatura leaves figures out, and the human-labelled
// benchmark counts their text as boilerplate far more often than as content.
const CAPTION_WORDS = WORDS.caption;
// The caption's text, not a container that also holds the image (whose alt text may
// describe it), a table or code, nor a "caption" of several sentences (a video's description).
const CAPTION_CHARS = 300;
const isCaption = (el) => (el.localName === "figcaption" || nameWords(el).some((word) => CAPTION_WORDS.has(word)))
  && !el.querySelector("img, picture, svg, video, table, pre") && textLength(el) < CAPTION_CHARS;

const inListOrTable = (el) => el.closest("li, td, th, dd, dt");
// ... or in a table of data: a cell holding a table or several blocks of text is the page's
// layout (old sites set the whole page in a table).
const inListOrDataTable = (el) => Boolean(el.closest("li, dd, dt")) || isDataCell(el.closest("td, th"));
const isDataCell = (cell) => Boolean(cell) && !cell.querySelector("table") && textBlocks(cell).length <= 1;
const isHeading = (el) => /^h[1-6]$/.test(el.localName);

// The names of an element (each class, its id), each as its words.
// A BEM modifier (after "--": "Report__Section--Ads", "card--sponsored") names a variant of
// the block, such as where ads may go beside it, not what the block is: its words are left out.
// (After a prefix of a few letters, "--" only separates a namespace: "dp--cookie-check".)
const BEM_BLOCK_CHARS = 4;
const withoutModifier = (part) => (part.indexOf("--") >= BEM_BLOCK_CHARS ? part.slice(0, part.indexOf("--")) : part);
function nameParts(el) {
  const name = `${typeof el.className === "string" ? el.className : el.getAttribute("class") || ""} ${el.id || ""}`;
  return name.split(/\s+/).filter(Boolean).map((part) => withoutModifier(part)
    .replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[\s_-]+/).filter(Boolean));
}
const nameWords = (el) => nameParts(el).flat();

// Words that name content: "article-content sticky-sidebar" is the article, beside a sidebar.
// MathJax's formulas carry "CtxtMenu_Attached_0" (a context menu is attached to them).
const CONTENT_WORDS = WORDS.content;

// Names of lists of other stories ("related-post", "post-most-popular-list") say so even
// beside a content word.
const OTHER_STORIES_WORDS = WORDS.otherStories;

// The boilerplate words of an element's name, none when a content word outweighs them. A
// content word in the same name as a comment word names the comment's part: a "comment-body"
// is a reader's text, not the page's. (Beside other words it may not: a "teaser-text" may be
// the story's lead, a "content__sharingContainer" wrap the article beside its share bar.)
function boilerplateWords(el) {
  const parts = nameParts(el);
  const words = parts.flat();
  const named = (part) => part.some((word) => COMMENT_WORDS.has(word));
  const content = parts.some((part) => !named(part) && part.some((word) => CONTENT_WORDS.has(word)));
  if (content && !words.some((word) => OTHER_STORIES_WORDS.has(word))) return [];
  const live = words.some((word) => LIVE_WORDS.has(word));
  return words.filter((word) => BOILERPLATE_WORDS.has(word) && !(live && COMMENT_WORDS.has(word)));
}
function looksLikeBoilerplate(el) {
  const found = boilerplateWords(el);
  return found.length > 0 && !(found.every((word) => TEASER_WORDS.has(word)) && isWholeText(el));
}

// Words that name a part of the layout as often as boilerplate: a blog's column of posts in
// a table cell "links", a profile's description in a box "bio", a post's text in "meta".
// They are evidence that prose outweighs: a box so named that holds half of the page's prose
// is the text. Other words are stronger evidence, outweighed only by nearly all of the prose
// (a sharing bar's container wrapped around the article). Words for readers' comments are
// not outweighed by prose, since a long comment thread holds more of it than the post it
// follows; they say nothing only where the comments are the page (`commentsArePage()`, a
// forum thread).
const LAYOUT_WORDS = WORDS.layout;
const LAYOUT_OUTWEIGHED = 0.5;
const NAME_OUTWEIGHED = 0.8;
function carriesThePage(el, proseOf, root, commentsArePage) {
  const named = boilerplateWords(el);
  if (named.some((word) => COMMENT_WORDS.has(word)) && !commentsArePage()) return false;
  const found = named.filter((word) => !COMMENT_WORDS.has(word));
  if (!found.length) return named.length > 0;
  if (!found.every((word) => LAYOUT_WORDS.has(word))) return proseOf(el) >= NAME_OUTWEIGHED * proseOf(root);
  const pageProse = proseOf(root);
  return proseOf(el) >= LAYOUT_OUTWEIGHED * pageProse || proseOfEntries(el, found, proseOf) >= NAME_OUTWEIGHED * pageProse;
}

// A list's entries are judged together: a search's results, each in a box named "links", side
// by side hold nearly all of the page's prose, where each alone holds a little. (Teasers of
// other stories beside a story, each "teaser", hold less than that: the story has its own.)
// The prose of `el` and of its siblings named by the same words (summed once per list: each
// of its entries asks).
const entriesProse = new WeakMap();
function proseOfEntries(el, words, proseOf) {
  const parent = el.parentElement;
  if (!parent) return proseOf(el);
  const sums = entriesProse.get(parent) ?? new Map();
  entriesProse.set(parent, sums);
  const key = words.join(" ");
  if (!sums.has(key)) {
    const alike = (other) => words.every((word) => boilerplateWords(other).includes(word));
    sums.set(key, [...parent.children].filter(alike).reduce((sum, other) => sum + proseOf(other), 0));
  }
  return Math.max(proseOf(el), sums.get(key));
}

// The prose of `root` inside the outermost elements that are `part`s.
function proseWithin(root, proseOf, part) {
  let inParts = 0;
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let el = walker.nextNode(); el; ) {
    if (part(el)) {
      inParts += proseOf(el);
      el = nextOutside(walker);
    } else {
      el = walker.nextNode();
    }
  }
  return inParts;
}

// A forum thread, or a question under its answers, is readers' posts and little else: when
// what is named as comments holds an article's worth of prose and the rest of the page less
// than that, the comments are the page's text (a post followed by its comments has its own).
const isNamedComment = (el) => boilerplateWords(el).some((word) => COMMENT_WORDS.has(word));
function commentsAreThePage(root, proseOf) {
  const inComments = proseWithin(root, proseOf, isNamedComment);
  return inComments >= MIN_ARTICLE_CHARS && proseOf(root) - inComments < MIN_ARTICLE_CHARS;
}

// A gallery tells its text in its slides' captions: when captions hold an article's worth of
// prose and more of it than the rest of the page, they are the text (an article's photo
// captions are a small share of its prose).
function captionsAreThePage(root, proseOf) {
  const inCaptions = proseWithin(root, proseOf, isCaption);
  return inCaptions >= MIN_ARTICLE_CHARS && inCaptions > proseOf(root) - inCaptions;
}

// A live ticker's or live blog's "comments" are its entries (the match or the event told
// minute by minute), not readers' comments.
const LIVE_WORDS = WORDS.live;
const COMMENT_WORDS = WORDS.comment;

// A "teaser" is a headline and a line or two that link to a story elsewhere; one that holds
// a whole text (long, with few links) is that story (a news item in a "teaser" box).
const TEASER_WORDS = WORDS.teaser;
const WHOLE_TEXT = 500;
const MAX_WHOLE_TEXT_LINKS = 0.2;
const isWholeText = (el) => textLength(el) >= WHOLE_TEXT && linkShare(el) < MAX_WHOLE_TEXT_LINKS;
// A form holding a whole text and asking nobody's address, name or words (search, login,
// sign-up, comment) is a shop's product with its description.
const ASKS_WHO = "input[type=email], input[type=password], input[type=search], input[type=tel], input[name*=mail i], textarea";
const isProduct = (form) => isWholeText(form) && !form.querySelector(ASKS_WHO);

// Never remove what holds the article: the page's own content markers, the title heading,
// an <article> holding a whole text (not a list of teasers, each in an <article> of a
// headline and a line: "related posts", nor a reader's long comment in an <article
// class="comment">), or a large share of all the text.
function holdsTheArticle(el, pageChars) {
  if (el.matches("article, main, [role=main], [itemprop=articleBody], body, html")) return true;
  if (el.querySelector("h1, main, [role=main], [itemprop=articleBody]")) return true;
  if ([...el.querySelectorAll("article")].some((article) => isWholeText(article) && !looksLikeBoilerplate(article))) return true;
  return textLength(el) > WRAPPER_SHARE * pageChars;
}

// The walker's next element after the current one's subtree.
function nextOutside(walker) {
  for (let node = walker.currentNode; node; node = walker.parentNode()) {
    const next = walker.nextSibling();
    if (next) return next;
  }
  return null;
}

// Removes boilerplate from `doc` (a copy), in place.
function removeBoilerplate(doc) {
  const root = doc.body || doc.documentElement;
  const pageChars = textLength(root);
  // The prose of each element, measured only if a name needs weighing (one walk of the page).
  let prose;
  const proseOf = (el) => (prose ??= measureTree(root)).get(el)?.prose ?? 0;
  let forum, gallery;
  const commentsArePage = () => (forum ??= commentsAreThePage(root, proseOf));
  const captionsArePage = () => (gallery ??= captionsAreThePage(root, proseOf));
  const boilerplate = [];
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  let el = walker.nextNode();
  while (el) {
    const soft = el.matches(BOILERPLATE_TAGS) || el.matches(BOILERPLATE_ROLES) || (looksLikeBoilerplate(el) && !carriesThePage(el, proseOf, root, commentsArePage));
    if (el.matches(NOT_CONTENT) || ((soft || (isCaption(el) && !captionsArePage())) && !holdsTheArticle(el, pageChars))) {
      boilerplate.push(el);
      el = nextOutside(walker);
    } else {
      el = walker.nextNode();
    }
  }
  // A form wrapping the whole page (ASP.NET) or a product is kept; any other goes. (Judged
  // before its fields go with the rest.)
  const forms = [...root.querySelectorAll("form")].filter((form) => !holdsTheArticle(form, pageChars) && !isProduct(form));
  for (const el of [...boilerplate, ...forms]) el.remove();
  return doc;
}

// Lists and blocks that are mostly links (more stories, tag clouds, menus without a <nav>).
// (`titles`: a result list's, resultList: a title is a link, not a link list, and no
// label of the links beside it.)
function removeLinkLists(root, titles = []) {
  const inTitle = (el) => titles.some((title) => title.contains(el));
  for (const el of [...root.querySelectorAll("ul, ol, div, section, p, table")].reverse()) {
    if (!root.contains(el) || titles.includes(el)) continue; // gone with a list around it (the tree may be detached)
    const chars = textLength(el);
    // (The length first: the link share of a large block is the costly ask, and never needed.)
    if (!chars || chars >= LINK_LIST_MAX_CHARS) continue;
    if (linkShare(el, chars) > LINK_LIST_SHARE && !el.querySelector("h1, pre, img[alt]:not([alt=''])")) {
      // Its label ("Read more:", "Related") goes with it.
      const label = el.previousElementSibling;
      const isLabel = label && !label.querySelector(LEAF_BLOCKS) && textLength(label) <= SHORT_LINE && !/[.!?]$/.test(squash(label.textContent));
      if (isLabel && !inTitle(label)) label.remove();
      el.remove();
    }
  }
  return root;
}

// A heading whose section is empty once link lists are gone ("Related posts", "More on
// this") announced boilerplate, unless it carries the text itself: pages that set their
// body text in heading elements (a notice in <h4>s, a post in <h6>s) have nothing after them.
const carriesText = (heading) => isProse(heading);
function removeEmptySections(root) {
  const headings = [...root.querySelectorAll("h1, h2, h3, h4, h5, h6")];
  for (const [i, heading] of headings.entries()) {
    const rank = Number(heading.localName[1]);
    const end = headings.slice(i + 1).find((h) => Number(h.localName[1]) <= rank);
    const range = root.ownerDocument.createRange();
    range.setStartAfter(heading);
    if (end && root.contains(end)) range.setEndBefore(end); // (the tree may be detached: Readability's)
    else range.setEnd(root, root.childNodes.length);
    if (!squash(range.toString()) && !carriesText(heading)) heading.remove();
  }
  return root;
}

// A line of a few words that ends no sentence, on its own between blocks ("Release Date:",
// "Kontakt:", "Externer Inhalt", a date, a site name) labels the page, not the text.
// Headings, list items, table cells, quotes, code and images that say something keep theirs
// (an icon beside the line says nothing).
// So does a widget's "Loading…" ("Lade weitere Inhalte ...", "Like Loading..."), which the
// page never replaced because its script did not run.
const LOADING = new RegExp(String.raw`(?<!\p{L})(${anyOf(PHRASES.loading)})(?!\p{L})[^.…]{0,30}(\.\.\.|…)$`, "iu");
const LOADING_CHARS = 60;
// A line set all in bold or italics right before a paragraph or a list of text heads it,
// like a heading (a tutorial's or a blog's subheadings written in <b>, a style guide's kinds
// of source in <em> over their lists). Emphasis inside emphasis is counted once.
const HEADED_CHARS = 100;
const EMPHASIS = "b, strong, em, i";
const isBoldHeading = (el, text) => {
  const bold = [...el.querySelectorAll(EMPHASIS)].filter((b) => !el.contains(b.parentElement.closest(EMPHASIS)))
    .map((b) => squash(b.textContent)).join(" ");
  const next = el.nextElementSibling;
  return bold === text && Boolean(next?.matches("p, ul, ol")) && textLength(next) >= HEADED_CHARS && linkShare(next) < MAX_LEAD_LINK_SHARE;
};
// A line that gives a value ("Total: 45.00 EUR", "Order number: 40213", "Tel.: 030 1234")
// is the page's information, not a label, unless the value counts the page's own parts
// (comments, views, pages) or dates it.
const VALUE_LINE = /^\p{L}[\p{L}\p{N} .'’/-]{0,30}[:：]\s*\S*\p{N}/u;
const PAGE_COUNT = wordsOf(PHRASES.pageCount);
const givesValue = (el, text) => VALUE_LINE.test(text) && !PAGE_COUNT.test(text.split(/[:：]/)[0]) && !isDateLine(el, text);
const isLabel = (el, text) => (readingLength(text) < LABEL_CHARS
  && !el.closest("li, td, th, dd, dt, pre, h1, h2, h3, h4, h5, h6, blockquote") && !isBoldHeading(el, text)
  && !el.querySelector(`img[alt]:not([alt=""]), video, code, kbd, math`) && !SENTENCE_END.test(text) && !givesValue(el, text))
  || (text.length < LOADING_CHARS && LOADING.test(text));
const dropLabels = (root) => dropBlocks(root, textBlocks(root), (el, text) => isLabel(el, text) || isDateLine(el, text) || isSiteNotice(text));

// What the site says about the visit, not the story: "You are not logged in", "You are using
// a browser version with limited support for CSS", "Please enable JavaScript", "13 Besucher
// sind online".
const SITE_NOTICE = wordsOf(PHRASES.siteNotice);
const SITE_NOTICE_CHARS = 400;
const isSiteNotice = (text) => text.length < SITE_NOTICE_CHARS && SITE_NOTICE.test(text);

// A cookie banner that no class names, at either end of the reading: "Wir nutzen Cookies auf
// unserer Website …", "This site uses cookies …". (In between, such a line may be the page's
// own subject: a privacy policy.)
const COOKIE_NOTICE = /(?<!\p{L})cookies?(?!\p{L})/iu;
const COOKIE_USE = wordsOf(PHRASES.cookieUse);
const COOKIE_SITE = wordsOf(PHRASES.cookieSite);
const isCookieNotice = (text) => text.length < SITE_NOTICE_CHARS && COOKIE_NOTICE.test(text) && COOKIE_USE.test(text) && COOKIE_SITE.test(text);
const ENDS = 2;
function dropCookieNotices(root) {
  const blocks = textBlocks(root);
  const ends = blocks.length > 2 * ENDS ? [...blocks.slice(0, ENDS), ...blocks.slice(-ENDS)] : blocks;
  return dropBlocks(root, ends, (el, text) => isCookieNotice(text));
}

// Readers' comments, when no class or id said so: a line that opens them ("3 Kommentare",
// "2 comments on “…”", "Comments (4)", "Leave a reply", "Kommentar schreiben", "#1 Kommentar
// von …") in the second half of the reading ends the text. A bare "Comments" does not (a
// tutorial's section on comments in code).
const COMMENTS_OPEN = new RegExp(`^(${anyOf(PHRASES.commentsOpen)})[:.!]?$`, "iu");
const COMMENTS_OPEN_CHARS = 100;
function dropComments(root) {
  const total = textLength(root);
  let before = 0;
  for (const el of textBlocks(root)) {
    const text = squash(el.textContent);
    if (before > total / 2 && text.length < COMMENTS_OPEN_CHARS && COMMENTS_OPEN.test(text)) {
      const range = root.ownerDocument.createRange();
      range.setStartBefore(el);
      range.setEnd(root, root.childNodes.length);
      range.deleteContents();
      break;
    }
    before += text.length;
  }
  return root;
}

// A line that is a date (and time) with a word or two ("11 Jan 2019", "2021-10-16 | News",
// "asked Feb 6, 2014 at 20:37") dates the page, not the text. A labelled date ("Termin:
// 29.02.2020, 19 Uhr") is information the text gives, and a heading may be a diary's day.
const MONTH = String.raw`(${anyOf(PHRASES.month)})\p{L}*\.?`;
const DATE = new RegExp([
  "\\d{4}-\\d{1,2}-\\d{1,2}", "\\d{1,2}[./]\\s?\\d{1,2}[./]\\s?\\d{2,4}",
  `\\d{1,2}\\.?\\s+(de\\s+)?${MONTH}\\s+(de\\s+)?\\d{4}`, `${MONTH}\\s+\\d{1,2}(st|nd|rd|th)?,?\\s+\\d{4}`,
].join("|"), "iu");
const TIME = /\d{1,2}:\d{2}(\s?(am|pm|uhr|h))?(?!\p{L})/giu;
const DATE_LINE_CHARS = 50;
const DATE_LINE_WORDS = 2;
function firstDate(root) {
  for (const el of textBlocks(root)) {
    const text = squash(el.textContent);
    if (isDateLine(el, text)) return text.match(DATE)[0];
  }
  return undefined;
}
function isDateLine(el, text) {
  if (readingLength(text) >= DATE_LINE_CHARS || !DATE.test(text) || el.closest("li, td, th, dd, dt, pre, h1, h2, h3, h4, h5, h6")) return false;
  const rest = text.replace(new RegExp(DATE.source, "giu"), " ").replace(TIME, " ");
  return !rest.includes(":") && (rest.match(/\p{L}+/gu) ?? []).length <= DATE_LINE_WORDS;
}

// Text that sits loose between blocks ("<div><p>…</p><b>By:</b><br>a name</div>", a shop's
// tip line between two ads) is nobody's block, so no rule for lines reached it:
// each such run becomes a paragraph of its own. (List items and table cells keep their runs:
// an item's text before its sub-list is the item.)
const LOOSE_RUN_HOSTS = "div, section, article, main, blockquote, form, header, center, font, span";
function wrapLooseRuns(root) {
  for (const host of [root, ...root.querySelectorAll(LOOSE_RUN_HOSTS)]) {
    if (![...host.children].some((child) => child.matches(BLOCK_INSIDE))) continue;
    let run = [];
    // (Line breaks around a run, or between two blocks, only spaced the page: they go.)
    const flush = () => {
      while (run.length && isBlank(run[0])) dropBreak(run.shift());
      while (run.length && isBlank(run.at(-1))) dropBreak(run.pop());
      if (run.length) {
        const paragraph = host.ownerDocument.createElement("p");
        run[0].before(paragraph);
        paragraph.append(...run);
      }
      run = [];
    };
    for (const node of [...host.childNodes]) {
      if (node.nodeType === Node.ELEMENT_NODE && node.matches(BLOCK_INSIDE)) flush();
      else run.push(node);
    }
    flush();
  }
  return root;
}
const dropBreak = (node) => node.nodeName === "BR" && node.remove();
const isBlank = (node) => node.nodeName === "BR" || (node.nodeType !== Node.ELEMENT_NODE && !/\S/.test(node.textContent))
  || (node.nodeType === Node.ELEMENT_NODE && !/\S/.test(node.textContent) && !node.querySelector("img, video, svg, picture, iframe, math"));

// Removes the `blocks` of `root` that `unwanted(block, its squashed text)` picks.
function dropBlocks(root, blocks, unwanted) {
  for (const el of blocks) if (unwanted(el, squash(el.textContent))) el.remove();
  return root;
}

// A line that is mostly one link ("Read more: <another story>", "Lea: ...", a link to the
// forum thread) points elsewhere; list items and table cells are judged with their list.
const MAX_LINK_SHARE = 0.7;
const isLinkLine = (el) => linkShare(el) > MAX_LINK_SHARE && !inListOrTable(el) && !isHeading(el);
const dropLinkedLines = (root) => dropBlocks(root, textBlocks(root), isLinkLine);

// A line pointing to more reading elsewhere on the site ("Mehr zum Thema", "Weitere Artikel",
// "Lesen Sie auch", "Related posts", "À lire aussi", "Te puede interesar") heads a list of
// links that went with the cleaning, or that follows: it is never the text. A list of links
// right after it goes with it; a list of text after it keeps it as its heading.
const POINTER = new RegExp(String.raw`^(${anyOf(PHRASES.morePointer)})(?!\p{L})`, "iu");
const POINTER_CHARS = 60;
// ... and a line that names one other story ("Lea también: …", "Hier geht es zum …", "Read
// more: …"; the lexicon's storyPointer lists).
const STORY_POINTER = new RegExp(String.raw`^(${anyOf(PHRASES.storyPointer)})|(?<!\p{L})(${anyOf(PHRASES.storyPointerEnd)})[.!]?$`, "iu");
const STORY_POINTER_CAPITALS = new RegExp(String.raw`^(${anyOf(PHRASES.storyPointerCapitals)})\s*:`, "u");
const STORY_POINTER_CHARS = 150;
const isStoryPointer = (text) => text.length < STORY_POINTER_CHARS && (STORY_POINTER.test(text) || STORY_POINTER_CAPITALS.test(text));
// ... and a line asking the reader to sign up for the newsletter, wherever it stands ("Never
// miss the latest news by signing up to our newsletter today!").
const NEWSLETTER_CALL_CHARS = 150;
const NEWSLETTER_SIGN_UP = wordsOf(PHRASES.newsletterSignUp);
const isNewsletterCall = (el, text) => text.length < NEWSLETTER_CALL_CHARS && /\p{L}*newsletter/iu.test(text)
  && (ASK.test(text) || NEWSLETTER_SIGN_UP.test(text)) && !inListOrDataTable(el);
function dropPointers(root) {
  for (const el of textBlocks(root)) {
    const text = squash(el.textContent);
    if (isStoryPointer(text) || (!isHeading(el) && isNewsletterCall(el, text))) {
      el.remove();
      continue;
    }
    if (readingLength(text) >= POINTER_CHARS || !POINTER.test(text)) continue;
    const next = el.nextElementSibling;
    if (next?.matches("ul, ol")) {
      if (linkShare(next) <= LINK_LIST_SHARE) continue;
      next.remove();
    }
    el.remove();
  }
  return root;
}

// Photo credits and image sources, in the languages of the web ("Foto: dpa", "Bild: ...",
// "(crédito: ...)", "© Getty Images"): a short line that names one is not the text.
const CREDIT = new RegExp(String.raw`(^|[\s(|])(©|(\(c\)|${anyOf(PHRASES.credit)})\s*[:/©])`, "i");
const CREDIT_CHARS = 250;
// ... or that opens with one ("Beitragsbild via Unsplash.", "Photo by Jane Doe on Unsplash").
const CREDIT_LINE = new RegExp(String.raw`^(${anyOf(PHRASES.creditLine)})\s+(via|by|von)\s`, "iu");
const CREDIT_LINE_CHARS = 100;
const isCredit = (text) => (text.length < CREDIT_CHARS && CREDIT.test(text)) || (text.length < CREDIT_LINE_CHARS && CREDIT_LINE.test(text));
const dropCredits = (root) => dropBlocks(root, textBlocks(root), (el, text) => isCredit(text) && !inListOrTable(el));

// What follows the text's last sentence: headings of sections that were boilerplate ("More
// on this", "Weitere Artikel"), link lines and short labels, up to a line giving a value.
// A longer run of such lines is a list the page means (a poem, a table of contents).
const TRAILING_CHARS = 40;
const MAX_TRAILING = 4;
function dropTrailing(root) {
  const trailing = [];
  for (const el of textBlocks(root).reverse()) {
    const text = squash(el.textContent);
    if (!(isHeading(el) && !carriesText(el)) && !isLinkLine(el) && (readingLength(text) >= TRAILING_CHARS || SENTENCE_END.test(text) || givesValue(el, text))) break;
    trailing.push(el);
  }
  if (trailing.length <= MAX_TRAILING) for (const el of trailing) el.remove();
  return root;
}

// The site's own calls at the end of a story to follow it or subscribe ("Follow us on
// Instagram", "Únete a nuestro canal de Telegram", "Abonnieren Sie den Newsletter"): a short
// line among the last few that names a channel and asks for the reader's follow.
// (A newsletter may be named in a compound, in German.)
const CHANNEL = wordsOf(PHRASES.channel);
const ASK = wordsOf(PHRASES.ask);
const CALL_CHARS = 250;
const LAST_LINES = 3;
// ... and its asks to share or rate the story, or to support the site ("Möchten Sie den
// Artikel teilen?", "Was this article helpful?", "Would you consider supporting our work?").
const ENGAGE = wordsOf(PHRASES.engage);
// ... and its closing notes on the page itself: the licence, how to cite it, and the blog's
// "This entry was posted in ..." ("Dieser Text wurde veröffentlicht unter der Lizenz CC-BY",
// "Suggested citation", "Der Beitrag wurde am ... veröffentlicht und wurde unter ... abgelegt").
const CLOSING_NOTE = wordsOf([...PHRASES.licence, ...PHRASES.postedNote]);
// (A blog's closing note runs longer than a call: the theme adds where the post was filed
// and how to follow its comments by RSS.)
// A licence is named in shorter lines: a longer one naming Creative Commons may be about it.
const POSTED_NOTE = wordsOf(PHRASES.postedNote);
const NOTE_CHARS = 400;
const isCallToAction = (text) => (text.length < CALL_CHARS && ((CHANNEL.test(text) && ASK.test(text)) || ENGAGE.test(text) || CLOSING_NOTE.test(text)))
  || (text.length < NOTE_CHARS && POSTED_NOTE.test(text));
// (Several calls in a row at the end do not hide each other: the last lines are counted
// without them.)
// A call can also be the last lines of a block that <br>s split ("...award-winning
// professionals.<br><br><i>Tell us in the comments: ...</i>"): those lines go, the block stays.
const isCall = (el, text) => isCallToAction(text) && !inListOrDataTable(el);
function dropCallsToAction(root) {
  let lines = 0;
  for (const el of textBlocks(root).reverse()) {
    const whole = isCall(el, squash(el.textContent));
    dropClosingLines(el);
    const rest = squash(el.textContent);
    // (What is left of a call's block is kept only if it is a sentence of text.)
    if (isCall(el, rest) || (whole && !(readingLength(rest) >= LEAD_CHARS && SENTENCE_END.test(rest)))) el.remove();
    else if (++lines >= LAST_LINES) break;
  }
  return root;
}
function dropClosingLines(block) {
  const lines = [[]];
  for (const node of block.childNodes) node.nodeName === "BR" ? lines.push([node]) : lines.at(-1).push(node);
  const text = (line) => squash(line.map((node) => node.textContent).join(""));
  const blank = (line) => line.every((node) => node.nodeName === "BR" || (node.nodeType === Node.TEXT_NODE && !squash(node.textContent)));
  while (lines.length > 1) {
    const last = lines.at(-1);
    if (!blank(last) && !(text(last) && isCall(block, text(last)))) break;
    for (const node of lines.pop()) node.remove();
  }
}

// The advertising disclosure a post opens with ("This post contains references to products
// from our advertisers...", "*Werbung. Dieser Beitrag enthält Werbung für...", "Affiliate
// links"): a short line among the first two that discloses is not the text, nor its lead.
const DISCLOSURE = wordsOf(PHRASES.disclosure);
const DISCLOSURE_CHARS = 400;
const FIRST_LINES = 2;
const isDisclosure = (text) => text.length < DISCLOSURE_CHARS && DISCLOSURE.test(text);
const dropDisclosures = (root) => dropBlocks(root, textBlocks(root).slice(0, FIRST_LINES),
  (el, text) => isDisclosure(text) && !inListOrTable(el) && !isHeading(el));

// The rules for lines of the reading, in the order they run: readers' comments go first
// (what follows them is theirs), then what stands alone as a line, then what the text's end
// and start hold.
const LINE_RULES = [dropComments, dropCookieNotices, dropLabels, dropLinkedLines, dropPointers, dropCredits,
  dropTrailing, dropCallsToAction, dropDisclosures];
// The reading without its lines that are not the text.
const cleanLines = (root) => LINE_RULES.reduce((text, rule) => rule(text), root);

export { CONTENT_MARKERS, LEAD_CHARS, LEAF_BLOCKS, LINK_LIST_SHARE, MAX_LEAD_LINK_SHARE, MIN_ARTICLE_CHARS,
  SHORT_LINE, firstDate, inListOrTable, isCookieNotice, isCredit, isDateLine, isDisclosure, isHeading,
  isSiteNotice, nameWords, removeBoilerplate, removeEmptySections, removeLinkLists, wrapLooseRuns, cleanLines };
