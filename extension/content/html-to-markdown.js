// HTML to Markdown with turndown (npm's, bundled in), plus the rules the stock converter
// lacks: tables as GFM tables (the GFM plugin is not a dependency), code blocks that keep
// their line breaks. Tokens go to content: links are their text (list_links has the
// addresses), images their alt text when it says something, escapes only at line starts and inside words.

import TurndownService from "turndown";

import { squash } from "./snippets.js";
import * as tables from "./tables.js";

// Turndown converts children before their parent, so each cell leaves its Markdown on the
// node and the table rule, run last, lays the cells out on the grid from tables.js.
const CELL_MARKDOWN = "tabagentMarkdown";

const tableCell = {
  filter: ["th", "td"],
  replacement(content, cell) {
    // Readability sometimes leaves a cell outside any table: keep it as a plain block.
    if (!inTableRow(cell)) return `\n\n${content}\n\n`;
    cell[CELL_MARKDOWN] = content.trim();
    return "";
  },
};

// True when the cell is one that table.rows / row.cells (the grid) will reach.
function inTableRow(cell) {
  const row = cell.parentElement;
  const section = row?.parentElement;
  if (row?.localName !== "tr" || !section) return false;
  return section.localName === "table" || (/^t(head|body|foot)$/.test(section.localName) && section.parentElement?.localName === "table");
}

const table = {
  filter: "table",
  replacement(content, node) {
    const caption = content.trim(); // only the caption is left: cells returned "".
    const headerCount = tables.headerRowCount(node);
    const { header, body } = withoutBlanks(tables.grid(node, (cell) => cell[CELL_MARKDOWN] ?? ""), headerCount);
    const values = [...header, ...body].flat().filter((slot) => slot.origin).map((slot) => slot.value);
    if (isLayout(node, header, body, values)) {
      // One row of short cells reads as one line ("etwas | Fett", a cover beside its title).
      const oneLine = body.length === 1 && !values.some((v) => v.includes("\n"));
      return `\n\n${[caption, values.filter(Boolean).join(oneLine ? " " : "\n\n")].filter(Boolean).join("\n\n")}\n\n`;
    }
    const columns = body[0].map((_, c) => c);
    const line = (cells) => `| ${cells.map(escapeCell).join(" | ")} |`;
    // A spanned value is shown in each row it covers (a row reads on its own) but only
    // once across the columns it covers (a section title is not repeated four times).
    const row = (slots) => line(slots.map((slot, c) => (c > 0 && slots[c - 1].cell === slot.cell ? "" : slot.value)));
    // Several header rows collapse into the one Markdown header row ("Sales / 2023"); with
    // none, the header stays empty (GFM needs one) and every row is data.
    const names = line(tables.columnNames(header) || columns.map(() => ""));
    return `\n\n${caption ? caption + "\n\n" : ""}${[names, line(columns.map(() => "---")), ...body.map(row)].join("\n")}\n\n`;
  },
};

// A cell with no letter, digit or symbol in it ("", "“", a spacer image) says nothing.
const isBlank = (slot) => !/[\p{L}\p{N}\p{S}]/u.test(slot.value);

// The grid without its rows and columns that say nothing: the spacer rows and gutter
// columns of a page laid out with tables, and the quotation-mark column of a quote box.
function withoutBlanks(layout, headerCount) {
  const keep = (layout[0] || []).map((_, c) => layout.some((row) => !isBlank(row[c])));
  const trim = (rows) => rows.map((row) => row.filter((_, c) => keep[c])).filter((row) => row.some((slot) => !isBlank(slot)));
  return { header: trim(layout.slice(0, headerCount)), body: trim(layout.slice(headerCount)) };
}

// Layout tables are page structure, not data: a table marked so, one column, one row with
// no header (a picture beside its title), tables in cells or paragraphs in cells. Squeezed
// into one-line cells they would be mangled, so their blocks are kept.
const isLayout = (node, header, body, values) => tables.isPresentation(node)
  || !body.length || body[0].length < 2 || (body.length === 1 && !header.length)
  || Boolean(node.querySelector("table")) || values.some((v) => v.includes("\n\n"));

const escapeCell = (value) => value.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

// Code blocks (any <pre>, with or without <code>) as fenced blocks. Highlighted code often
// breaks lines with <br> or one <p>/<div> per line, which textContent would run together.
const preformatted = {
  filter: "pre",
  replacement(content, node) {
    const text = codeText(node).replace(/\n+$/, "");
    const language = /(?:^|\s)(?:language|lang)-(\S+)/.exec(node.querySelector("code")?.className || node.className)?.[1] || "";
    const fence = text.includes("```") ? "~~~~" : "```";
    return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
  },
};

