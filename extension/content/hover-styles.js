// A menu that opens on CSS :hover alone. Events a script sends never set :hover (only the
// browser's own pointer does). Chrome moves that pointer for real (the DevTools protocol,
// real-input.js); where the browser gives no real input (Firefox), hover instead applies the
// page's own :hover rules to the element and the boxes
// around it, as the browser does while the pointer rests there: the same styles, nothing of
// ours. Kept until the next hover. A stylesheet from another site cannot be read (the browser
// keeps its rules from scripts), so what it shows on :hover is said to stay as it was.
const MARK = "data-tabagent-hover";
const HOVER = /:hover(?![\w-])/;
const EVERY_HOVER = new RegExp(HOVER.source, "g");
let applied = null; // { style, marked }

// The page's :hover rules, rewritten to name the mark instead, and how many sheets were unreadable.
function hoverRules(doc) {
  const found = { rules: [], unreadable: 0 };
  for (const sheet of doc.styleSheets) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      found.unreadable++;
      continue;
    }
    collect(rules, found.rules);
  }
  return found;
}

function collect(rules, into) {
  for (const rule of rules) {
    if (rule instanceof CSSMediaRule && !matchMedia(rule.conditionText).matches) continue;
    if (rule instanceof CSSGroupingRule && !(rule instanceof CSSStyleRule)) collect(rule.cssRules, into);
    else if (rule instanceof CSSStyleRule && HOVER.test(rule.selectorText)) {
      into.push({ selector: rule.selectorText.replace(EVERY_HOVER, `[${MARK}]`), style: rule.style.cssText });
    }
  }
}

// Does a rewritten rule match an element now? A selector querySelector cannot take (one
// naming a pseudo-element, ::after) is kept: it may.
function styles(doc, selector) {
  try {
    return doc.querySelector(selector) !== null;
  } catch {
    return true;
  }
}

function release() {
  if (!applied) return;
  for (const el of applied.marked) el.removeAttribute(MARK);
  applied.style.remove();
  applied = null;
}

// Marks `el` and the elements around it (the pointer is over all of them) and adds the page's
// :hover rules for the mark. Answers { rules, unreadable } for the action's result.
function applyHoverStyles(el) {
  release();
  const doc = el.ownerDocument;
  const { rules: found, unreadable } = hoverRules(doc);
  const marked = [];
  for (let node = el; node && node.nodeType === 1 && found.length; node = node.parentElement) marked.push(node);
  for (const node of marked) node.setAttribute(MARK, "");
  // Only the rules that now style something: a large sheet added whole would make the
  // browser restyle the whole page.
  const rules = found.filter(({ selector }) => styles(doc, selector)).map(({ selector, style }) => `${selector} { ${style} }`);
  if (!rules.length) {
    for (const node of marked) node.removeAttribute(MARK);
    return { rules: 0, unreadable };
  }
  const style = doc.createElement("style");
  style.textContent = rules.join("\n");
  (doc.head ?? doc.documentElement).append(style);
  applied = { style, marked };
  return { rules: rules.length, unreadable };
}

// What the model is told about :hover, or null when the page has no :hover rule it could see.
function hoverNote({ rules, unreadable }) {
  const notes = [];
  if (rules) notes.push(`the page's own :hover styles (${rules} rule${rules === 1 ? "" : "s"}) were applied to it, as while a mouse rests there`);
  if (unreadable) {
    notes.push(`${unreadable} stylesheet(s) from another site could not be read, so a menu they open on :hover stays ` +
      "closed (an extension can move the real mouse only with the DevTools protocol, which TabAgent does not use)");
  }
  return notes.length ? notes.join("; ") : null;
}

export { applyHoverStyles, hoverNote };
