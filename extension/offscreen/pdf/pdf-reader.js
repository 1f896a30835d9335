// The page tools on a PDF. Chrome's PDF viewer keeps extensions out, so content scripts
// cannot read a PDF tab: the document is downloaded here instead (host permissions let an
// extension page fetch it: pdf-download.js, which says with which cookies and why it follows
// no redirect) and its text taken out with pdf.js, one string per PDF page. read_page pages
// that text by the same token budget as any page, with "PDF page N" marks; find_in_page says
// on which PDF page each match is. No error sentence quotes the PDF's address or its contents:
// they reach the model unmarked.
//
// Answers are the content script's: { ok: true, result } or { ok: false, error } (a sentence; with
// no_such_part for a part out of range, as content/page-tools.js gives it).

import { PdfError, download } from "./pdf-download.js";
import { PAGE_TOOL_DEFAULTS } from "../../shared/wire.js";

const VENDOR = "extension/vendor/pdfjs/";
const CHARS_PER_TOKEN = 4; // as read_page on a web page (extension/content/read-page.js)
const KEEP_DOCUMENTS = 4; // a few PDFs read lately, so paging through one does not parse it again
const FRESH_MS = 5 * 60 * 1000;

let library = null;
function pdfjs() {
  library ??= import(`../../vendor/pdfjs/pdf.min.mjs`).then((module) => {
    module.GlobalWorkerOptions.workerSrc = chrome.runtime.getURL(`${VENDOR}pdf.worker.min.mjs`);
    return module;
  });
  return library;
}

// A text item ends its line when pdf.js says so; items on one line are joined as they are.
function pageText(content) {
  let text = "";
  for (const item of content.items) {
    if (typeof item.str !== "string") continue;
    text += item.str + (item.hasEOL ? "\n" : "");
  }
  // Control characters are what a font without a usable character map gives: not text.
  // eslint-disable-next-line no-control-regex -- they are what this removes
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
}

// Also read_download's, for a downloaded PDF (downloaded-file.js).
export async function parse(url, bytes) {
  const { getDocument } = await pdfjs();
  const task = getDocument({
    data: bytes,
    isEvalSupported: false, // the extension's CSP has no 'unsafe-eval'
    disableFontFace: true,
    disableWorkerRendering: true,
    cMapUrl: chrome.runtime.getURL(`${VENDOR}cmaps/`),
    cMapPacked: true,
  });
  let pdf;
  try {
    pdf = await task.promise;
  } catch (error) {
    await task.destroy();
    if (error?.name === "PasswordException") throw new PdfError("This PDF is protected by a password, so TabAgent cannot read it.");
    if (error?.name === "InvalidPDFException") throw new PdfError("This is not a readable PDF: the file is damaged or is not a PDF.");
    // pdf.js's messages can quote the file; the kind of error it names cannot.
    throw new PdfError(`TabAgent could not read this PDF (pdf.js gave up: ${error?.name || "an unknown error"}).`);
  }
  try {
    // Asked all at once: the worker still works page by page, but never waits for us.
    const numbers = Array.from({ length: pdf.numPages }, (_, i) => i + 1);
    const pages = await Promise.all(numbers.map(async (number) => {
      const page = await pdf.getPage(number);
      return pageText(await page.getTextContent());
    }));
    const { info } = await pdf.getMetadata().catch(() => ({ info: {} }));
    return { url, pages, title: info?.Title || null, author: info?.Author || null, lang: info?.Language || null };
  } finally {
    await task.destroy();
  }
}

const documents = new Map(); // url -> { read: Promise of a parsed PDF, at }

function readPdf(url) {
  const kept = documents.get(url);
  if (kept && Date.now() - kept.at < FRESH_MS) return kept.read;
  const read = download(url).then((bytes) => parse(url, bytes));
  documents.set(url, { read, at: Date.now() });
  read.catch(() => documents.delete(url)); // a failure is tried afresh next time
  while (documents.size > KEEP_DOCUMENTS) documents.delete(documents.keys().next().value);
  return read;
}

const clamp = (n, lo, hi) => Math.max(lo, Math.min(hi, Math.floor(Number.isFinite(n) ? n : lo)));

// A PDF with no text at all is most likely scanned: pictures of pages, which need OCR.
function requireText(pdf) {
  if (pdf.pages.some((text) => text)) return;
  const count = pdf.pages.length;
  throw new PdfError(`This PDF has no text layer (${count} page${count === 1 ? "" : "s"}, no text on any): ` +
    "it is probably scanned images of pages, and TabAgent cannot read text from images.");
}

// Parts of at most maxChars, each PDF page starting with its mark; a page too long for one
// part is cut between lines and its mark repeated with "(continued)".
function paginate(pages, maxChars) {
  const parts = [];
  let current = { text: "", from: 0, to: 0 };
  const add = (number, block) => {
    if (current.text && current.text.length + 2 + block.length > maxChars) {
      parts.push(current);
      current = { text: "", from: 0, to: 0 };
    }
    current.text = current.text ? `${current.text}\n\n${block}` : block;
    current.from ||= number;
    current.to = number;
  };
  pages.forEach((text, index) => {
    const number = index + 1;
    const mark = `### PDF page ${number}`;
    const body = text || "(no text on this page)";
    const room = maxChars - mark.length - 20;
    for (const [i, piece] of cut(body, room).entries()) add(number, `${mark}${i ? " (continued)" : ""}\n\n${piece}`);
  });
  if (current.text || !parts.length) parts.push(current);
  return parts;
}

