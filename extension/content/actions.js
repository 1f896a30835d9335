// Acting on the page: click, type_text, select_option, check, press_key, hover, scroll, and
// describe_action, which says exactly what one of them would do, for the confirmation the
// user sees before it runs. Each acts only on an element that is visible, enabled and not
// covered by another (the covering one is named), with the events a person's action sends.
//
// Each action is planned first (find the element, check it can be acted on, describe the
// outcome in words) and performed second; describe_action runs only the plan, so what the
// user confirms is what then happens.
//
// Consent binds to what the user saw: describe_action holds the element it described by
// reference, under a plan id; the action, given that id, is done only on that very element,
// still in the page and described exactly as before. A page that swaps what a locator
// names between the question and the click ("Subscribe" confirmed, "Delete account"
// clicked) gets nothing done, and the model is told why.

import { isVisible, describe } from "./element-words.js";
import { truncate } from "./snippets.js";
import { PageToolError, readArgs, arg } from "./tool-arguments.js";
import * as locators from "./locators.js";
import { coveredBy, inView, click, typeText, choose, choicesOf, matchOption, optionText, isCheckable, isChecked, parseKeys, hover, clickAt, outcome, currentText, setValue } from "./gestures.js";
import * as hoverStyles from "./hover-styles.js";
import { atPlace, placeOf } from "./places.js";
import * as pageVersion from "./page-version.js";
import { takesValue, fileRefused, checkedValue } from "./values.js";
import { hitAt, siteOf } from "./points.js";
import { watchMenu, menuSeen } from "./page-menus.js";
import { drag } from "./dragging.js";
import { isSecretField } from "./secret-fields.js";
import { boxInTopViewport } from "./screenshot-layout.js";
import { gestureFor, checkGesture, gestureDone } from "./real-input.js";
import { SYNTHETIC, pressAt, alongPoints, holdKey } from "./pointer-gestures.js";

export const tools = {};

const held = new Map(); // plan id -> { name, args, nodes, described, version }
const HELD_AT_MOST = 20;

function actionable(locator, verb) {
  const el = locators.findOne(locator);
  const what = describe(el).summary;
  if (!isVisible(el)) throw new PageToolError(`The ${what} is hidden on the page, so it cannot be ${verb}.`);
  if (el.disabled || el.getAttribute("aria-disabled") === "true") throw new PageToolError(`The ${what} is disabled, so it cannot be ${verb}.`);
  const cover = coveredBy(el);
  if (cover) throw new PageToolError(`The ${what} is covered by the ${describe(cover).summary}, so it cannot be ${verb}; close or move that first.`);
  return el;
}

// Where a click would take the browser: a link's URL, or a submit button's form action.
function destination(el) {
  const link = el.closest("a[href], area[href]");
  if (link && !/^\s*javascript:/i.test(link.getAttribute("href"))) return link.href;
  const isSubmit = (el.localName === "button" && (el.type || "submit") === "submit") || (el.localName === "input" && ["submit", "image"].includes(el.type));
  return isSubmit && el.form ? el.form.action : null;
}

// One end of a click by position or a drag: a point of the screenshot ({ x, y, scroll_x,
// scroll_y }: what is there now), or an element by locator (its centre, which must be in view).
// { el, at, view, site, foreign }: see points.js.
function endOf(spec, verb) {
  if (spec.locator == null) {
    const hit = hitAt(spec);
    const off = hit.el.closest?.(":disabled, [aria-disabled='true']");
    if (off) throw new PageToolError(`The ${describe(off).summary} at that point is disabled, so it cannot be ${verb}.`);
    return hit;
  }
  const el = actionable(spec.locator, verb);
  const box = boxInTopViewport(el);
  const centre = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  if (centre.x < 0 || centre.y < 0 || centre.x >= innerWidth || centre.y >= innerHeight) {
    throw new PageToolError(`The ${describe(el).summary} is not in the visible part of the page: scroll so that it is, then try again.`);
  }
  const hit = hitAt(centre);
  // A frame of another site named by its locator is that site, as under a point.
  return hit.foreign && hit.el === el ? hit : { ...hit, el, site: siteOf(el), foreign: false };
}

