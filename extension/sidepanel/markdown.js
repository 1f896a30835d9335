// The model's Markdown as safe DOM: marked renders it (code highlighted by highlight.js,
// math by KaTeX), sanitize.js cleans it before it touches the page. While a reply streams,
// LiveMarkdown renders it block by block: finished blocks are rendered once and kept, only
// the last (still growing) block is rendered again as tokens arrive.

import { Marked } from "../vendor/marked/marked.esm.js";
import { markedHighlight } from "../vendor/marked-highlight/marked-highlight.mjs";
import hljs from "../vendor/highlight/highlight.mjs";
import { mathExtension } from "./math.js";
import { sanitizeHtml } from "./sanitize.js";
import { t } from "../shared/i18n.js";

const marked = new Marked(
  { gfm: true, breaks: false },
  markedHighlight({
    langPrefix: "hljs language-",
    highlight(code, lang) {
      const language = hljs.getLanguage(lang) ? lang : "plaintext";
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    },
  }),
  mathExtension,
);

function toFragment(html) {
  const fragment = sanitizeHtml(html);
  for (const block of fragment.querySelectorAll("pre")) addCopyButton(block);
  return fragment;
}

export function renderMarkdown(element, markdown) {
  element.replaceChildren(toFragment(marked.parse(String(markdown ?? ""))));
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
    const tokens = marked.lexer(this.text.slice(this.frozenLength));
    // What marked.parse does between lexing and rendering: the highlighting happens here.
    if (marked.defaults.walkTokens) marked.walkTokens(tokens, marked.defaults.walkTokens);
    let last = tokens.length - 1;
    while (last > 0 && tokens[last].type === "space") last -= 1;
    if (last > 0) {
      const done = tokens.slice(0, last);
      done.links = tokens.links;
      this.tail.before(toFragment(marked.parser(done)));
      this.frozenLength += done.reduce((sum, token) => sum + token.raw.length, 0);
    }
    const open = tokens.slice(Math.max(last, 0));
    open.links = tokens.links;
    this.tail.replaceChildren(toFragment(marked.parser(open)));
  }
}

// The code a CodeAgent ran, highlighted like the code in answers (and cleaned the same way).
export function codeBlock(code, language = "python") {
  const highlighted = hljs.highlight(String(code), { language, ignoreIllegals: true }).value;
  const block = sanitizeHtml(`<pre class="code"><code class="hljs language-${language}">${highlighted}</code></pre>`).firstElementChild;
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
