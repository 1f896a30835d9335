// Colours for code: highlight.js (378 KB, every language it knows) is imported when the panel
// first shows a block of code, not when the panel opens (its start pings Python: the sooner,
// the sooner Python is ready). A block shown before highlight.js is here is its plain text at
// once, and is coloured when highlight.js arrives, exactly as it would have been coloured had
// it been here (tests/e2e/test_code_colours.py). Too long a block is never coloured (LIMITS).

import { escapeHtml, LIMITS } from "./render-limits.js";
import { sanitizeHtml } from "./sanitize.js";

let hljs = null; // highlight.js, once imported
let arriving = null; // the promise of it, from the first block on
let failed = false; // it could not be imported: code stays plain
const waiting = new Map(); // <code> element shown plain -> { code, language, after }: coloured when it comes

// The code as HTML: coloured in `language` when highlight.js is here and knows it, else plain
// (escaped) text; the first call sends for highlight.js.
export function colouredHtml(code, language) {
  if (code.length > LIMITS.highlightChars) return escapeHtml(code); // shown with a note (markdown.js)
  if (!hljs) {
    sendForHighlightJs();
    return escapeHtml(code);
  }
  return hljs.highlight(code, { language: hljs.getLanguage(language) ? language : "plaintext", ignoreIllegals: true }).value;
}

// A block rendered plain is coloured once highlight.js is here: `code` is its text, `after` what
// the rendering put after the coloured text inside the element (marked ends a block with "\n").
export function colourWhenHere(element, { code, language, after = "" }) {
  if (hljs || failed || code.length > LIMITS.highlightChars || !language) return;
  waiting.set(element, { code, language, after });
  sendForHighlightJs();
}

// Resolves once highlight.js is here and every block shown before it has its colours (or at
// once, when no block ever sent for it); for the tests, and anyone who must see colours.
export function codeColoured() {
  return arriving ?? Promise.resolve(false);
}

function sendForHighlightJs() {
  arriving ??= import("../vendor/highlight/highlight.mjs").then(
    (module) => {
      hljs = module.default;
      colourWaiting();
      return true;
    },
    (error) => {
      // Code stays readable without its colours: the panel says why in its console only.
      console.warn("TabAgent: code is shown without colours:", error?.message ?? error);
      failed = true;
      waiting.clear();
      return false;
    },
  );
}

function colourWaiting() {
  for (const [element, { code, language, after }] of waiting) {
    if (!hljs.getLanguage(language)) continue; // plain text either way ("plaintext")
    element.replaceChildren(sanitizeHtml(colouredHtml(code, language) + escapeHtml(after)));
  }
  waiting.clear();
}
