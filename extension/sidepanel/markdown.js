// The model's Markdown as safe DOM: marked renders it (code coloured by highlight.js, once it
// is here: code-colours.js; math by KaTeX), sanitize.js cleans it before it touches the page.
// While a reply streams, LiveMarkdown renders it block by block: finished blocks are rendered
// once and kept, only the last (still growing) block is rendered again as tokens arrive.
//
// The answer is untrusted, so rendering is bounded (render-limits.js): quotes and lists
// nest only so deep, long code is not coloured, a block of too many elements and a block
// that fails to render show as plain text with a note, and the rest renders as usual.

import { Marked } from "../vendor/marked/marked.esm.js";
import { markedHighlight } from "../vendor/marked-highlight/marked-highlight.mjs";
import { colouredHtml, colourWhenHere } from "./code-colours.js";
import { mathExtension } from "./math.js";
import { fillFormulas } from "./formulas.js";
import { htmlNesting, LIMITS, plainTextElement, plainTextHtml } from "./render-limits.js";
import { sanitizeHtml } from "./sanitize.js";
import { WindowedLexer } from "./lex-windows.js";
import { h } from "../shared/ui/dom.js";
import { t } from "../shared/ui/i18n.js";

// Quotes, lists and emphasis are parsed by recursion: past LIMITS.nesting levels, before
// the stack gives way, what is left of a block (up to its next blank line) is plain text,
// and deeper emphasis marks are read as the characters they are.
let nesting = 0;

function limitNesting(kind, pastTheLimit) {
  return function (src, ...rest) {
    if (nesting >= LIMITS.nesting) return pastTheLimit.call(this, src, kind);
    nesting += 1;
    try {
      return marked.Tokenizer.prototype[kind].call(this, src, ...rest);
    } finally {
      nesting -= 1;
    }
  };
}

function plainBlock(src, kind) {
  if (!this.rules.block[kind].test(src)) return undefined;
  const end = src.search(/\n[ \t]*(\n|$)/);
  const raw = end < 0 ? src : src.slice(0, end + 1);
  return { type: "tooDeep", raw, text: raw };
}

const asText = () => undefined;

// Finding where each emphasis ends scans the rest of its paragraph: a paragraph of
// thousands of marks would cost seconds, so past LIMITS.emphasisMarks they are its text.
let counted = { text: null, marks: 0 };

function limitEmphasis(kind) {
  const nested = limitNesting(kind, asText);
  return function (src, maskedSrc, ...rest) {
    if (counted.text !== maskedSrc) counted = { text: maskedSrc, marks: maskedSrc.match(/[*_~]/g)?.length ?? 0 };
    return counted.marks > LIMITS.emphasisMarks ? undefined : nested.call(this, src, maskedSrc, ...rest);
  };
}

const marked = new Marked(
  { gfm: true, breaks: false },
  markedHighlight({
    langPrefix: "hljs language-",
    highlight: (code, lang) => colouredHtml(code, lang),
  }),
  mathExtension,
  {
    tokenizer: {
      blockquote: limitNesting("blockquote", plainBlock),
      list: limitNesting("list", plainBlock),
      emStrong: limitEmphasis("emStrong"),
      del: limitEmphasis("del"),
    },
    extensions: [{ name: "tooDeep", renderer: (token) => plainTextHtml(token.text) }],
  },
);

// Tokens, highlighted. When the text (a window of it: lex-windows.js) cannot be parsed whole
// (a construct that still overflows the stack), each part between blank lines is parsed
// alone, and a part that fails is plain text: one bad block never takes the others with it.
function lex(text) {
  try {
    return lexAll(text);
  } catch {
    const parts = text.split(/(?<=\n[ \t]*\n)/).map((part) => {
      try {
        return lexAll(part);
      } catch {
        return Object.assign([{ type: "tooDeep", raw: part, text: part }], { links: {} });
      }
    });
    return Object.assign(parts.flat(), { links: Object.assign({}, ...parts.map((part) => part.links)) });
  }
}

function lexAll(text) {
  const tokens = marked.lexer(text);
  for (const [index, token] of tokens.entries()) {
    if (token.type !== "code" && htmlNesting(token.raw) > LIMITS.htmlNesting) tokens[index] = { type: "tooDeep", raw: token.raw, text: token.raw };
  }
  // What marked.parse does between lexing and rendering: the highlighting happens here.
  if (marked.defaults.walkTokens) marked.walkTokens(tokens, marked.defaults.walkTokens);
  return tokens;
}

function toHtml(tokens) {
  try {
    return marked.parser(tokens);
  } catch {
    return tokens.map((token) => {
      try {
        return marked.parser(Object.assign([token], { links: tokens.links }));
      } catch {
        return plainTextHtml(token.raw);
      }
    }).join("");
  }
}

function toFragment(tokens) {
  const fragment = sanitizeHtml(toHtml(tokens));
  for (const block of [...fragment.children]) {
    if (block.getElementsByTagName("*").length > LIMITS.blockElements) block.replaceWith(plainTextElement(block.textContent));
  }
  for (const block of fragment.querySelectorAll("pre:not(.render-limit-text)")) {
    colourLater(block.querySelector(":scope > code"));
    addCopyButton(block);
    if (block.textContent.length > LIMITS.highlightChars) block.after(h("span", { class: "render-limit-note" }, t("notHighlighted")));
  }
  fillFormulas(fragment);
  return fragment;
}

