// The model's Markdown as safe HTML: marked renders it, sanitizeHtml (./sanitize.js) removes
// anything that could run or load a URL before it touches the DOM.

import { marked } from "../vendor/marked/marked.esm.js";
import { sanitizeHtml } from "./sanitize.js";

marked.setOptions({ gfm: true, breaks: false });

export function renderMarkdown(element, markdown) {
  element.replaceChildren(sanitizeHtml(marked.parse(String(markdown ?? ""))));
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