// Where a drop onto an element named by its locator lands: past its centre in the direction of
// travel (three quarters of the way to its far edge), as a person drops. A sortable list puts
// the item before or after the one under the pointer by which half the pointer is in, so a drop
// on the exact centre never moved an item down. A point the element does not get stays the centre.
const PAST_CENTRE = 0.75;
function pastCentre(from, to) {
  const box = boxInTopViewport(to.el);
  const [dx, dy] = [to.view.x - from.view.x, to.view.y - from.view.y];
  const length = Math.hypot(dx, dy);
  if (!length || to.foreign) return to;
  const reach = Math.min(dx ? box.width / 2 / Math.abs(dx / length) : Infinity, dy ? box.height / 2 / Math.abs(dy / length) : Infinity);
  const point = { x: to.view.x + (dx / length) * reach * PAST_CENTRE, y: to.view.y + (dy / length) * reach * PAST_CENTRE };
  let hit;
  try {
    hit = hitAt(point);
  } catch {
    return to;
  }
  return hit.el === to.el || to.el.contains(hit.el) ? { ...hit, el: to.el, site: to.site, foreign: to.foreign } : to;
}

// An end in a frame of another site is named with that site, never acted in.
const endWords = (end) => (end.foreign ? `frame from ${end.site}` : describe(end.el).summary);

const TEXT_TYPES = ["text", "search", "email", "url", "tel", "password"];

// A field type_text can fill: one that takes text, or one set by value (values.js).
function editable(el) {
  const input = el.localName === "input";
  if (input && el.type === "file") throw fileRefused(el);
  const field = (input && (TEXT_TYPES.includes(el.type) || takesValue(el))) || el.localName === "textarea";
  if (field && el.readOnly) {
    throw new PageToolError(`The ${describe(el).summary} is read-only: a person cannot type into it either (it may be filled by a picker beside it).`);
  }
  if (field || el.isContentEditable) return el;
  const what = describe(el).summary;
  throw new PageToolError(`The ${what} is not a text field, so text cannot be typed into it.`);
}

const quoted = (text, max = 200) => `“${truncate(text, max).text}”`;

// Credentials are the user's to type, never the agent's: whatever it would type came from the
// conversation (the model, which may have read a hostile page). It hands the login back. A
// password field is one as a person knows it (secret-fields.js): marked, drawn as dots or named so.
function notAPasswordField(el) {
  if (isSecretField(el)) {
    throw new PageToolError(`TabAgent never types into a password field (the ${describe(el).summary}): ask the user to log in themselves with ask_user(login=True).`);
  }
  return el;
}

