// A screenshot made ready for the model, in an OffscreenCanvas: cropped to the element asked
// for, the controls' numbers drawn on it when asked (so a model can say "click 14"), and no
// larger than models take in. Endpoints scale a larger picture down themselves (Claude to a
// long side of 1,568 px, GPT-4o to 768 px on the short side), so sending more costs bytes and
// time and shows the model nothing more. A full view goes as JPEG (a quarter of PNG's size on
// pages with photos and gradients); a small crop as PNG, where sharp text matters more.
//
// The capture is in device pixels, the layout (screenshot-layout.js) in CSS pixels: the ratio
// between them is read from the picture itself, which holds with the page zoomed too.

import { asDataUrl } from "./data-url.js";

const LONG_SIDE = 1568;
const SMALL_PIXELS = 512 * 512;
const JPEG_QUALITY = 0.8;
const LABEL_FONT_PX = 13;

// Around the points of a click by position or a drag: this many CSS pixels on every side.
const AROUND_PX = 90;
const MARK_RADIUS = 9;

// The box around `points` (CSS pixels), the room AROUND_PX on every side.
function aroundBox(points) {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [left, top] = [Math.min(...xs) - AROUND_PX, Math.min(...ys) - AROUND_PX];
  return { left, top, width: Math.max(...xs) + AROUND_PX - left, height: Math.max(...ys) + AROUND_PX - top };
}

// The part of the capture to keep, in its pixels: the element's box, the points' surroundings, or all of it.
function cropBox(picture, layout) {
  const ratio = layout ? picture.width / layout.viewport.width : 1;
  const box = layout?.around ? aroundBox(layout.around) : layout?.element;
  if (!box) return { left: 0, top: 0, width: picture.width, height: picture.height, ratio };
  const left = Math.max(0, Math.floor(box.left * ratio));
  const top = Math.max(0, Math.floor(box.top * ratio));
  const right = Math.min(picture.width, Math.ceil((box.left + box.width) * ratio));
  const bottom = Math.min(picture.height, Math.ceil((box.top + box.height) * ratio));
  return { left, top, width: Math.max(1, right - left), height: Math.max(1, bottom - top), ratio };
}

// Each control's outline and its number in a tag at its top left corner, in the picture's pixels.
function drawLabels(context, labels, crop, scale) {
  context.font = `bold ${LABEL_FONT_PX}px sans-serif`;
  context.textBaseline = "top";
  context.lineWidth = 1;
  let drawn = 0;
  for (const label of labels) {
    const x = (label.left * crop.ratio - crop.left) * scale;
    const y = (label.top * crop.ratio - crop.top) * scale;
    const [w, h] = [label.width * crop.ratio * scale, label.height * crop.ratio * scale];
    if (x + w < 0 || y + h < 0 || x > context.canvas.width || y > context.canvas.height) continue;
    context.strokeStyle = "#d00";
    context.strokeRect(x, y, w, h);
    const tagWidth = context.measureText(label.text).width + 4;
    context.fillStyle = "#d00";
    context.fillRect(Math.max(0, x), Math.max(0, y), tagWidth, LABEL_FONT_PX + 2);
    context.fillStyle = "#fff";
    context.fillText(label.text, Math.max(0, x) + 2, Math.max(0, y) + 1);
    drawn += 1;
  }
  return drawn;
}

// Each point a ring and a cross, in the picture's pixels (a drag's two joined by a line, from
// its start): exactly where the pointer will press, in colours that show on light and dark.
function drawPoints(context, points, crop, scale) {
  const at = points.map((p) => [(p.x * crop.ratio - crop.left) * scale, (p.y * crop.ratio - crop.top) * scale]);
  for (const [colour, width] of [["#fff", 5], ["#d00", 2.5]]) {
    context.strokeStyle = colour;
    context.lineWidth = width;
    context.beginPath();
    if (at.length > 1) at.forEach(([x, y], i) => (i ? context.lineTo(x, y) : context.moveTo(x, y)));
    for (const [x, y] of at) {
      context.moveTo(x + MARK_RADIUS, y);
      context.arc(x, y, MARK_RADIUS, 0, 2 * Math.PI);
      context.moveTo(x - MARK_RADIUS - 4, y);
      context.lineTo(x + MARK_RADIUS + 4, y);
      context.moveTo(x, y - MARK_RADIUS - 4);
      context.lineTo(x, y + MARK_RADIUS + 4);
    }
    context.stroke();
    if (at.length > 1) arrowHead(context, at[at.length - 2], at[at.length - 1]);
  }
}

// Where a drag goes: a head on its line, at the ring of the end.
function arrowHead(context, [x0, y0], [x1, y1]) {
  const angle = Math.atan2(y1 - y0, x1 - x0);
  const [tipX, tipY] = [x1 - MARK_RADIUS * Math.cos(angle), y1 - MARK_RADIUS * Math.sin(angle)];
  context.beginPath();
  for (const side of [-0.5, 0.5]) {
    context.moveTo(tipX, tipY);
    context.lineTo(tipX - 10 * Math.cos(angle + side), tipY - 10 * Math.sin(angle + side));
  }
  context.stroke();
}

// What part of the page the picture shows, in CSS pixels of the viewport, and the scrolling
// then: a point of the picture is found on the page from it (py/tabagent/app/picture_points.py).
function pictured(crop, layout) {
  return { left: crop.left / crop.ratio, top: crop.top / crop.ratio, width: crop.width / crop.ratio, height: crop.height / crop.ratio,
    scroll_x: layout.scrolled?.x ?? 0, scroll_y: layout.scrolled?.y ?? 0 };
}

// { capture (a PNG data URL), layout, url, title } from background/screenshot.js ->
// { image (a data URL), width, height, media_type, bytes, url, title, element?, labels?, area? }
export async function readyForModel({ capture, layout, url, title }) {
  const picture = await createImageBitmap(await (await fetch(capture)).blob());
  const crop = cropBox(picture, layout);
  const scale = Math.min(1, LONG_SIDE / Math.max(crop.width, crop.height));
  const [width, height] = [Math.max(1, Math.round(crop.width * scale)), Math.max(1, Math.round(crop.height * scale))];
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext("2d");
  context.drawImage(picture, crop.left, crop.top, crop.width, crop.height, 0, 0, width, height);
  picture.close();
  const labels = layout?.labels ? drawLabels(context, layout.labels, crop, scale) : null;
  if (layout?.around) drawPoints(context, layout.around, crop, scale);
  const type = width * height <= SMALL_PIXELS ? "image/png" : "image/jpeg";
  const blob = await canvas.convertToBlob({ type, quality: JPEG_QUALITY });
  const ready = { image: await asDataUrl(blob), width, height, media_type: type, bytes: blob.size, url, title };
  if (layout?.element) Object.assign(ready, { element: layout.element.summary, locator: layout.element.locator });
  if (labels !== null) ready.labels = labels;
  if (layout?.viewport) ready.area = pictured(crop, layout);
  return ready;
}
