// The new gestures as events a script sends, where the browser gives TabAgent no real input
// (Firefox: docs/firefox.md): a right-click, a double-click, a press held for a while, a pointer
// moved along points with or without the button down, a key held. The page can tell these from
// a person's (isTrusted is false; they set no :hover and carry no user activation), and what
// only the browser does on real input (its own context menu, a user-activated popup or
// history entry) does not happen. Each result says so (SYNTHETIC), for the model.

import { hitAt } from "./points.js";
import { pressKey } from "./gestures.js";

export const SYNTHETIC = "synthetic events (this browser gives extensions no real input): the page sees isTrusted false, " +
  "no :hover, no user activation, and no browser menu opens";

const MOUSE = { bubbles: true, cancelable: true, composed: true };
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function send(el, type, at, extra = {}) {
  const init = { ...MOUSE, ...at, ...extra };
  const event = type.startsWith("pointer") ? new PointerEvent(type, { pointerId: 1, pointerType: "mouse", isPrimary: true, ...init }) : new MouseEvent(type, init);
  return el.dispatchEvent(event);
}

function arrive(el, at) {
  for (const type of ["pointerover", "mouseover", "pointermove", "mousemove"]) send(el, type, at);
}

// button: 0 left, 2 right; count: 2 for a double-click; heldMs between the press and the release.
async function pressAt(el, at, { button = 0, count = 1, heldMs = 0 } = {}) {
  arrive(el, at);
  const buttons = button === 2 ? 2 : 1;
  for (let n = 1; n <= count; n++) {
    send(el, "pointerdown", at, { button, buttons, detail: n });
    send(el, "mousedown", at, { button, buttons, detail: n });
    if (n === 1) el.closest?.("a[href], button, input, select, textarea, [tabindex]")?.focus?.({ preventScroll: true });
    if (heldMs) await pause(heldMs);
    send(el, "pointerup", at, { button, buttons: 0, detail: n });
    send(el, "mouseup", at, { button, buttons: 0, detail: n });
    if (button === 2 && n === 1) send(el, "contextmenu", at, { button, buttons: 0 });
    if (button === 0) el.dispatchEvent(new MouseEvent("click", { ...MOUSE, ...at, button, detail: n }));
  }
  if (count === 2) el.dispatchEvent(new MouseEvent("dblclick", { ...MOUSE, ...at, detail: 2 }));
}

// The pointer along the ends' points (each { el, at, view }), pressed from the first when `press`.
function alongPoints(ends, press) {
  const [first, last] = [ends[0], ends.at(-1)];
  arrive(first.el, first.at);
  if (press) {
    send(first.el, "pointerdown", first.at, { button: 0, buttons: 1 });
    send(first.el, "mousedown", first.at, { button: 0, buttons: 1 });
  }
  for (const end of ends.slice(1)) {
    const now = hitAt({ ...end.view });
    send(now.el, "pointermove", now.at, { buttons: press ? 1 : 0 });
    send(now.el, "mousemove", now.at, { buttons: press ? 1 : 0 });
  }
  if (press) {
    send(last.el, "pointerup", last.at, { button: 0, buttons: 0 });
    send(last.el, "mouseup", last.at, { button: 0, buttons: 0 });
  }
}

// A key held: its keydown, then its keyup after heldMs (no repeats), through press_key's own keys.
async function holdKey(el, keys, heldMs) {
  if (!heldMs) return pressKey(el, keys);
  const init = { ...MOUSE, key: keys.key, ...keys.held };
  el.dispatchEvent(new KeyboardEvent("keydown", init));
  await pause(heldMs);
  el.dispatchEvent(new KeyboardEvent("keyup", init));
}

export { pressAt, alongPoints, holdKey };