const planners = {
  click({ locator, duration }) {
    const el = actionable(locator, "clicked");
    const url = destination(el);
    const newTab = el.closest("a")?.target === "_blank" ? " in a new tab" : "";
    // A held press is shown with its spot, like the other presses by position.
    const ends = duration ? [endOf({ locator }, "clicked")] : undefined;
    return { el, url, ends, summary: `${pressWords("Click", duration)} the ${describe(el).summary}${url ? `, which opens ${url}${newTab}` : ""}.` };
  },
  type_text({ locator, text, clear, submit }) {
    const el = notAPasswordField(editable(actionable(locator, "typed into")));
    if (takesValue(el)) return valuePlan(el, text, submit);
    const current = currentText(el);
    const replacing = clear && current ? `, replacing ${quoted(current)}` : !clear && current ? ", after the text already there" : "";
    const form = el.form || el.closest("form");
    const then = submit ? (form ? `, then submit the form (to ${form.action})` : ", then press Enter") : "";
    return { el, text, url: submit && form ? form.action : null, summary: `Type ${quoted(text, 1000)} into the ${describe(el).summary}${replacing}${then}.` };
  },
  select_option({ locator, option }) {
    const el = actionable(locator, "chosen from");
    const wanted = (Array.isArray(option) ? option : [option]).map(String);
    const { options, current, multiple } = choicesOf(el);
    const chosen = wanted.map((want) => matchOption(options, want, el));
    if (chosen.length > 1 && !multiple) throw new PageToolError(`The ${describe(el).summary} takes one choice, not ${chosen.length}.`);
    const names = chosen.map((o) => quoted(optionText(o))).join(", ");
    const was = current.length ? `, in place of ${current.map((o) => quoted(optionText(o))).join(", ")}` : "";
    return { el, chosen, summary: `Choose ${names} in the ${describe(el).summary}${was}.` };
  },
  check({ locator, checked }) {
    const el = actionable(locator, checked ? "checked" : "unchecked");
    if (!isCheckable(el)) throw new PageToolError(`The ${describe(el).summary} is not a check box, radio button or switch.`);
    if (el.type === "radio" && !checked) throw new PageToolError(`A radio button cannot be unchecked: choose another one of its group.`);
    const already = isChecked(el) === checked;
    const verb = checked ? "Check" : "Uncheck";
    return { el, checked, already, summary: already ? `Leave the ${describe(el).summary} ${checked ? "checked" : "unchecked"}, as it already is.` : `${verb} the ${describe(el).summary}.` };
  },
  // With no locator, the key goes to the element focused now, held like a located one: a page
  // that moves the focus to a look-alike field before the user answers gets nothing.
  press_key({ locator, key, duration }) {
    const el = locator ? actionable(locator, "given a key") : (document.activeElement ?? document.body);
    const keys = parseKeys(key);
    if (keys.key.length === 1) notAPasswordField(el); // a character, one at a time, is still typing
    const where = locator || el !== document.body ? ` in the ${describe(el).summary}` : " on the page";
    return { el: locator ? el : null, target: el, keys, summary: `${pressWords("Press", duration)} ${keys.label}${where}.` };
  },
  click_at({ duration, ...point }) {
    const end = endOf(point, "clicked");
    const url = end.foreign ? null : destination(end.el);
    return { el: end.el, ends: [end], url, summary: `${pressWords("Click", duration)} the point marked in the picture, on the ${endWords(end)}${url ? `, which opens ${url}` : ""}.` };
  },
  right_click({ at }) {
    const end = endOf(at, "right-clicked");
    return { el: end.el, ends: [end], summary: `Right-click the ${at.locator ? "" : "point marked in the picture, on the "}${endWords(end)}.` };
  },
  double_click({ at }) {
    const end = endOf(at, "double-clicked");
    return { el: end.el, ends: [end], url: end.foreign ? null : destination(end.el),
      summary: `Double-click the ${at.locator ? "" : "point marked in the picture, on the "}${endWords(end)}.` };
  },
  // Both ends on one element is a drag inside it (a canvas, a map, a slider's track): by points only.
  drag({ source, target }) {
    const from = endOf(source, "dragged");
    // onto a locator: past its centre in the direction of travel, as a person drops into a sortable list
    const to = target.locator == null ? endOf(target, "dropped onto") : pastCentre(from, endOf(target, "dropped onto"));
    const byPoints = source.locator == null && target.locator == null;
    if (from.el === to.el && !(byPoints && (from.view.x !== to.view.x || from.view.y !== to.view.y))) {
      throw new PageToolError(`Both ends of the drag are the ${endWords(from)}: name two places (two points of it, to drag inside it).`);
    }
    const onto = from.el === to.el ? `, from one marked point of it to the other` : ` onto the ${endWords(to)}`;
    return { el: from.el, to: to.el === from.el ? undefined : to.el, ends: [from, to], summary: `Drag the ${endWords(from)}${onto}.` };
  },
  move_pointer({ points, press }) {
    if (points.length < 2) throw new PageToolError("move_pointer takes two points or more: where the pointer starts, and where it goes.");
    const ends = points.map((point) => endOf(point, "pointed at"));
    const [first, last] = [ends[0], ends.at(-1)];
    const how = press ? "Press the pointer on" : "Move the pointer from";
    return { el: first.el, ends, summary: `${how} the ${endWords(first)} and ${press ? "drag it" : "move it"} along the ${ends.length} points marked in the picture, to the ${endWords(last)}.` };
  },
  hover({ locator }) {
    const el = actionable(locator, "hovered over");
    return { el, summary: `Move the mouse over the ${describe(el).summary}.` };
  },
  scroll({ to }) {
    const target = scroller();
    const screen = Math.round(target.clientHeight * 0.9);
    const bottom = target.scrollHeight - target.clientHeight;
    const named = { top: [0, "to the top of the page"], bottom: [bottom, "to the bottom of the page"],
      down: [target.scrollTop + screen, "down by one screen"], up: [target.scrollTop - screen, "up by one screen"] };
    if (typeof to === "number") return { target, top: to, summary: `Scroll to ${Math.round(to)} pixels from the top of the page.` };
    if (typeof to === "string" && Object.hasOwn(named, to)) return { target, top: named[to][0], summary: `Scroll ${named[to][1]}.` };
    if (typeof to !== "string") throw new PageToolError('scroll: “to” should be "top", "bottom", "up", "down", a number of pixels, or a locator.');
    const el = locators.findOne(to);
    return { el, summary: `Scroll the ${describe(el).summary} into view.` };
  },
};

