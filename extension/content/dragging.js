// A drag, as a person's hand does it, with the events both kinds of page listen to: the pointer
// and mouse sequence (down on the source, moves across, up on the target: sortable lists and
// sliders built on pointer events), and, when the source is draggable, HTML drag and drop as
// the browser runs it (dragstart with a DataTransfer, dragenter/dragover along the way, drop
// where the target accepts it, dragend). As in a browser, a page that cancels dragstart keeps
// the plain pointer sequence.
//
// Each end is { el, at (event coordinates in its document), view (the point in the top
// viewport) }; the element under each step of the way is found as a person's pointer finds it.

import { hitAt } from "./points.js";

const STEPS = 6;
const POINTER = { bubbles: true, cancelable: true, composed: true, pointerId: 1, pointerType: "mouse", isPrimary: true };

const send = (el, type, at, extra = {}) => {
  const init = { ...POINTER, ...at, ...extra };
  const event = type.startsWith("pointer") ? new PointerEvent(type, init) : new MouseEvent(type, init);
  return el.dispatchEvent(event);
};

// The points between the two ends, in the top viewport, and what the pointer is over at each.
function along(from, to) {
  const steps = [];
  for (let i = 1; i <= STEPS; i++) {
    const view = { x: from.view.x + ((to.view.x - from.view.x) * i) / STEPS, y: from.view.y + ((to.view.y - from.view.y) * i) / STEPS };
    steps.push(i === STEPS ? to : hitAt({ ...view, scroll_x: scrollX, scroll_y: scrollY }));
  }
  return steps;
}

function press(from) {
  for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "pointermove", "mousemove"]) {
    send(from.el, type, from.at, type.endsWith("enter") ? { bubbles: false } : {});
  }
  send(from.el, "pointerdown", from.at, { button: 0, buttons: 1 });
  send(from.el, "mousedown", from.at, { button: 0, buttons: 1 });
}

function moveAndRelease(from, to) {
  for (const step of along(from, to)) {
    send(step.el, "pointermove", step.at, { buttons: 1 });
    send(step.el, "mousemove", step.at, { buttons: 1 });
  }
  send(to.el, "pointerup", to.at, { button: 0, buttons: 0 });
  send(to.el, "mouseup", to.at, { button: 0, buttons: 0 });
  return { events: "pointer and mouse (down, moves, up)" };
}

const dragEvent = (el, type, at, dataTransfer) =>
  el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: type !== "dragleave" && type !== "dragend", composed: true, ...at, dataTransfer }));

// HTML drag and drop from `dragged` (the draggable element holding the source): null when the
// page cancels dragstart (then the drag is the pointer sequence only).
function dragAndDrop(dragged, from, to) {
  const data = new DataTransfer();
  data.effectAllowed = "all";
  if (!dragEvent(dragged, "dragstart", from.at, data)) return null;
  send(from.el, "pointercancel", from.at, { buttons: 0 });
  let over = null;
  let accepted = false;
  for (const step of along(from, to)) {
    dragEvent(dragged, "drag", step.at, data);
    if (step.el !== over) {
      if (over) dragEvent(over, "dragleave", step.at, data);
      dragEvent(step.el, "dragenter", step.at, data);
      over = step.el;
    }
    accepted = !dragEvent(step.el, "dragover", step.at, data); // cancelled: the target takes the drop
  }
  if (accepted) {
    data.dropEffect = /move|all|uninitialized/i.test(data.effectAllowed) ? "move" : /copy/i.test(data.effectAllowed) ? "copy" : "link";
    dragEvent(to.el, "drop", to.at, data);
  } else {
    dragEvent(to.el, "dragleave", to.at, data);
  }
  dragEvent(dragged, "dragend", to.at, data);
  return { events: "HTML drag and drop (dragstart, dragover, drop, dragend)", dropped: accepted };
}

function drag(from, to) {
  press(from);
  const draggable = from.el.closest('[draggable="true"]') ?? (from.el.draggable ? from.el : null);
  send(from.el, "pointermove", from.at, { buttons: 1 });
  send(from.el, "mousemove", from.at, { buttons: 1 });
  return (draggable && dragAndDrop(draggable, from, to)) || moveAndRelease(from, to);
}

export { drag };
