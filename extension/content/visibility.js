// What a person looking at the page can read; read_page reads that and nothing else.
//
// Shown: an element with a box, one folded away behind a click (the body of a closed
// <details>, hidden="until-found" content, which the browser's find opens), or a section
// waiting below the fold for the page to animate it in.
// Unseen: text drawn too small to read, in a colour with no paint, in the colour of the
// background under it with no picture there, outside the page where no scrolling reaches
// (left:-9999px, text-indent:-9999px), or in a box clipped to a pixel ("visually hidden").
// Hidden text is how a page slips instructions to an agent past the person reading it, and
// what no one sees is not the page's content either. Transparency (opacity: 0) is left
// alone: pages fade their sections in as they scroll into view.

import { isVisible } from "./element-words.js";

const TINY_FONT_PX = 3;
const FAINT_CONTRAST = 1.1; // #f5f5f5 on white; WCAG asks 4.5 of body text
const MOST = 0.5; // of the page's text: more is a page whose styles did not load
const PICTURES = "img, picture, video, canvas, svg, iframe, object, embed";
const HTML = "http://www.w3.org/1999/xhtml";
const NOT_TEXT = new Set(["script", "style", "noscript", "template", "textarea", "title"]);

// Each element's computed style, read once per reading: getComputedStyle makes a new
// declaration at every call, and a text node's ancestors are asked again for every text
// under them (on a 240 KB article that was most of read_page's time).
function styleCache() {
  const styles = new Map();
  return (el) => {
    let style = styles.get(el);
    if (!style) styles.set(el, (style = el.ownerDocument.defaultView.getComputedStyle(el)));
    return style;
  };
}

// Whether an element is shown (as said at the top), remembered for the reading.
function shownTest(styleOf) {
  const shown = new Map();
  const isShown = (el) => {
    if (!shown.has(el)) shown.set(el, isVisible(el) || awaitsReveal(el, styleOf) || foldedAway(el, styleOf, isShown));
    return shown.get(el);
  };
  return isShown;
}

// In a closed <details> or hidden="until-found" content that is itself shown.
function foldedAway(el, styleOf, isShown) {
  const fold = el.parentElement?.closest('details:not([open]), [hidden="until-found"]');
  if (!fold || !isShown(fold)) return false;
  const style = styleOf(el);
  return style.display !== "none" && style.visibility === "visible";
}

// Pages animate their sections in as they scroll into view: a script hides each one below
// the fold (visibility: hidden, moved or marked for its entrance) until the reader gets
// there. Such a section, in the flow of the page and laid out below what the reader has
// seen, is shown. A menu or dialog (positioned, not in the flow) or text hidden with no
// entrance to make stays hidden.
const REVEAL_MARK = /^(data-(aos|wow|sr|animate|reveal|scroll))/;
const REVEAL_CLASS = /^(wow|aos-|reveal|animate|fade|slide|scroll-?reveal)/i;
function awaitsReveal(el, styleOf) {
  if (!el.getClientRects().length || styleOf(el).visibility !== "hidden") return false; // (no box: display:none)
  let veiled = el; // the element whose visibility the others inherit
  while (veiled.parentElement && styleOf(veiled.parentElement).visibility === "hidden") veiled = veiled.parentElement;
  const style = styleOf(veiled);
  const view = el.ownerDocument.defaultView;
  if (!/static|relative|sticky/.test(style.position) || veiled.getBoundingClientRect().top < view.innerHeight) return false;
  const moving = style.transform !== "none" || style.animationName !== "none" || parseFloat(style.opacity) < 1
    || (/opacity|visibility|transform|all/.test(style.transitionProperty) && parseFloat(style.transitionDuration) > 0);
  return moving || [...veiled.attributes].some((a) => REVEAL_MARK.test(a.name)) || [...veiled.classList].some((c) => REVEAL_CLASS.test(c));
}