// "Click", or "Click and hold for 2 s": a press held a while says how long, in the question.
const pressWords = (verb, seconds) => (seconds ? `${verb} and hold for ${+seconds.toFixed(2)} s` : verb);

// A date, time, number, slider or colour: set to exactly the value the user is shown.
function valuePlan(el, text, submit) {
  const value = checkedValue(el, text);
  const replacing = el.value ? `, in place of ${quoted(el.value)}` : "";
  const form = submit ? el.form || el.closest("form") : null;
  const then = submit ? (form ? `, then submit the form (to ${form.action})` : ", then press Enter") : "";
  return { el, text: value, setsValue: true, url: form ? form.action : null, summary: `Set the ${describe(el).summary} to ${quoted(value)}${replacing}${then}.` };
}

// The element that scrolls the page: the document, or for apps that scroll an inner
// panel instead, the largest scrollable element.
function scroller() {
  const root = document.scrollingElement || document.documentElement;
  if (root.scrollHeight > root.clientHeight + 1) return root;
  let best = root;
  let bestArea = 0;
  for (const el of document.body?.querySelectorAll("*") ?? []) {
    if (el.scrollHeight <= el.clientHeight + 1 || !/auto|scroll|overlay/.test(getComputedStyle(el).overflowY)) continue;
    const area = el.clientWidth * el.clientHeight;
    if (area > bestArea) [best, bestArea] = [el, area];
  }
  return best;
}

function position() {
  const target = scroller();
  const max = Math.max(0, target.scrollHeight - target.clientHeight);
  const y = Math.round(target.scrollTop);
  return { scroll_y: y, max_scroll_y: max, viewport_height: target.clientHeight, at_top: y <= 0, at_bottom: y >= max - 1 };
}

// What describe_action returns, and what each action returns along with its outcome. place:
// the element's place (places.js), worked out already.
function describePlan(name, plan, place = plan.el ? placeOf(plan.el).place : null) {
  const out = { action: name, summary: plan.summary, page_url: location.href };
  if (plan.el) out.element = { locator: locators.locatorFor(plan.el), ...describe(plan.el), place };
  if (plan.text != null) out[plan.setsValue ? "value" : "text"] = plan.text; // a date or a slider is set, not typed
  if (plan.url) out.url = plan.url;
  if (plan.ends) Object.assign(out, pointsOf(plan.ends));
  return out;
}

