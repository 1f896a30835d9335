// Real input: where the browser lets TabAgent give the page the input a person's hand gives
// (Chrome, through the DevTools protocol: extension/platform/chrome/real-input.js), an action the
// user confirmed is not performed here with events a script sends. It is turned into a gesture
// (where the pointer goes, which button it presses and for how long, which keys go down in
// which order) in CSS pixels of the top viewport, which the service worker gives the tab.
//
// The gesture stays bound to what the user confirmed: the pointer presses only where the
// element they saw is the one on top. The service worker asks here (checkGesture) before every
// press and release and all through a hold; an element that moved, was covered or swapped under
// the pointer, or a document that is no longer this one, stops the gesture there.

import { describe } from "./element-words.js";
import { PageToolError } from "./tool-arguments.js";
import { hitAt } from "./points.js";
import { boxInTopViewport } from "./screenshot-layout.js";
import { coveredBy, inView, outcome } from "./gestures.js";
import { keyInput } from "./real-keys.js";
import { watchMenu, menuSeen } from "./page-menus.js";

const inFlight = new Map(); // gesture id -> { ends: [{ el, view }], menu?, target? }
const HOLD_AT_MOST_MS = 10_000;

// The centre of `el`, brought into view, in the top viewport; uncovered, or nothing is done.
function centreInView(el) {
  inView(el);
  const box = boxInTopViewport(el);
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

// Each end of a plan: its element and where the pointer goes (an end given by a point stays at
// that point; one given by its element, its centre once in view).
function endsOf(plan) {
  if (plan.ends) return plan.ends.map((end) => ({ el: end.el, view: { x: end.view.x, y: end.view.y } }));
  return [{ el: plan.el, view: centreInView(plan.el) }];
}

const holdMs = (seconds) => Math.min(HOLD_AT_MOST_MS, Math.max(0, Math.round((seconds ?? 0) * 1000)));

function pressAt(view, button, count, heldMs) {
  const steps = [{ move: view }, { check: 0 }];
  for (let n = 1; n <= count; n++) {
    steps.push({ press: view, button, count: n });
    // Through a hold and at its end, the element must still be the one under the pointer (a press
    // that is let go at once is let go wherever the page put things in answer to it, as a hand's is).
    if (heldMs) steps.push({ hold: heldMs, check: 0 }, { check: 0 });
    steps.push({ release: view, button, count: n });
  }
  return steps;
}

// The steps of a path: to the first point, pressed there when `press`, then along each point.
function along(ends, press) {
  const steps = [{ move: ends[0].view }, { check: 0 }];
  if (press) steps.push({ press: ends[0].view, button: "left", count: 1 });
  ends.slice(1).forEach((end) => steps.push({ move: end.view, pressed: press }));
  if (press) steps.push({ release: ends.at(-1).view, button: "left", count: 1 });
  return steps;
}

const GESTURES = {
  click: (plan, args) => pressAt(endsOf(plan)[0].view, "left", 1, holdMs(args.duration)),
  click_at: (plan, args) => pressAt(endsOf(plan)[0].view, "left", 1, holdMs(args.duration)),
  check: (plan) => (plan.already ? [] : pressAt(endsOf(plan)[0].view, "left", 1, 0)),
  right_click: (plan) => pressAt(endsOf(plan)[0].view, "right", 1, 0),
  double_click: (plan) => pressAt(endsOf(plan)[0].view, "left", 2, 0),
  hover: (plan) => [{ move: endsOf(plan)[0].view }, { check: 0 }],
  drag: (plan) => along(endsOf(plan), true),
  move_pointer: (plan, args) => along(endsOf(plan), args.press),
  press_key: (plan, args) => keyInput(plan, holdMs(args.duration)),
};

// The gesture for a confirmed plan ({ id, steps }), or null when this action has none (typing,
// choosing: done here as before).
function gestureFor(name, plan, args) {
  if (!Object.hasOwn(GESTURES, name)) return null;
  if (name === "press_key") focusFor(plan);
  const ends = name === "press_key" ? [] : endsOf(plan);
  const id = crypto.randomUUID();
  const steps = GESTURES[name](plan, args);
  inFlight.set(id, { ends, target: plan.target ?? plan.el ?? null, menu: name === "right_click" ? watchMenu() : null });
  // A check that ends the gesture (a hover's, once the pointer is there) is made where its outcome is
  // read (gestureDone), in the same call to the page: one round trip to the tab instead of two.
  const last = steps.at(-1)?.check;
  if (last != null) steps.pop();
  // shown: the page is drawn now, so the service worker need not make it draw (a hidden tab does not).
  return { id, steps, shown: document.visibilityState === "visible", ...(last != null && { check_when_done: last }) };
}

// Keys go where the focus is: to the element the user confirmed, focused first.
function focusFor(plan) {
  if (!plan.el) return;
  inView(plan.el);
  plan.el.focus({ preventScroll: true });
  if (plan.el.getRootNode().activeElement !== plan.el && !plan.el.contains(document.activeElement)) {
    throw new PageToolError(`Nothing was done: the ${describe(plan.el).summary} would not take the focus, so the keys would have gone elsewhere.`);
  }
}

// Is the end's element still the one on top at its point (itself, inside it, or its label)?
// Answers null, or why not, in words for the model.
function checkGesture({ id, end }) {
  const gesture = inFlight.get(id);
  if (!gesture) return "the page was replaced (it navigated or reloaded) while the input was given";
  const wanted = gesture.ends[end];
  if (!wanted) return focusMoved(gesture);
  if (!wanted.el.isConnected) return `the ${describe(wanted.el).summary} the user saw was removed from the page`;
  let hit;
  try {
    hit = hitAt({ ...wanted.view }).el;
  } catch (error) {
    return error.message;
  }
  const el = wanted.el;
  if (hit === el || el.contains(hit) || (el.labels && [...el.labels].some((label) => label.contains(hit)))) return null;
  if (hit.contains(el) && !coveredBy(el)) return null;
  return `the page put the ${describe(hit).summary} under the pointer in place of the ${describe(el).summary} the user saw`;
}

function focusMoved(gesture) {
  const focused = document.activeElement;
  if (!gesture.target || focused === gesture.target || gesture.target.contains(focused)) return null;
  return `the page moved the focus from the ${describe(gesture.target).summary} to ${focused ? `the ${describe(focused).summary}` : "nowhere"}`;
}

// What the model is told once the gesture was given: the outcome, and what a right-click opened.
// check: the end checked last (check_when_done), first: { refused } when it is no longer on top.
function gestureDone({ id, check = null }) {
  const refused = check == null ? null : checkGesture({ id, end: check });
  if (refused) {
    inFlight.delete(id);
    return { refused };
  }
  const gesture = inFlight.get(id);
  inFlight.delete(id);
  if (!gesture) return { page: "replaced: it navigated or reloaded after the input" };
  const el = gesture.target;
  const out = outcome(el?.localName === "input" ? el : null);
  if (gesture.menu) out.menu = menuSeen(gesture.menu);
  return out;
}

export { gestureFor, checkGesture, gestureDone };
