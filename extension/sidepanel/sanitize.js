// The one place the panel turns untrusted HTML (the model's rendered Markdown) into DOM:
// DOMPurify removes anything that could run (scripts, event handlers, javascript: links),
// and links open in a new tab without a handle back to the panel.

import DOMPurify from "../vendor/dompurify/purify.es.mjs";

export function sanitizeHtml(html) {
  const fragment = DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true });
  for (const link of fragment.querySelectorAll("a[href]")) {
    link.target = "_blank";
    link.rel = "noopener noreferrer";
  }
  return fragment;
}
