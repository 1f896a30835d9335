// HTML to Markdown with turndown (vendor/turndown), plus the rules the stock converter
// lacks: tables as GFM tables (the GFM plugin is not a dependency), code blocks that keep
// their line breaks, absolute link URLs, and no data: URLs (a base64 image would eat the
// token budget).
(() => {
  const page = (globalThis.TabAgentPage ??= {});

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
      const layout = page.tables.grid(node, (cell) => cell[CELL_MARKDOWN] ?? "");
      const values = layout.flat().filter((slot) => slot.origin).map((slot) => slot.value);
      // Layout tables (one column, nested tables, paragraphs in cells) are page structure,
      // not data: squeezing them into one-line cells would mangle them, so keep the blocks.
      const isLayout = !layout.length || layout[0].length < 2 || values.some((v) => v.includes("\n\n"));
      if (isLayout) return `\n\n${[caption, ...values].filter(Boolean).join("\n\n")}\n\n`;
      const headerCount = page.tables.headerRowCount(node);
      const columns = layout[0].map((_, c) => c);
      const line = (cells) => `| ${cells.map(escapeCell).join(" | ")} |`;
      // A spanned value is shown in each row it covers (a row reads on its own) but only
      // once across the columns it covers (a section title is not repeated four times).
      const row = (slots) => line(slots.map((slot, c) => (c > 0 && slots[c - 1].cell === slot.cell ? "" : slot.value)));
      // Several header rows collapse into the one Markdown header row ("Sales / 2023"); with
      // none, the header stays empty (GFM needs one) and every row is data.
      const header = line(page.tables.columnNames(layout.slice(0, headerCount)) || columns.map(() => ""));
      const body = layout.slice(headerCount).map(row);
      return `\n\n${caption ? caption + "\n\n" : ""}${[header, line(columns.map(() => "---")), ...body].join("\n")}\n\n`;
    },
  };

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

  const link = {
    filter: (node) => node.nodeName === "A" && node.getAttribute("href"),
    replacement(content, node) {
      const href = node.href; // the resolved, absolute URL
      if (!content.trim() || !/^(https?|mailto|ftp):/i.test(href)) return content;
      const title = node.title ? ` "${node.title.replace(/"/g, '\\"')}"` : "";
      return `[${content}](${href.replace(/[()]/g, (ch) => encodeURIComponent(ch))}${title})`;
    },
  };

  const image = {
    filter: "img",
    replacement(content, node) {
      const alt = (node.getAttribute("alt") || "").replace(/\s+/g, " ").trim();
      const src = node.src || node.getAttribute("src") || "";
      if (!src || src.startsWith("data:")) return alt ? `![${alt}]()` : "";
      return `![${alt}](${src.replace(/[()]/g, (ch) => encodeURIComponent(ch))})`;
    },
  };

  let service = null;
  function converter() {
    if (service) return service;
    service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", hr: "---" });
    service.remove(["script", "style", "noscript", "template", "head", "title"]);
    for (const [name, rule] of Object.entries({ tableCell, table, preformatted, link, image })) service.addRule(name, rule);
    return service;
  }

  // Accepts an element or an HTML string.
  page.markdown = { toMarkdown: (input) => converter().turndown(input) };
})();
