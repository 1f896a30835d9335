// The model's Markdown as safe HTML: marked renders it, DOMPurify removes anything that
// could run (scripts, event handlers, javascript: links) before it touches the DOM.

import { marked } from "../vendor/marked/marked.esm.js";
import DOMPurify from "../vendor/dompurify/purify.es.mjs";

marked.setOptions({ gfm: true, breaks: false });

export function renderMarkdown(element, markdown) {
  const html = marked.parse(String(markdown ?? ""));
  element.replaceChildren(DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true }));
  for (const link of element.querySelectorAll("a[href]")) {
    link.target = "_blank";
    link.rel = "noopener noreferrer";
  }
  for (const block of element.querySelectorAll("pre")) addCopyButton(block);
}

export function addCopyButton(block) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = "Copy";
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText(block.querySelector("code")?.textContent ?? block.textContent);
    button.textContent = "Copied";
    setTimeout(() => (button.textContent = "Copy"), 1200);
  });
  block.classList.add("copyable");
  block.append(button);
}