// What the question shows of a click by position or a drag: each end's point in the top
// viewport (the picture of it is taken there), the site each is on, and an end TabAgent cannot
// act in (a frame of another site), which Python refuses after the site's rule is applied.
function pointsOf(ends) {
  const out = { points: ends.map(({ view }) => ({ x: Math.round(view.x), y: Math.round(view.y) })), sites: ends.map((end) => end.site) };
  if (ends.length > 1) out.target = { locator: locators.locatorFor(ends[1].el), ...describe(ends[1].el) };
  const foreign = ends.find((end) => end.foreign);
  if (foreign) out.out_of_reach = `Nothing was done: that point is on a frame of another site (${foreign.site}), which TabAgent cannot act in.`;
  return out;
}

// The nodes a plan acts on: its element, or the focused element or scroller it found, and
// the options it chose. An action runs only on these very nodes, still in the page.
const nodesOf = (plan) => [plan.el ?? plan.target ?? null, ...(plan.to ? [plan.to] : []), ...(plan.chosen ?? [])];
const sameNodes = (was, now) => was.length === now.length && was.every((node, i) => node === now[i] && (!node || node.isConnected));

// version: the page's stamp when the element's place was worked out (null: not watched, as for a
// place found through a shadow root or a frame, which page-version.js does not watch).
function hold(name, args, plan, described, version) {
  const id = crypto.randomUUID();
  held.set(id, { name, args: JSON.stringify(args), nodes: nodesOf(plan), described: JSON.stringify(described), version });
  while (held.size > HELD_AT_MOST) held.delete(held.keys().next().value);
  return id;
}

// The plan the user confirmed, checked unchanged now: same action and arguments, the same
// nodes (nodesOf: the element itself, still in the page), described in the same words. The
// element's place among its namesakes is worked out again only if the page changed since the
// question (page-version.js): it is a walk over the whole page, most of an action's time.
function confirmedPlan(name, args, planId) {
  const promised = held.get(planId);
  held.delete(planId);
  if (!promised || promised.name !== name || promised.args !== JSON.stringify(args)) {
    throw new PageToolError("Nothing was done: this is not the action the user confirmed (the page was reloaded since, or the action differs).");
  }
  const was = JSON.parse(promised.described);
  let plan;
  try {
    plan = planners[name](args);
  } catch (error) {
    if (!(error instanceof PageToolError)) throw error;
    throw new PageToolError(`Nothing was done: the page changed since the user confirmed “${was.summary}”: ${error.message}`);
  }
  const same = sameNodes(promised.nodes, nodesOf(plan));
  const kept = same && promised.version && pageVersion.unchangedSince(promised.version);
  const now = kept ? describePlan(name, plan, was.element?.place ?? null) : describePlan(name, plan);
  if (!same || JSON.stringify(now) !== promised.described) {
    const what = same ? `it would now be “${now.summary}”` : "the element the user saw has been replaced or moved";
    throw new PageToolError(`Nothing was done: the page changed what the user confirmed. They allowed “${was.summary}”; ${what}.`);
  }
  return { plan, described: now };
}

// The plan to carry out and its description: the one the user confirmed, or a new one.
function planned(name, args, planId) {
  if (planId) return confirmedPlan(name, args, planId);
  const plan = planners[name](args);
  return { plan, described: describePlan(name, plan) };
}

