// What a user can click or operate, judged from what the DOM and the page's styles state:
//
// - a control by its tag or ARIA role (links, buttons, fields, menu items, options, tabs ...);
// - anything the page made focusable (tabindex) or gave a click handler in its markup
//   (onclick, onmousedown, ... and the frameworks' ng-click, v-on:click, x-on:click);
// - what shows a pointer cursor, also where it shows one only under a :hover rule
//   (an icon that turns into a hand as the mouse comes over it);
// - the items of a container: the entries of a menu, a list box or an autocomplete list, and
//   a run of like cells in a pointer container (a colour grid whose container has the handler);
//   an entry of a run is listed however long its text (a menu item with a long name);
// - a previous or next arrow (element-words.js, stepOf), whatever its tag: a date picker's
//   month arrows are links without href, with their handler on the calendar.
//
// A native control (a link, a button, a field) or a leaf ARIA widget (button, option, menu
// item) holds no other control: what is inside it is its own. Any other listed element (a
// menu, a list box, a focusable panel) is a container: its items are listed too.

import { squash } from "./snippets.js";
import { stepOf } from "./element-words.js";
import { isHost, ownCursorTest } from "./cursor-rules.js";

const CONTROL_TAGS = new Set(["a", "button", "input", "select", "textarea", "summary"]);
const LEAF_ROLES = new Set(["button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "textbox", "searchbox", "slider", "spinbutton", "treeitem", "gridcell", "scrollbar"]);
const CONTAINER_ROLES = new Set(["combobox", "listbox", "menu", "menubar", "tree", "treegrid", "grid", "tablist", "radiogroup"]);
// Click handlers a page declares in its markup.
const HANDLERS = ["onclick", "onmousedown", "onmouseup", "onpointerdown", "onpointerup", "ondblclick", "ontouchstart",
  "ng-click", "v-on:click", "x-on:click", "@click"];
const SMALL_CHILDREN = 3;
const SMALL_TEXT = 80;
const ITEM_CHILDREN = 8; // an entry of a run: an icon, a name, a shortcut, a badge ...
const ITEM_TEXT = 300;
// What holds a control of its own: an arrow that does is not the control, what it holds is.
const INNER_CONTROL = "a[href], button, input, select, textarea, [role=button], [role=link], [tabindex]";
const HOVER_AT_START = /(^|[\s>+~(,]):hover(?![\w-])/g;
const HOVER = /:hover(?![\w-])/g;
const HAS_HOVER = /:hover(?![\w-])/;

const isSmall = (el) => el.childElementCount <= SMALL_CHILDREN && squash(el.textContent).length <= SMALL_TEXT;
const isItemSized = (el) => el.childElementCount <= ITEM_CHILDREN && squash(el.textContent).length <= ITEM_TEXT;
// An arrow holds at most an icon (an element with none inside, or an SVG): looked at first, so
// the text of no bigger element is read for it (this is asked of every element of the page).
const holdsAtMostAnIcon = (el) => el.childElementCount === 0
  || (el.childElementCount === 1 && (el.firstElementChild.childElementCount === 0 || el.firstElementChild.localName === "svg"));
const ARROW_TEXT = 40; // an arrow's text as the page writes it, spaces and all: a glyph or "« Previous"
const isArrow = (el) => holdsAtMostAnIcon(el) && el.textContent.length <= ARROW_TEXT && Boolean(stepOf(el)) && !el.querySelector(INNER_CONTROL);

function declaredClickable(el) {
  if (!el.attributes.length) return false;
  const tabindex = el.getAttribute("tabindex");
  if (tabindex !== null && Number(tabindex) >= 0) return true;
  return HANDLERS.some((name) => el.hasAttribute(name));
}

// A control by what it is (tag, role, editable root), or null when it is not one.
function kindOf(el) {
  const tag = el.localName;
  if (tag === "a") return el.hasAttribute("href") || isArrow(el) ? "leaf" : null;
  if (tag === "input") return el.type === "hidden" ? null : "leaf";
  if (CONTROL_TAGS.has(tag)) return "leaf";
  const role = el.getAttribute("role");
  if (LEAF_ROLES.has(role)) return "leaf";
  if (CONTAINER_ROLES.has(role)) return "container";
  if (el.isContentEditable && !el.parentElement?.isContentEditable) return "leaf";
  if (tag !== "body" && tag !== "html" && isArrow(el)) return "leaf";
  return null;
}

// The elements of `doc` that a :hover rule gives a pointer cursor, as a Set (read once per listing).
function hoverPointers(doc) {
  const found = new Set();
  for (const selector of hoverPointerSelectors(doc)) {
    try {
      for (const el of doc.querySelectorAll(selector)) found.add(el);
    } catch {
      // a selector querySelectorAll cannot take (a pseudo-element): nothing to find by it
    }
  }
  return found;
}

function hoverPointerSelectors(doc) {
  const selectors = [];
  const collect = (rules) => {
    for (const rule of rules) {
      if (rule instanceof CSSMediaRule && !doc.defaultView.matchMedia(rule.conditionText).matches) continue;
      if (rule instanceof CSSStyleRule) {
        if (rule.style.cursor === "pointer" && HAS_HOVER.test(rule.selectorText)) {
          selectors.push(rule.selectorText.replace(HOVER_AT_START, "$1*").replace(HOVER, ""));
        }
      } else if (rule.cssRules) collect(rule.cssRules);
    }
  };
  for (const sheet of doc.styleSheets) {
    try {
      collect(sheet.cssRules);
    } catch {
      // another site's stylesheet: its rules cannot be read
    }
  }
  return selectors;
}

// One listing's look at the page: each element's cursor and pointer worked out once, its style
// read only where a rule or the browser may give it a cursor of its own (cursor-rules.js): else
// it is its parent's, which the cursor is inherited from.
function clickableTest() {
  const cursors = new Map();
  const owns = new Map(); // document -> ownCursorTest(document)
  const hovers = new Map(); // document -> Set of hover-pointer elements
  const pointers = new Map();
  const ownCursor = (el) => {
    const doc = el.ownerDocument;
    if (!owns.has(doc)) owns.set(doc, ownCursorTest(doc));
    return !owns.get(doc) || owns.get(doc)(el);
  };
  const cursorOf = (el) => {
    const below = [];
    let [at, cursor] = [el, cursors.get(el)];
    while (cursor === undefined) {
      const up = at.parentElement;
      if (!up || isHost(up) || ownCursor(at)) {
        cursor = at.ownerDocument.defaultView.getComputedStyle(at).cursor;
        cursors.set(at, cursor);
      } else {
        below.push(at);
        at = up;
        cursor = cursors.get(at);
      }
    }
    for (const one of below) cursors.set(one, cursor);
    return cursor;
  };
  const hoverPointer = (el) => {
    const doc = el.ownerDocument;
    if (!hovers.has(doc)) hovers.set(doc, hoverPointers(doc));
    return hovers.get(doc).has(el);
  };
  // A pointer at rest, or under :hover (its own rule, or one on a box around it it inherits).
  function pointer(el) {
    if (!el || el.nodeType !== 1) return false;
    if (!pointers.has(el)) {
      const cursor = cursorOf(el);
      pointers.set(el, cursor === "pointer" || hoverPointer(el) || (cursor === "auto" && pointerUnderHover(el.parentElement)));
    }
    return pointers.get(el);
  }
  const pointerUnderHover = (el) => Boolean(el) && cursorOf(el) !== "pointer" && pointer(el);
  // "leaf", "container" or "clickable" (a container too), or null; inContainer(): whether a
  // listed container holds el (an item it focuses itself, tabindex="-1", is its item).
  return (el, inContainer) => kindOf(el) ?? (declaredClickable(el) || pointedAt(el, pointer) ? "clickable" : null)
    ?? (el.getAttribute("tabindex") === "-1" && inContainer() ? "clickable" : null);
}

// A small element that shows a pointer and is not a part of a box that shows it (the cursor
// is inherited): the box is the control, unless it is a large box of like items.
function pointedAt(el, pointer) {
  if (!pointer(el)) return false;
  if (!isSmall(el)) return isItemSized(el) && hasLikeSibling(el); // an entry of a run, with a long name
  const up = el.parentElement;
  if (!up || !pointer(up)) return true;
  return !isSmall(up) && hasLikeSibling(el);
}

// An item of a run: a sibling with the same tag and classes (cells of a grid, entries of a menu).
function hasLikeSibling(el) {
  const classes = el.getAttribute("class");
  const like = (other) => other && other.localName === el.localName && other.getAttribute("class") === classes;
  return like(el.previousElementSibling) || like(el.nextElementSibling);
}

export { clickableTest };
