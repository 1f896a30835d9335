// Which elements of a document may show a cursor other than their parent's, read once per listing
// from the page's stylesheets: `cursor` is inherited, so an element that no rule giving a cursor
// matches (and that has no style attribute, and none of the browser's own rules) shows its
// parent's. list_controls asks the cursor of most elements of a page (is it a hand?); reading each
// element's computed style was a fifth of its time on a page of 10,000 elements.
//
// Where the stylesheets cannot be read whole (another site's sheet, nested rules, @scope, a
// selector this cannot query) or name too many elements' cursors to be cheaper to query than to
// read, the answer is null: read every element's style, as before.

// Elements the browser's own stylesheet may give a cursor (a link's hand, a field's, a list's), and
// elements of other kinds (SVG, MathML): always read.
const OWN_CURSOR_TAGS = new Set(["a", "area", "input", "select", "option", "optgroup", "textarea", "button", "summary",
  "details", "label", "legend", "fieldset", "dialog", "iframe", "frame", "frameset", "embed", "object", "img", "video",
  "audio", "canvas", "meter", "progress", "marquee", "datalist"]);
const HTML = "http://www.w3.org/1999/xhtml";
// More selectors than this, and querying them costs more than reading the styles they save.
const MOST_SELECTORS = 150;
// A selector of a pseudo-element styles that, never the element's own cursor.
const PSEUDO_ELEMENT = /::|:(?:before|after|first-line|first-letter)(?![\w-])/i;
// Rules that hold no declarations for elements, or none for the cursor.
const NO_ELEMENT_STYLES = ["CSSFontFaceRule", "CSSNamespaceRule", "CSSLayerStatementRule", "CSSPropertyRule", "CSSPageRule",
  "CSSCounterStyleRule", "CSSFontFeatureValuesRule", "CSSFontPaletteValuesRule", "CSSViewTransitionRule", "CSSPositionTryRule"];
// Rules whose inner rules apply as they are (their condition is not weighed: a selector too many is a style read more).
const GROUPS = ["CSSMediaRule", "CSSSupportsRule", "CSSLayerBlockRule", "CSSContainerRule"];

class Unreadable extends Error {}

const isA = (rule, names) => names.some((name) => globalThis[name] && rule instanceof globalThis[name]);

function collect(rules, into) {
  for (const rule of rules) {
    if (rule instanceof CSSStyleRule) {
      if (rule.cssRules?.length) throw new Unreadable("nested rules");
      if (rule.style.getPropertyValue("cursor")) into.push(...queryable(rule.selectorText));
    } else if (rule instanceof CSSImportRule) {
      if (rule.styleSheet) collect(rule.styleSheet.cssRules, into);
    } else if (isA(rule, GROUPS)) collect(rule.cssRules, into);
    else if (rule instanceof CSSKeyframesRule) {
      if ([...rule.cssRules].some((frame) => frame.style.getPropertyValue("cursor"))) throw new Unreadable("an animated cursor");
    } else if (!isA(rule, NO_ELEMENT_STYLES)) throw new Unreadable(`a rule of its own kind (${rule.constructor.name})`);
  }
}

// The selectors of a rule that querySelectorAll takes: each one of its list, less those of a pseudo-element.
let scratch = null; // an empty fragment, to try a selector on
function queryable(selectorText) {
  if (valid(selectorText)) return [selectorText];
  return topLevelParts(selectorText).filter((part) => {
    if (valid(part)) return true;
    if (PSEUDO_ELEMENT.test(part)) return false;
    throw new Unreadable(`a selector it cannot query (${part})`);
  });
}

function valid(selector) {
  try {
    scratch ??= document.createDocumentFragment();
    scratch.querySelector(selector);
    return true;
  } catch {
    return false;
  }
}

// "a, b:is(c, d)" -> ["a", "b:is(c, d)"]
function topLevelParts(text) {
  const parts = [];
  let [depth, start] = [0, 0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(" || text[i] === "[") depth++;
    else if (text[i] === ")" || text[i] === "]") depth--;
    else if (text[i] === "," && depth === 0) [parts[parts.length], start] = [text.slice(start, i).trim(), i + 1];
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

// A shadow host, or a custom element, which may be one whose shadow root is closed (its :host rules
// give it a cursor, and its own elements' cursors are theirs): it and what it holds are always read.
export const isHost = (el) => el.shadowRoot !== null || el.localName.includes("-");

// (el) => whether el may show a cursor of its own, for the elements of `doc` (not of a shadow tree
// in it: those are always read); or null: read them all.
export function ownCursorTest(doc) {
  const selectors = [];
  try {
    for (const sheet of [...doc.styleSheets, ...(doc.adoptedStyleSheets ?? [])]) {
      let rules;
      try {
        rules = sheet.cssRules;
      } catch {
        throw new Unreadable("another site's stylesheet");
      }
      collect(rules, selectors);
    }
  } catch (error) {
    if (error instanceof Unreadable) return null;
    throw error;
  }
  if (selectors.length > MOST_SELECTORS) return null;
  const ruled = new Set(selectors.length ? doc.querySelectorAll(selectors.join(",")) : []);
  return (el) => ruled.has(el) || OWN_CURSOR_TAGS.has(el.localName) || el.namespaceURI !== HTML || el.hasAttribute("style")
    || el.hasAttribute("inert") || isHost(el) || el.getRootNode() !== doc;
}