// A block of code rendered before highlight.js was here (code-colours.js) gets its colours when
// it comes: its text is what marked put in the element, less the line end marked adds.
function colourLater(code) {
  const language = code?.className.match(/(?:^|\s)language-(\S+)/)?.[1];
  if (!language) return; // no language named: plain text either way
  const text = code.textContent;
  const after = text.endsWith("\n") ? "\n" : "";
  colourWhenHere(code, { code: text.slice(0, text.length - after.length), language, after });
}

// A whole answer, lexed and rendered a window at a time (lex-windows.js): the first holds a
// short answer, and a longer one (a stored or imported answer of a megabyte) goes on in
// later tasks, one window a frame, so the panel answers meanwhile. The element is aria-busy
// until the last window is in. Each window is cleaned by the sanitiser on its own and put in
// as elements, so nothing an answer writes across two windows can join up after cleaning.
export const WINDOW_SIZES = { first: 4_000, next: 8_000 }; // characters of Markdown per window
const renderings = new WeakMap(); // element -> its latest rendering (an older one stops)
const nextTask = new MessageChannel(); // not throttled like timers in a background tab
nextTask.port1.onmessage = () => nextTask.queue.shift()?.();
nextTask.queue = [];

// One window per frame: the browser lays out and paints what one window added, not what
// several did (a frame that laid out five windows' worth took 60 ms of CPU). The window renders
// in the task after the frame starts. A panel that is not shown gets no frames: it goes on at
// once, or after a while if it was hidden while waiting.
function afterNextFrame(run) {
  let started = false;
  let timer = null;
  const inTask = () => {
    if (started) return;
    started = true;
    clearTimeout(timer);
    nextTask.queue.push(run);
    nextTask.port2.postMessage(null);
  };
  if (document.hidden) return inTask();
  timer = setTimeout(inTask, 200);
  requestAnimationFrame(inTask);
}

// Resolves once the answer is all in, or its rendering was replaced or stopped. `sizes` is
// for the tests, which compare windows of every size with one of the whole text.
export function renderMarkdown(element, markdown, sizes = WINDOW_SIZES) {
  const rendering = { lexer: new WindowedLexer(markdown ?? "", lex), sizes };
  const finished = new Promise((resolve) => (rendering.finish = resolve));
  renderings.get(element)?.finish();
  renderings.set(element, rendering);
  element.replaceChildren();
  renderWindow(element, rendering, sizes.first);
  return finished;
}

// The answer's element is going off the screen (another conversation opened): its rendering
// stops, rather than go on costing the panel's time for nothing.
export function stopRendering(element) {
  renderings.get(element)?.finish();
  renderings.delete(element);
  element.removeAttribute("aria-busy");
}

// The first window is rendered whole, however long its first block: the answer shows at once.
function renderWindow(element, rendering, size, first = true) {
  if (renderings.get(element) !== rendering) return rendering.finish();
  const { lexer } = rendering;
  const piece = lexer.done ? null : lexer.next(size, { atOnce: first });
  if (piece) element.append(toFragment(piece));
  if (lexer.done) {
    element.removeAttribute("aria-busy");
    return rendering.finish();
  }
  element.setAttribute("aria-busy", "true");
  afterNextFrame(() => renderWindow(element, rendering, rendering.sizes.next, false));
}

export class LiveMarkdown {
  constructor(element) {
    this.element = element;
    this.text = "";
    this.frozenLength = 0; // how much of `text` is in finished, rendered blocks
    this.tail = document.createElement("div");
    this.tail.className = "markdown-tail";
    element.append(this.tail);
  }

  // Text to render at the next update(): a batch of tokens (or a stored turn) renders once.
  add(piece) {
    this.text += piece;
  }

  append(piece) {
    this.add(piece);
    this.update();
  }

  // The whole text again (a step's code moved out of it, say): start over.
  set(text) {
    this.text = text;
    this.frozenLength = 0;
    this.element.replaceChildren(this.tail);
    this.update();
  }

  update() {
    const tokens = lex(this.text.slice(this.frozenLength));
    let last = tokens.length - 1;
    while (last > 0 && tokens[last].type === "space") last -= 1;
    if (last > 0) {
      const done = tokens.slice(0, last);
      done.links = tokens.links;
      this.tail.before(toFragment(done));
      this.frozenLength += done.reduce((sum, token) => sum + token.raw.length, 0);
    }
    const open = tokens.slice(Math.max(last, 0));
    open.links = tokens.links;
    this.tail.replaceChildren(toFragment(open));
  }
}

// The code a CodeAgent ran, highlighted like the code in answers (and cleaned the same way).
export function codeBlock(code, language = "python") {
  const block = sanitizeHtml(`<pre class="code"><code class="hljs language-${language}">${colouredHtml(String(code), language)}</code></pre>`).firstElementChild;
  colourWhenHere(block.firstElementChild, { code: String(code), language });
  addCopyButton(block);
  return block;
}

export function addCopyButton(block) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = t("copy");
  button.setAttribute("aria-label", t("copyCode"));
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText(block.querySelector("code")?.textContent ?? block.textContent);
    button.textContent = t("copied");
    setTimeout(() => (button.textContent = t("copy")), 1200);
  });
  block.classList.add("copyable");
  block.append(button);
}