const perform = {
  async click(plan, { duration }) {
    if (duration) await pressAt(plan.el, plan.ends[0].at, { heldMs: held_ms(duration) });
    else click(plan.el);
    return outcome(plan.el.localName === "input" ? plan.el : null);
  },
  type_text(plan, { text, clear, submit }) {
    if (plan.setsValue) return { ...setValue(plan.el, plan.text, submit), submitted: submit };
    typeText(plan.el, text, clear, submit);
    const value = isSecretField(plan.el) ? "•".repeat(currentText(plan.el).length) : currentText(plan.el);
    return { value: truncate(value, 1000).text, submitted: submit };
  },
  select_option(plan) {
    choose(plan.el, plan.chosen);
    return outcome(plan.el);
  },
  check(plan) {
    if (!plan.already) click(plan.el);
    return outcome(plan.el);
  },
  async press_key(plan, { duration }) {
    if (plan.el) inView(plan.el); // a field found by its locator: as a person would reach it
    await holdKey(plan.target, plan.keys, held_ms(duration));
    return outcome(plan.target);
  },
  async click_at(plan, { duration }) {
    reachable(plan);
    if (duration) await pressAt(plan.el, plan.ends[0].at, { heldMs: held_ms(duration) });
    else clickAt(plan.el, plan.ends[0].at);
    return outcome(plan.el.localName === "input" ? plan.el : null);
  },
  async right_click(plan) {
    reachable(plan);
    const menu = watchMenu();
    await pressAt(plan.el, plan.ends[0].at, { button: 2 });
    return { ...outcome(null), menu: menuSeen(menu) };
  },
  async double_click(plan) {
    reachable(plan);
    await pressAt(plan.el, plan.ends[0].at, { count: 2 });
    return outcome(plan.el.localName === "input" ? plan.el : null);
  },
  drag(plan) {
    reachable(plan);
    if (!plan.to) return { ...alongPoints(plan.ends, true), events: "pointer and mouse (down, moves, up)", ...outcome(null) };
    return { ...drag(...plan.ends), ...outcome(null) };
  },
  move_pointer(plan, { press }) {
    reachable(plan);
    alongPoints(plan.ends, press);
    return outcome(null);
  },
  hover(plan) {
    hover(plan.el);
    const note = hoverStyles.hoverNote(hoverStyles.applyHoverStyles(plan.el));
    return { ...outcome(null), ...(note && { hover_styles: note }) };
  },
  scroll(plan) {
    if (plan.el) plan.el.scrollIntoView({ block: "center", behavior: "instant" });
    else plan.target.scrollTo({ top: plan.top, behavior: "instant" });
    return position();
  },
};

const params = {
  click: { locator: arg("string"), duration: arg("number", null) },
  type_text: { locator: arg("string"), text: arg("string"), clear: arg("boolean", true), submit: arg("boolean", false) },
  scroll: { to: arg("any") },
  select_option: { locator: arg("string"), option: arg("any") },
  check: { locator: arg("string"), checked: arg("boolean", true) },
  press_key: { locator: arg("string", null), key: arg("string"), duration: arg("number", null) },
  hover: { locator: arg("string") },
  click_at: { x: arg("number"), y: arg("number"), scroll_x: arg("number", null), scroll_y: arg("number", null), duration: arg("number", null) },
  right_click: { at: arg("object") },
  double_click: { at: arg("object") },
  drag: { source: arg("object"), target: arg("object") },
  move_pointer: { points: arg("array"), press: arg("boolean", false) },
};

// (Python never lets one run, pointsOf says why: this is the last guard.)
function reachable(plan) {
  if (plan.ends.some((end) => end.foreign)) throw new PageToolError(pointsOf(plan.ends).out_of_reach);
}
// A press held longer than this is cut to it: no page needs more of a hand.
const held_ms = (seconds) => Math.min(10_000, Math.max(0, Math.round((seconds ?? 0) * 1000)));

// A plan carried out: by the service worker's real input (the gesture it gives, real-input.js),
// else here. realInput: the service worker gives the input itself; the plan is checked here first.
function carryOut(name, plan, described, args, realInput) {
  if (realInput && plan.ends) reachable(plan);
  const gesture = realInput ? gestureFor(name, plan, args) : null;
  if (gesture) return { ...described, gesture };
  const done = perform[name](plan, args);
  const fallback = realInput || !(INPUT_VERBS.has(name) || args.duration) ? {} : { input: SYNTHETIC };
  return done instanceof Promise ? done.then((out) => ({ ...described, ...out, ...fallback })) : { ...described, ...done, ...fallback };
}

