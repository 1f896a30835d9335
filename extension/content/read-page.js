// read_page: the main content of the tab as Markdown, in pages of a token budget.
//
// main-content-choosing.js finds the article (on a copy of the page: nothing on the page changes);
// html-to-markdown.js converts it; pagination.js cuts it into pages.

import { PAGE_TOOL_DEFAULTS } from "../shared/wire.js";
import { NoSuchPart, PageToolError, clamp, arg } from "./tool-arguments.js";
import { toMarkdown } from "./html-to-markdown.js";
import * as mainContent from "./main-content-choosing.js";
import * as pagination from "./pagination.js";
import { justChanged } from "./just-changed.js";

export const tools = {};

const CHARS_PER_TOKEN = 4; // the usual rough estimate for English text

function extract() {
  if (!document.body) {
    throw new PageToolError("This tab has no page text to read (it may be showing a PDF, an image or a browser page).");
  }
  const { article, content, extracted_by } = mainContent.extract(document);
  return { article, markdown: toMarkdown(content, { consume: true }), extracted_by };
}

function readPage({ page: number, max_tokens }) {
  const budget = clamp(max_tokens, 200, 100000);
  const { article, markdown, extracted_by } = extract();
  const pages = pagination.paginate(markdown, budget * CHARS_PER_TOKEN);
  if (!Number.isInteger(number) || number < 1 || number > pages.length) {
    throw new NoSuchPart(
      `There is no page ${number}: at ${budget} tokens a page, this tab has ${pages.length} page${pages.length > 1 ? "s" : ""} (1 to ${pages.length}).`,
      { asked: number, parts: pages.length, part_tokens: budget });
  }
  const root = document.documentElement;
  const result = {
    title: article.title || document.title,
    url: location.href,
    byline: article.byline || null,
    lang: article.lang || root.lang || null,
    dir: article.dir || root.dir || getComputedStyle(root).direction,
    excerpt: article.excerpt || null,
    site_name: article.siteName || null,
    published_time: article.publishedTime || null,
    length: markdown.length,
    extracted_by,
    page: number,
    pages: pages.length,
    markdown: pages[number - 1],
  };
  const changed = justChanged(markdown); // a status line, an alert, a dialog, new text: on every page
  if (changed.length) result.just_changed = changed;
  if (number < pages.length) result.note = `This is page ${number} of ${pages.length}; call read_page with page=${number + 1} for the next.`;
  return result;
}

tools.read_page = {
  params: { page: arg("number", PAGE_TOOL_DEFAULTS.read_page.page), max_tokens: arg("number", PAGE_TOOL_DEFAULTS.read_page.max_tokens) },
  run: readPage,
};
