"""Markdown rendered in the real panel by its own renderer, outside any turn."""

from __future__ import annotations

RENDER_IN_PANEL = """
const [markdown, done] = [arguments[0], arguments[arguments.length - 1]];
import(chrome.runtime.getURL("extension/sidepanel/markdown.js")).then(({ renderMarkdown }) => {
  const box = document.createElement("div");
  box.className = "message assistant markdown red-team";
  document.querySelector("#conversation").append(box);
  renderMarkdown(box, markdown);
  done(null);
}, (error) => done(String(error)));
"""