// "rgb(1, 2, 3)" / "rgba(1, 2, 3, 0.5)" / "transparent" -> [r, g, b, a]; a page uses a few
// colours thousands of times, so each is parsed once.
const colors = new Map();
function rgba(color) {
  if (!colors.has(color)) colors.set(color, parseColor(color));
  return colors.get(color);
}
function parseColor(color) {
  const parts = (color || "").match(/[\d.]+/g)?.map(Number) || [];
  if (color === "transparent" || parts.length < 3) return [0, 0, 0, 0];
  return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
}

// (Each colour's luminance is worked out once: rgba() hands out one array per colour.)
const luminances = new WeakMap();
function luminance(color) {
  if (!luminances.has(color)) {
    const [R, G, B] = color.slice(0, 3).map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
    luminances.set(color, 0.2126 * R + 0.7152 * G + 0.0722 * B);
  }
  return luminances.get(color);
}
function contrast(one, other) {
  const [a, b] = [luminance(one), luminance(other)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

// Fresh per reading: styles, boxes and the pictures on the page are read once each.
function unseenReasons(doc, styleOf, isShown) {
  const view = doc.defaultView;
  const backgrounds = new Map();
  const clipped = new Map();
  const range = doc.createRange();
  const rtl = styleOf(doc.documentElement).direction === "rtl";
  let canvasColor = null;
  let painted = null; // [{at, box, color}], read the first time a colour matches

  // A box of at most a pixel that hides what overflows it, or a clip to nothing: the
  // "visually hidden" pattern. Collapsed accordions (full width, no height) stay read.
  // (`clip` applies to positioned boxes only: the others' is not read.)
  function clipsAway(el) {
    const style = styleOf(el);
    const clip = /absolute|fixed/.test(style.position) && style.clip.match(/rect\(([-\d.]+)px,? ([-\d.]+)px,? ([-\d.]+)px,? ([-\d.]+)px\)/);
    if (clip && (clip[3] - clip[1] <= 1 || clip[2] - clip[4] <= 1)) return true;
    if (/^inset\((5\d|[6-9]\d|100)%/.test(style.clipPath)) return true;
    if (style.overflowX === "visible" || style.overflowY === "visible") return false;
    const box = el.getBoundingClientRect();
    return box.width <= 1 && box.height <= 1 && el.getClientRects().length > 0;
  }
  function isClipped(el) {
    if (!el || el === doc.body || el === doc.documentElement) return false;
    if (!clipped.has(el)) clipped.set(el, clipsAway(el) || isClipped(el.parentElement));
    return clipped.get(el);
  }

  // The colour an element's text is painted in, read once for the two tests that ask.
  const textColours = new Map();
  function textColour(el) {
    if (!textColours.has(el)) {
      const style = styleOf(el);
      textColours.set(el, rgba(style.webkitTextFillColor || style.color));
    }
    return textColours.get(el);
  }

  function paintsNothing(el, style) {
    if (textColour(el)[3] > 0.05) return false;
    if (style.textShadow !== "none" || parseFloat(style.webkitTextStrokeWidth) > 0) return false;
    for (let at = el; at; at = at.parentElement) {  // a gradient clipped to the text paints it
      const s = styleOf(at);
      if (s.webkitBackgroundClip === "text" || s.backgroundClip === "text") return false;
    }
    return true;
  }

  // Outside the page: above its top, or before its start (left in a left-to-right page),
  // where no scrolling reaches. (The scroll and the page's width are read once: nothing
  // scrolls during a reading, and each ask checks the layout again.)
  const { scrollX, scrollY } = view;
  const pageWidth = doc.documentElement.clientWidth;
  function offPage(box) {
    if (box.bottom + scrollY <= 0) return true;
    return rtl ? box.left + scrollX >= pageWidth : box.right + scrollX <= 0;
  }

  // The background under `el`: its nearest painted ancestor (null: the canvas) and that
  // colour, or null when it is a picture (background-image), where any colour may be read.
  // Remembered for each element on the way up: its siblings' text has the same one.
  function backgroundUnder(el) {
    const unknown = [];
    let found;
    for (let at = el; found === undefined; at = at?.parentElement) {
      if (!at) found = { owner: null, color: (canvasColor ??= canvas()) };
      else if (backgrounds.has(at)) found = backgrounds.get(at);
      else {
        unknown.push(at);
        found = ownBackground(at);
      }
    }
    for (const at of unknown) backgrounds.set(at, found);
    return found;
  }
  // What `el` paints behind its text: {owner, color}; null for a picture or a see-through
  // colour; undefined for nothing (what is under it shows through).
  function ownBackground(el) {
    const s = styleOf(el);
    if (s.backgroundImage !== "none") return null;
    const color = rgba(s.backgroundColor);
    if (color[3] > 0.95) return { owner: el, color };
    return color[3] > 0.05 ? null : undefined;
  }

  // The browser's own background behind a page that paints none: white, or near black
  // where the page asks for a dark scheme (and the reader's settings pick it).
  function canvas() {
    const meta = doc.querySelector('meta[name="color-scheme" i]')?.content || "";
    const scheme = `${styleOf(doc.documentElement).colorScheme} ${styleOf(doc.body).colorScheme} ${meta}`;
    const dark = scheme.includes("dark") && (!scheme.includes("light") || view.matchMedia("(prefers-color-scheme: dark)").matches);
    return dark ? [18, 18, 18, 1] : [255, 255, 255, 1];
  }

  // Anything painted where the text is, other than the ancestors whose background it
  // matches: a picture, a background image, or a background of another colour (a hero
  // image or a dark overlay laid beside the text rather than around it).
  function paintUnder(el, box, text) {
    painted ??= [...doc.body.querySelectorAll("*")].flatMap((at) => {
      const s = styleOf(at);
      const picture = at.matches(PICTURES) || s.backgroundImage !== "none";
      const color = rgba(s.backgroundColor);
      if (!picture && color[3] <= 0.05) return [];
      const { left, right, top, bottom, width, height } = at.getBoundingClientRect();
      // A fixed layer stays under the text however far the page is scrolled.
      const box = s.position === "fixed" ? { left, right, top: -Infinity, bottom: Infinity, width, height } : { left, right, top, bottom, width, height };
      return [{ at, box, color: picture ? null : color }];
    });
    return painted.some((p) => p.box.width > 1 && p.box.height > 1 && !p.at.contains(el)
      && p.box.left < box.right && box.left < p.box.right && p.box.top < box.bottom && box.top < p.box.bottom
      && (!p.color || contrast(text, p.color) >= FAINT_CONTRAST));
  }

  // Text the page coloured like its background. Text that keeps the colour it had outside
  // that background was not matched to it: that is a page whose stylesheet for the text
  // did not load (black on the black body its inline style paints), not hiding.
  // The element's colour against its background is judged once (faintText); only text whose
  // colour matches looks for a picture under its own box.
  const faint = new Map();
  function faintText(el) {
    if (!faint.has(el)) faint.set(el, colourLikeBackground(el));
    return faint.get(el);
  }
  // The text's colour when it is that of the background under it; else null.
  // (The shadow is asked last: most text stands out from its background without one.)
  function colourLikeBackground(el) {
    const text = textColour(el);
    if (text[3] < 0.95) return null;
    const background = backgroundUnder(el);
    if (!background || contrast(text, background.color) >= FAINT_CONTRAST || styleOf(el).textShadow !== "none") return null;
    const outside = background.owner?.parentElement ? rgba(styleOf(background.owner.parentElement).color) : [0, 0, 0, 1];
    return contrast(text, outside) >= FAINT_CONTRAST ? text : null;
  }
  function blendsIn(el, box) {
    const text = faintText(el);
    return Boolean(text) && !paintUnder(el, box, text);
  }

  // What an element's own style says of its text: null when it is not shown at all (hidden
  // elements are dropped whole), a reason, or "" when only its text's boxes can tell.
  // Judged once per element: its text nodes (split by every link and emphasis) share it.
  const verdicts = new Map();
  function verdictOn(el) {
    if (!verdicts.has(el)) verdicts.set(el, judge(el));
    return verdicts.get(el);
  }
  function judge(el) {
    if (NOT_TEXT.has(el.localName) || !isShown(el)) return null;
    const style = styleOf(el);
    if (parseFloat(style.fontSize) < TINY_FONT_PX) return "too small";
    if (el.namespaceURI === HTML && paintsNothing(el, style)) return "no paint"; // (SVG text is painted by its fill)
    return isClipped(el) ? "clipped" : "";
  }

  // Why a person could not read this text node where the page draws it: "" when they can,
  // null when it is not shown at all.
  return function whyUnseen(node) {
    const el = node.parentElement;
    if (!el || !/\S/.test(node.data)) return null;
    const verdict = verdictOn(el);
    if (verdict !== "") return verdict;
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (!box.width && !box.height) return ""; // not laid out (folded away): judged by style only
    if (offPage(box)) return "off the page";
    return el.namespaceURI === HTML && blendsIn(el, box) ? "background colour" : "";
  };
}

// The text nodes under `root` that no one can read. A reason that would hide most of the
// page's text is not hiding but a page whose styles did not all load (black text on the
// black its inline style paints, with the stylesheet that lightens the text missing): the
// reader of that page sees it as it was meant, so it is read.
function findUnseenText(root, whyUnseen) {
  const byReason = new Map();
  let shownChars = 0;
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const reason = whyUnseen(node);
    if (reason === null) continue;
    const chars = node.data.trim().length;
    shownChars += chars;
    if (!reason) continue;
    if (!byReason.has(reason)) byReason.set(reason, { chars: 0, nodes: [] });
    byReason.get(reason).chars += chars;
    byReason.get(reason).nodes.push(node);
  }
  const found = new Set();
  for (const { chars, nodes } of byReason.values()) if (chars <= MOST * shownChars) for (const node of nodes) found.add(node);
  return found;
}

// Content waiting for scripts: a slideshow shows a slide and hides the others until its
// scripts turn to them. When hiding would drop most of a page (main-content-choosing.js), a hidden
// element is still read if it is another slide of a set the reader is shown: an element of
// the same tag that shares a class with it is shown. Nothing else hidden is: a box or a
// wrapper hidden whole is how a page hides instructions for agents (and a page can fake any
// sign that its scripts did not run), and inside a slide, a box hidden on its own stays out
// (`hidesItself`). A page read with its scripts off whose whole body waits for them is read
// as its reader sees it then: nearly empty.
function waitingTest(doc, isShown) {
  let shownKinds = null; // tag -> the classes of its shown elements, read when first asked
  const kinds = () => (shownKinds ??= shownClassesByTag(doc, isShown));
  return (el) => !isShown(el) && [...el.classList].some((name) => kinds().get(el.localName)?.has(name));
}

function shownClassesByTag(doc, isShown) {
  const kinds = new Map();
  for (const el of doc.querySelectorAll("body [class]")) {
    if (!el.classList.length || !isShown(el)) continue;
    if (!kinds.has(el.localName)) kinds.set(el.localName, new Set());
    for (const name of el.classList) kinds.get(el.localName).add(name);
  }
  return kinds;
}

// Hidden by its own style or attribute, not only by what it is in.
function hidesItselfTest(styleOf) {
  return (el) => el.hidden || styleOf(el).display === "none"
    || (styleOf(el).visibility !== "visible" && el.parentElement !== null && styleOf(el.parentElement).visibility === "visible");
}

// One reading of a document: what is shown and what cannot be read, each element's style
// and visibility read once however often the two ask.
function look(doc) {
  const styleOf = styleCache();
  const isShown = shownTest(styleOf);
  const whyUnseen = unseenReasons(doc, styleOf, isShown);
  return {
    isShown, waitsForScripts: waitingTest(doc, isShown), hidesItself: hidesItselfTest(styleOf),
    unseenText: (root) => findUnseenText(root, whyUnseen),
  };
}

// Text no one can read under `root`, in its document's styles.
const unseenText = (root) => look(root.ownerDocument).unseenText(root);

export { look, unseenText };
