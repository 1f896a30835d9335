// Locators: how one tool's result points at an element that another tool then acts on.
//
// A locator is a short string "ta-<n>". Tools that return elements (find_in_page,
// query_page, list_links, extract_tables, get_selection) give each one; the element is
// marked with the attribute data-tabagent-id="ta-<n>", so the same element keeps the same
// locator across calls, and the locator also works inside a CSS selector:
// [data-tabagent-id="ta-3"]. If the page redraws the element (the attribute is lost), the
// locator is found again from the CSS path and text remembered when it was given out.
//
// Wherever a tool takes a locator or a selector it accepts either form: "ta-<n>" or any CSS
// selector (matched in the page and its same-origin frames, first match for one element).
//
// Numbers go on across every page and tab the agent reads: the service worker tells each
// call the highest number given so far (continueAfter). So a locator from an earlier page,
// or from another tab, never names an element here; it is refused in words, even when the
// page has written that locator on an element of its own.

import { squash } from "./snippets.js";
import { PageToolError } from "./tool-arguments.js";
import { frameDocument, queryAll } from "./frames.js";

const ATTR = "data-tabagent-id";
const LOCATOR = /^ta-\d+$/;
// Per-world memory: survives between calls while the tab stays on the same document.
const state = { next: 0, remembered: new Map() };
// The element each locator was given to, held weakly: a page that writes the same
// attribute on another element (a decoy "Delete" button) does not take the locator over.
state.given ??= new Map(); // id -> WeakRef(element)
// Locators up to this number were given before this page's tools started: elsewhere.
state.givenBefore ??= null;

// A CSS path from the document root (or the nearest ancestor with a unique id). A listing gives
// thousands of locators whose paths share their ancestors: each element's step is worked out once
// per synchronous run of a tool (kept until the next microtask, when the page may change), and a
// parent's children are counted once, not once per child: on a form of 900 sections, the path
// of every control read the form's 900 children again (most of list_controls' time).
let steps = null; // element -> its path, for this run
let siblings = null; // parent -> Map(child -> ":nth-of-type(i)" or "")

function forThisRun() {
  if (steps) return;
  [steps, siblings] = [new Map(), new Map()];
  queueMicrotask(() => {
    [steps, siblings] = [null, null];
  });
}

function nthOfType(node) {
  const parent = node.parentElement;
  if (!parent) return "";
  let indexes = siblings.get(parent);
  if (!indexes) {
    const byTag = new Map();
    for (const child of parent.children) {
      if (!byTag.has(child.localName)) byTag.set(child.localName, []);
      byTag.get(child.localName).push(child);
    }
    indexes = new Map();
    for (const same of byTag.values()) same.forEach((child, i) => indexes.set(child, same.length > 1 ? `:nth-of-type(${i + 1})` : ""));
    siblings.set(parent, indexes);
  }
  return indexes.get(node) ?? "";
}

function cssPath(el) {
  forThisRun();
  return pathOf(el);
}

function pathOf(node) {
  if (!node || node.nodeType !== 1) return "";
  let path = steps.get(node);
  if (path !== undefined) return path;
  if (node.id && node.ownerDocument.querySelectorAll(`#${CSS.escape(node.id)}`).length === 1) path = `#${CSS.escape(node.id)}`;
  else {
    const above = pathOf(node.parentElement);
    const step = CSS.escape(node.localName) + nthOfType(node);
    path = above ? `${above} > ${step}` : step;
  }
  steps.set(node, path);
  return path;
}

const textHint = (el) => squash(el.textContent).slice(0, 60);

function locatorFor(el) {
  let id = el.getAttribute(ATTR);
  // An id is kept only if these tools gave it to this very element: one the page wrote
  // (perhaps an earlier page's locator, on its own Delete button) gets a fresh number.
  if (!id || !LOCATOR.test(id) || state.given.get(id)?.deref() !== el) {
    // Start after any id already in the page: a fresh injection (extension reloaded)
    // must not hand out a locator that already names another element.
    if (state.next === 0) state.next = highestIdInPage();
    id = `ta-${++state.next}`;
    el.setAttribute(ATTR, id);
  }
  const frames = [];
  for (let doc = el.ownerDocument; doc.defaultView?.frameElement; ) {
    const frame = doc.defaultView.frameElement;
    frames.unshift(cssPath(frame));
    doc = frame.ownerDocument;
  }
  state.remembered.set(id, { frames, path: cssPath(el), text: textHint(el) });
  state.given.set(id, new WeakRef(el));
  return id;
}

function highestIdInPage() {
  let max = 0;
  for (const el of queryAll(`[${ATTR}]`)) {
    max = Math.max(max, Number(el.getAttribute(ATTR).slice(3)) || 0);
  }
  return max;
}

// The element a redrawn locator most likely meant: same path, same text.
function rediscover(id) {
  const memory = state.remembered.get(id);
  if (!memory) return null;
  let doc = document;
  for (const framePath of memory.frames) {
    doc = frameDocument(doc.querySelector(framePath) || {});
    if (!doc) return null;
  }
  const el = doc.querySelector(memory.path);
  if (!el || textHint(el) !== memory.text) return null;
  el.setAttribute(ATTR, id);
  state.given.set(id, new WeakRef(el));
  return el;
}

// Called before each tool runs with the highest locator number given in any page so far.
function continueAfter(highest) {
  const givenElsewhere = Math.max(Number(highest) || 0, state.next || highestIdInPage());
  state.givenBefore ??= givenElsewhere;
  state.next = givenElsewhere;
}

const lastGiven = () => state.next;

function notGivenHere(id) {
  const number = Number(id.slice(3));
  if (number <= (state.givenBefore ?? 0)) {
    return new PageToolError(
      `The locator ${id} was given on an earlier page or in another tab, not on this one ` +
        `(${location.href}); call list_controls (or find_in_page) here for fresh locators.`);
  }
  return new PageToolError(`There is no element ${id} on this page; call list_controls (or find_in_page) for the locators it has.`);
}

// Every element a locator or CSS selector names, across the page and its frames.
function findAll(target) {
  if (typeof target !== "string" || !target.trim()) {
    throw new PageToolError("Give a locator (like “ta-12”, from an earlier result) or a CSS selector.");
  }
  target = target.trim();
  if (LOCATOR.test(target)) {
    // Only what this page's tools gave out: an attribute the page wrote itself names nothing.
    if (!state.given.has(target)) throw notGivenHere(target);
    const given = state.given.get(target).deref();
    if (given?.isConnected && given.getAttribute(ATTR) === target) return [given];
    const again = rediscover(target);
    if (again) return [again];
    throw new PageToolError(
      `The element ${target} is no longer on the page (it may have been redrawn or the page changed); ` +
        "use find_in_page or query_page again to get a fresh locator.");
  }
  try {
    return queryAll(target);
  } catch {
    throw new PageToolError(`“${target}” is neither a locator (like “ta-12”) nor a valid CSS selector.`);
  }
}

function findOne(target) {
  const [el] = findAll(target);
  if (!el) throw new PageToolError(`Nothing on the page matches “${target}”.`);
  return el;
}

export { locatorFor, findAll, findOne, continueAfter, lastGiven };
