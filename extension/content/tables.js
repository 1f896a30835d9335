// Tables: laying cells out on a grid (shared with the Markdown table rule) and the
// extract_tables tool, which returns each table as header names plus rows of strings so
// code can turn it straight into data (e.g. pandas.DataFrame(rows, columns=headers)).

import { PAGE_TOOL_DEFAULTS } from "../shared/wire.js";
import { squash, truncate } from "./snippets.js";
import { LIMITS, clamp, cap, arg } from "./tool-arguments.js";
import * as locators from "./locators.js";

export const tools = {};

const MAX_SPAN = 100; // colspan="1000" exists in the wild; don't build a 1000-wide grid.

// Lay out the table's cells so grid[r][c] is row r, column c, resolving colspan and
// rowspan. Each slot is {cell, value, origin}; origin is true only in the cell's
// top-left slot, so callers can either repeat a spanned value or show it once.
function grid(table, valueOf, maxRows = Infinity) {
  const rows = [...table.rows].slice(0, maxRows); // the cells past a cap are never read
  const out = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of row.cells) {
      while (out[r][c]) c++;
      const value = valueOf(cell);
      const colspan = clamp(cell.colSpan || 1, 1, MAX_SPAN);
      // rowspan="0" means "to the end of the table section"; the rest of the table will do.
      const rowspan = cell.rowSpan === 0 ? rows.length - r : clamp(cell.rowSpan || 1, 1, rows.length - r);
      for (let dr = 0; dr < rowspan; dr++) {
        for (let dc = 0; dc < colspan; dc++) out[r + dr][c + dc] = { cell, value, origin: dr === 0 && dc === 0 };
      }
      c += colspan;
    }
  });
  const width = out.reduce((widest, row) => Math.max(widest, row.length), 0);
  const empty = { cell: null, value: "", origin: true };
  return out.map((row) => Array.from({ length: width }, (_, c) => row[c] || empty));
}

// How many leading rows are headers: rows in <thead>, or else leading rows made only of
// <th>. A table that would be all header has none: it is all data.
function headerRowCount(table) {
  const rows = [...table.rows];
  let n = rows.filter((row) => row.parentElement.localName === "thead").length;
  if (!n) while (n < rows.length && rows[n].cells.length && [...rows[n].cells].every((c) => c.localName === "th")) n++;
  return n === rows.length ? 0 : n;
}

// One name per column: the header rows above it joined with " / " ("Sales / 2023").
function columnNames(headerRows) {
  if (!headerRows.length) return null;
  return headerRows[0].map((_, c) => {
    const parts = [];
    for (const row of headerRows) if (row[c].value && parts.at(-1) !== row[c].value) parts.push(row[c].value);
    return parts.join(" / ");
  });
}

// A table its page marks as layout, not data.
const isPresentation = (table) => ["presentation", "none"].includes(table.getAttribute("role"));

const cellText = (cell) => truncate(squash(cell.innerText ?? cell.textContent), LIMITS.cellChars).text;

function extractTables({ selector, max_tables, max_rows }) {
  const maxTables = clamp(max_tables, 1, 100);
  const maxRows = clamp(max_rows, 1, 5000);
  // A selector may name the tables or something that contains them ("#results").
  const found = [...new Set(locators.findAll(selector)
    .flatMap((el) => (el.localName === "table" ? [el] : [...el.querySelectorAll("table")])))]
    .filter((el) => !isPresentation(el));
  const { items, note } = cap(found, maxTables, "tables", "raise max_tables or pass a narrower selector");
  const tables = items.map((table) => {
    // Spanned cells repeat their value in each column/row they cover: every row then has
    // one value per column, which is what code turning the table into data expects.
    const headerCount = headerRowCount(table);
    const layout = grid(table, cellText, headerCount + maxRows);
    const rowCount = table.rows.length - headerCount;
    const result = {
      locator: locators.locatorFor(table),
      caption: squash(table.caption?.textContent) || null,
      headers: columnNames(layout.slice(0, headerCount)),
      rows: layout.slice(headerCount).map((row) => row.map((slot) => slot.value)),
      row_count: rowCount,
    };
    if (rowCount > maxRows) result.note = `Showing ${maxRows} of ${rowCount} rows; raise max_rows for more.`;
    return result;
  });
  return { count: found.length, tables, ...(note && { note }) };
}

export { grid, headerRowCount, columnNames, isPresentation };
tools.extract_tables = {
  params: { selector: arg("string", "table"), max_tables: arg("number", PAGE_TOOL_DEFAULTS.extract_tables.max_tables), max_rows: arg("number", PAGE_TOOL_DEFAULTS.extract_tables.max_rows) },
  run: extractTables,
};