function cut(text, max) {
  if (text.length <= max) return [text];
  const pieces = [];
  let rest = text;
  while (rest.length > max) {
    let at = rest.lastIndexOf("\n", max);
    if (at < max / 2) at = rest.lastIndexOf(" ", max);
    if (at < max / 2) at = max;
    pieces.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

function readPage(pdf, { page: number = PAGE_TOOL_DEFAULTS.read_page.page, max_tokens = PAGE_TOOL_DEFAULTS.read_page.max_tokens }) {
  requireText(pdf);
  const budget = clamp(max_tokens, 200, 100000);
  const parts = paginate(pdf.pages, budget * CHARS_PER_TOKEN);
  if (!Number.isInteger(number) || number < 1 || number > parts.length) {
    const error = new PdfError(`There is no page ${number}: at ${budget} tokens a page, this PDF makes ${parts.length} ` +
      `page${parts.length > 1 ? "s" : ""} (1 to ${parts.length}).`);
    error.part = { asked: number, parts: parts.length, part_tokens: budget, pdf: true }; // wire.js NO_SUCH_PART
    throw error;
  }
  const part = parts[number - 1];
  const count = pdf.pages.length;
  const empty = pdf.pages.flatMap((text, i) => (text ? [] : [i + 1]));
  const notes = [`This part holds PDF page${part.from === part.to ? ` ${part.from}` : `s ${part.from} to ${part.to}`} of ${count}.`];
  if (number < parts.length) notes.push(`Call read_page with page=${number + 1} for the next part.`);
  if (empty.length) notes.push(`PDF page${empty.length > 1 ? "s" : ""} ${empty.join(", ")} ha${empty.length > 1 ? "ve" : "s"} no text (scanned or drawn).`);
  const length = parts.reduce((sum, p) => sum + p.text.length, 0);
  return {
    title: pdf.title || titleFromUrl(pdf.url),
    url: pdf.url,
    byline: pdf.author,
    lang: pdf.lang,
    length,
    extracted_by: "pdf.js",
    pdf_pages: count,
    page: number,
    pages: parts.length,
    markdown: part.text,
    note: notes.join(" "),
  };
}

const titleFromUrl = (url) => decodeURIComponent(new URL(url).pathname.split("/").pop() || url);

const squash = (text) => text.replace(/\s+/g, " ").trim();
const escapeRegExp = (word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function findInPdf(pdf, { query, max_results = PAGE_TOOL_DEFAULTS.find_in_page.max_results,
  context_chars = PAGE_TOOL_DEFAULTS.find_in_page.context_chars, case_sensitive = false }) {
  if (typeof query !== "string" || !query.trim()) throw new PdfError("find_in_page needs some text to look for.");
  requireText(pdf);
  const max = clamp(max_results, 1, 500);
  const size = clamp(context_chars, 0, 2000);
  // Any whitespace between the words matches, so a phrase broken across lines is found.
  const regex = new RegExp(query.trim().split(/\s+/).map(escapeRegExp).join("\\s+"), case_sensitive ? "g" : "gi");
  const matches = [];
  let total = 0;
  pdf.pages.forEach((text, index) => {
    for (const found of text.matchAll(regex)) {
      total++;
      if (matches.length >= max) continue;
      const end = found.index + found[0].length;
      matches.push({
        pdf_page: index + 1,
        match: found[0],
        before: squash(text.slice(Math.max(0, found.index - size), found.index)),
        after: squash(text.slice(end, end + size)),
      });
    }
  });
  const result = { query, count: total, matches };
  if (total > matches.length) result.note = `Showing ${matches.length} of ${total} matches; raise max_results or search for a longer phrase.`;
  if (!total) result.note = `“${query}” does not occur in the PDF's text.`;
  return result;
}

// The viewer's selection lives inside Chrome's PDF viewer, which no extension can reach.
const SELECTION_SENTENCE = "This tab shows a PDF in the browser's PDF viewer, and TabAgent cannot see what is " +
  "selected there (the viewer keeps extensions out). The user can select the text, right-click it and choose " +
  "TabAgent › “Ask about selection…”, or copy it into the message; read_page and find_in_page do work on this PDF.";

const TOOLS = { read_page: readPage, find_in_page: findInPdf };

export async function runPdfTool({ url, name, args }) {
  if (name === "get_selection") return { ok: false, error: SELECTION_SENTENCE };
  if (!Object.hasOwn(TOOLS, name)) {
    return { ok: false, error: `This tab shows a PDF: only read_page and find_in_page work on it, not ${name}.` };
  }
  try {
    return { ok: true, result: TOOLS[name](await readPdf(url), args ?? {}) };
  } catch (error) {
    if (error instanceof PdfError) return { ok: false, error: error.message, ...(error.part && { no_such_part: error.part }) };
    return { ok: false, error: `${name} failed on this PDF (${error?.name || "an unknown error"}).` };
  }
}
