// Points of the screen: what a person's pointer would hit at a point of the page as the model's
// screenshot showed it (a click by position, either end of a drag). A point is given in CSS
// pixels of the top page's viewport, with the scrolling of the page when the picture was taken
// (py/tabagent/app/picture_points.py maps the picture's pixels to it); the page scrolled since
// moves it by as much.
//
// The element at the point decides the site: one inside a same-origin frame is found in that
// frame (and its document's origin is the site); a frame from another site is the site it
// shows, and TabAgent acts in none (its content scripts run in the top page only).

import { frameDocument } from "./frames.js";
import { PageToolError } from "./tool-arguments.js";

// The point now, in the top viewport: where it was in the picture, moved by the scrolling since.
function pointNow({ x, y, scroll_x: scrolledX, scroll_y: scrolledY }) {
  const now = { x: x + (scrolledX ?? scrollX) - scrollX, y: y + (scrolledY ?? scrollY) - scrollY };
  if (now.x < 0 || now.y < 0 || now.x >= innerWidth || now.y >= innerHeight) {
    throw new PageToolError(`The point (${Math.round(x)}, ${Math.round(y)}) is no longer in the visible part of the page ` +
      "(it was scrolled since the screenshot): take a new screenshot and use its coordinates.");
  }
  return now;
}

// The topmost element at (x, y) of `doc`'s viewport, inside open shadow roots.
function topmost(doc, x, y) {
  let hit = doc.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

// Where a frame's document starts in its parent's viewport: its box, border and padding.
function contentOrigin(frame) {
  const box = frame.getBoundingClientRect();
  const style = frame.ownerDocument.defaultView.getComputedStyle(frame);
  return { left: box.left + frame.clientLeft + parseFloat(style.paddingLeft), top: box.top + frame.clientTop + parseFloat(style.paddingTop) };
}

// The origin a frame we cannot enter shows, as its address says (a sandboxed one has none). A
// frame may have navigated away from its address: one whose address is of the page's own site,
// yet closed to us, has left it for another, which only the frame knows; it is never named as ours.
function frameSite(frame) {
  try {
    const origin = new URL(frame.src || "about:blank", frame.ownerDocument.baseURI).origin;
    if (origin === "null") return "a sandboxed frame";
    return origin === frame.ownerDocument.defaultView?.origin ? "not the one its address names" : origin;
  } catch {
    return "an unknown site";
  }
}

const siteOf = (el) => el.ownerDocument.defaultView?.origin ?? location.origin;

// What the pointer hits at a point of the top viewport: { el, at (the event coordinates in the
// element's own document), view (the point in the top viewport), site, foreign (true for a
// frame of another site, which is `el`) }.
function hitAt(point) {
  const view = pointNow(point);
  let [doc, x, y] = [document, view.x, view.y];
  for (let depth = 0; depth < 6; depth++) {
    const el = topmost(doc, x, y);
    if (!el) throw new PageToolError(`Nothing of the page is at the point (${Math.round(point.x)}, ${Math.round(point.y)}).`);
    const at = { clientX: x, clientY: y };
    if (el.localName !== "iframe" && el.localName !== "frame") return { el, at, view, site: siteOf(el), foreign: false };
    const inner = frameDocument(el);
    if (!inner?.documentElement) return { el, at, view, site: frameSite(el), foreign: true };
    const origin = contentOrigin(el);
    [doc, x, y] = [inner, x - origin.left, y - origin.top];
  }
  throw new PageToolError("The point is inside frames nested too deep to reach.");
}

export { hitAt, siteOf };
