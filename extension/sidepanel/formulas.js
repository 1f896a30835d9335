// Formulas rendered by KaTeX in a worker (math-worker.js), one at a time, each given a time
// limit: a formula built to be slow stops the worker, not the panel. Rendered formulas are
// kept, so a streaming reply that renders its last block again and again, and the answer
// shown after it, get theirs at once; until then a formula shows as its source, and the
// placeholder is swapped for the rendering when it comes.

import { escapeHtml, LIMITS, plainTextElement, plainTextHtml, texNesting } from "./render-limits.js";
import { sanitizeHtml } from "./sanitize.js";

const KEPT = 500; // rendered formulas kept; the oldest go first
const formulas = new Map(); // "display|inline\ntex" -> formula
const byId = new Map(); // placeholder id -> formula
const queue = [];
let nextId = 1;
// Placeholders carry it: an answer that writes a placeholder of its own cannot have another
// formula (another conversation's, say) put into it, since it cannot know this.
const PLACEHOLDER = `${crypto.randomUUID()}:`;
let worker = null;
let current = null; // the formula the worker is rendering, with its timer

function formulaFor(tex, displayMode) {
  const key = `${displayMode ? "display" : "inline"}\n${tex}`;
  let formula = formulas.get(key);
  if (!formula) {
    formula = { id: nextId++, key, tex, displayMode, done: false, html: null, placeholders: new Set() };
    formulas.set(key, formula);
    byId.set(formula.id, formula);
    queue.push(formula);
    renderNext();
  }
  return formula;
}

// HTML for the Markdown renderer: the rendering, the fallback, or a placeholder.
export function formulaHtml(tex, displayMode) {
  if (tex.length > LIMITS.texChars || texNesting(tex) > LIMITS.texNesting) return plainTextHtml(tex, { inline: !displayMode });
  const formula = formulaFor(tex, displayMode);
  if (formula.done) return formula.html ?? plainTextHtml(tex, { inline: !displayMode });
  return `<span class="math-pending" data-formula="${PLACEHOLDER}${formula.id}">${escapeHtml(tex)}</span>`;
}

// Placeholders in freshly rendered (and sanitised) Markdown get their formula when it is done.
export function fillFormulas(fragment) {
  for (const placeholder of fragment.querySelectorAll(".math-pending[data-formula]")) {
    const { formula: name } = placeholder.dataset;
    const formula = name.startsWith(PLACEHOLDER) && byId.get(Number(name.slice(PLACEHOLDER.length)));
    if (!formula) continue; // not one of ours: the answer wrote it
    if (formula.done) show(formula, placeholder);
    else formula.placeholders.add(placeholder);
  }
}

function show(formula, placeholder) {
  placeholder.replaceWith(formula.html ? sanitizeHtml(formula.html) : plainTextElement(formula.tex, { inline: !formula.displayMode }));
}

function startWorker() {
  worker = new Worker(new URL("./math-worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => data.id === current?.formula.id && finish(data.html ?? null);
  worker.onerror = () => stopWorker(); // it could not start: the formula shows as text
}

function stopWorker() {
  worker?.terminate();
  worker = null;
  finish(null);
}

function renderNext() {
  if (current || !queue.length) return;
  const formula = queue.shift();
  if (!worker) startWorker();
  current = { formula, timer: setTimeout(stopWorker, LIMITS.texMilliseconds) };
  worker.postMessage({ id: formula.id, tex: formula.tex, displayMode: formula.displayMode });
}

function finish(html) {
  if (!current) return;
  const { formula, timer } = current;
  clearTimeout(timer);
  current = null;
  Object.assign(formula, { done: true, html });
  for (const placeholder of formula.placeholders) show(formula, placeholder);
  formula.placeholders.clear();
  forgetOldest();
  renderNext();
}

function forgetOldest() {
  for (const [key, formula] of formulas) {
    if (formulas.size <= KEPT) return;
    if (!formula.done) continue;
    formulas.delete(key);
    byId.delete(formula.id);
  }
}
