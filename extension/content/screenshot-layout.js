// screenshot_layout: where things are in the visible part of the page, for the screenshot
// the service worker takes of it (background/screenshot.js). It says the device pixel ratio
// and the viewport's size (the capture is in device pixels, the page in CSS pixels), the box
// of one element to crop to, and the box of each control in view with its locator's number,
// to draw on the picture so a model can say "click 14" (ta-14, as list_controls lists it).
// Nothing is scrolled: an element out of view is refused in words, the page stays as it is.

import { describe } from "./element-words.js";
import { PageToolError, arg } from "./tool-arguments.js";
import * as locators from "./locators.js";
import * as controls from "./controls.js";

export const tools = {};

const MAX_LABELS = 300; // a page of thousands of links would be a picture of labels

// An element's box in the top page's viewport (a same-origin frame's elements are moved by
// where the frame sits).
function boxInTopViewport(el) {
  let { left, top, width, height } = el.getBoundingClientRect();
  for (let view = el.ownerDocument.defaultView; view?.frameElement; view = view.parent) {
    const frame = view.frameElement.getBoundingClientRect();
    left += frame.left + view.frameElement.clientLeft;
    top += frame.top + view.frameElement.clientTop;
  }
  return { left, top, width, height };
}

const inView = (box) => box.width > 0 && box.height > 0 && box.left < innerWidth && box.top < innerHeight &&
  box.left + box.width > 0 && box.top + box.height > 0;

function elementBox(locator) {
  const el = locators.findOne(locator);
  const box = boxInTopViewport(el);
  const { summary } = describe(el);
  if (!inView(box)) {
    throw new PageToolError(`The ${summary} (${locator}) is not in the visible part of the page: ` +
      `scroll to it first (scroll with to="${locator}"), then take the screenshot.`);
  }
  return { ...box, summary, locator: locators.locatorFor(el) };
}

function labels() {
  // Only what is in view is looked at further: a long page's thousands of controls below cost nothing.
  const found = controls.controls(document.documentElement, (candidate) => inView(boxInTopViewport(candidate)));
  // All boxes are read before any locator is written (an attribute): no layout between them.
  const boxes = found.slice(0, MAX_LABELS).map((el) => [el, boxInTopViewport(el)]);
  return boxes.map(([el, box]) => ({ text: locators.locatorFor(el).replace(/^ta-/, ""), ...box }));
}

tools.screenshot_layout = {
  params: { locator: arg("string", null), labels: arg("boolean", false) },
  run({ locator, labels: withLabels }) {
    // scrolled: where the page was scrolled, so a point of the picture is found again after scrolling (points.js).
    const layout = { url: location.href, dpr: devicePixelRatio, viewport: { width: innerWidth, height: innerHeight },
      scrolled: { x: scrollX, y: scrollY } };
    if (locator) layout.element = elementBox(locator);
    if (withLabels) layout.labels = labels();
    return layout;
  },
};

export { boxInTopViewport };