function codeText(node) {
  let out = "";
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) out += child.data;
    else if (child.nodeName === "BR") out += "\n";
    else if (child.nodeType === Node.ELEMENT_NODE) {
      const line = /^(P|DIV|LI|TR)$/.test(child.nodeName);
      if (line && out && !out.endsWith("\n")) out += "\n";
      out += codeText(child);
      if (line && !out.endsWith("\n")) out += "\n";
    }
  }
  return out;
}

// A link is its text: the addresses would cost more tokens than the words they hang on
// (list_links gives them, and can look a link up by its text).
const link = {
  filter: (node) => node.nodeName === "A",
  replacement: (content) => content,
};

// An image is worth its alt text when that says something; a file name, an empty or a
// generic alt ("image", "logo") says nothing. No address either: a model reads no pixels.
const image = {
  filter: "img",
  replacement(content, node) {
    const alt = (node.getAttribute("alt") || "").replace(/\s+/g, " ").trim();
    return saysSomething(alt, node) ? `![${alt.replace(/[[\]]/g, "")}]()` : "";
  },
};

const GENERIC_ALT = /^(image|img|photo|picture|pic|foto|bild|logo|icon|avatar|banner|thumbnail|thumb|spacer|placeholder|graphic|grafik|null|undefined)\b[\s\d_-]*$/i;
function saysSomething(alt, node) {
  if (alt.length < 4 || GENERIC_ALT.test(alt) || /\.(jpe?g|png|gif|webp|svg|avif)$/i.test(alt)) return false;
  // The caption beside it already says it.
  const caption = node.closest("figure")?.querySelector("figcaption")?.textContent || "";
  return !squash(caption).includes(alt);
}

// "- item" rather than turndown's "-   item": the same list, two tokens fewer an item.
const listItem = {
  filter: "li",
  replacement(content, node) {
    const parent = node.parentNode;
    let prefix = "- ";
    if (parent.nodeName === "OL") {
      const start = Number(parent.getAttribute("start")) || 1;
      prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
    }
    const isParagraph = /\n$/.test(content);
    content = content.replace(/^\n+/, "").replace(/\n+$/, "") + (isParagraph ? "\n" : "");
    content = content.replace(/\n/gm, "\n" + " ".repeat(prefix.length));
    return prefix + content + (node.nextSibling ? "\n" : "");
  },
};

// Escape only what would change a line's meaning (a heading, list, quote or fence at its
// start); a backslash before every _ * [ ] in running text costs tokens and reads as noise.
// A star inside a word is the word's own (German's gender star: "Kund*innen"), and two of
// them in a paragraph would pair up as emphasis across the words between: it is escaped.
const escape = (text) => text
  .replace(/(?<=[\p{L}\p{N}])\*(?=[\p{L}\p{N}])/gu, "\\*")
  .replace(/^(\s*)([-+*]|#{1,6}|>)(?=\s)/gm, "$1\\$2")
  .replace(/^(\s*\d+)([.)])(?=\s)/gm, "$1\\$2")
  .replace(/^(\s*)(```|~~~|={3,}|-{3,})/gm, "$1\\$2");

let service = null;
function converter() {
  if (service) return service;
  // Emphasis with "*", not turndown's "_": CommonMark never reads "_" beside a letter as
  // emphasis, so a word emphasised inside a longer one ("<em>Haus</em>tür", a search's terms
  // in Chinese: "<em>number</em>的") would keep its underscores; "*" works there too.
  service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", hr: "---", emDelimiter: "*" });
  // Ruby annotations (<rt>, the reading printed above Japanese or Chinese characters, and its
  // fallback parentheses <rp>) would be run into the words they annotate: "子こども".
  service.remove(["script", "style", "noscript", "template", "head", "title", "rt", "rp"]);
  for (const [name, rule] of Object.entries({ tableCell, table, preformatted, link, image, listItem })) service.addRule(name, rule);
  service.escape = escape;
  return service;
}

// Accepts an element or an HTML string. Soft hyphens and zero-width spaces are invisible
// to a reader (a hyphen shows only where a line breaks) but split words for a model and
// for find_in_page alike, and cost tokens. So does a letter written as its base and a
// combining mark ("u" and U+0308 for "ü", as some editors save text): it looks the same, but
// it is not the letter a user types or quotes, and costs more tokens; NFC composes it.
const convert = (input) => converter().turndown(input).replace(/[\u00ad\u200b]/g, "").normalize("NFC");

// With `consume`, the element is a copy nothing reads afterwards (read_page's content):
// Turndown, which clones what it is given before it trims its whitespace, converts it as
// it is rather than copying the article once more.
function toMarkdown(input, { consume = false } = {}) {
  if (!consume || typeof input === "string") return convert(input);
  input.cloneNode = () => input;
  try {
    return convert(input);
  } finally {
    delete input.cloneNode;
  }
}
export { toMarkdown };