for (const name of Object.keys(planners)) {
  tools[name] = {
    params: params[name],
    // With a plan id (every action the agent does after asking), only what describe_action held.
    run(args, { planId, realInput = false } = {}) {
      const { plan, described } = planned(name, args, planId);
      return carryOut(name, plan, described, args, realInput);
    },
  };
}

// The actions describe_action may carry out in the same call (act_on): those on one element or the
// page, shown to the user in words. A press by position, a drag or a held press is asked with a
// picture of its spot, taken after the question is known, so it is never done at once.
const AT_ONCE = new Set(["click", "type_text", "select_option", "check", "press_key", "hover", "scroll"]);

// act_on: the site (an origin) on which Python's consent service already allows this action without
// asking anyone (a site rule, an allowance the acting actor was given, "*" for a tool a person called
// by hand). The plan just made, checked as every action's plan is (the element visible, enabled,
// uncovered; its role, name and locator read now), is then carried out at once when this page is
// on exactly that site: no second call, and nothing in between for the page to change. On any
// other site, or for an action asked with a picture, it is only described, and Python asks.
function actsAtOnce(name, args, plan, actOn) {
  if (actOn == null || !AT_ONCE.has(name) || plan.ends || args.duration) return false;
  return actOn === "*" || (/^https?:$/.test(location.protocol) && actOn === location.origin);
}

// The actions whose result says when the input was a script's events (pointer-gestures.js).
const INPUT_VERBS = new Set(["right_click", "double_click", "move_pointer"]);

// The service worker, giving a gesture: is the element still the one on top at the point?
tools.input_check = { params: { id: arg("string"), end: arg("number") }, run: (args) => ({ refused: checkGesture(args) }) };
// Then, for what it did (with the last check of a gesture that ends with one: see gestureFor).
tools.input_done = { params: { id: arg("string"), check: arg("number", null) }, run: gestureDone };

// The argument that names the element an action is on (for a step found by its place).
const TARGET = { scroll: "to" };

// at: a saved workflow's recorded place (places.js), found here rather than by a call of its
// own: the element there becomes the action's target, or, when there is not exactly one,
// nothing is described and { not_at_place: { count, there } } says what the page has.
tools.describe_action = {
  params: { name: arg("string"), args: arg("object", null), at: arg("object", null), act_on: arg("string", null) },
  run({ name, args, at, act_on: actOn }, { realInput = false } = {}) {
    if (!Object.hasOwn(planners, name)) {
      throw new PageToolError(`describe_action describes ${Object.keys(planners).join(", ")}; “${name}” is not one of them.`);
    }
    let [actionArgs, recorded] = [args, null];
    if (at) {
      recorded = atPlace(at);
      if (!recorded.el) return { action: name, page_url: location.href, not_at_place: recorded };
      actionArgs = { ...args, [TARGET[name] ?? "locator"]: locators.locatorFor(recorded.el) };
    }
    actionArgs = readArgs(name, params[name], actionArgs);
    const plan = planners[name](actionArgs);
    // (a step found at its place has its place already: the walk is not made twice)
    const found = !plan.el ? { place: null, local: true } : recorded?.el === plan.el ? recorded : placeOf(plan.el);
    const described = describePlan(name, plan, found.place);
    if (actsAtOnce(name, actionArgs, plan, actOn)) {
      const done = carryOut(name, plan, described, actionArgs, realInput);
      return done instanceof Promise ? done.then((out) => ({ ...out, acted: true })) : { ...done, acted: true };
    }
    // (stamped after the element is given its locator: that mark is no change of the page's)
    const version = found.local ? pageVersion.stamp() : null;
    return { ...described, plan_id: hold(name, actionArgs, plan, described, version) };
  },
};
