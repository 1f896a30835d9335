// Where a control is, in words that outlive the page's numbering: its role and accessible
// name, the landmark or form it sits in (with that one's name), and which of the controls of
// the same role and name it is there. A saved workflow (py/tabagent/app/workflow_steps.py)
// records this place for each step it acts on, and finds the control again by it
// (find_control) when it replays: never by the turn's "ta-<n>" locators, which a page renumbers.

import { hasRole, nameOf, roleOf } from "./element-words.js";
import { squash, truncate } from "./snippets.js";
import { arg } from "./tool-arguments.js";
import { controls } from "./controls.js";
import * as locators from "./locators.js";

export const tools = {};

// Landmark roles, and the elements that have one without saying so.
const IMPLICIT = { main: "main", nav: "navigation", aside: "complementary", form: "form", dialog: "dialog", search: "search" };
const LANDMARKS = new Set([...Object.values(IMPLICIT), "banner", "contentinfo", "region"]);

function landmarkOf(el) {
  for (let up = el.parentElement; up; up = up.parentElement) {
    const role = up.getAttribute("role") || IMPLICIT[up.localName];
    if (role && LANDMARKS.has(role)) return { node: up, role };
  }
  return { node: null, role: "" };
}

// A landmark's name: its label, else its heading, else its id or name.
function landmarkName(node) {
  if (!node) return "";
  const labelledBy = (node.getAttribute("aria-labelledby") || "").split(/\s+/)
    .map((id) => id && node.ownerDocument.getElementById(id)?.textContent).filter(Boolean).join(" ");
  const heading = node.querySelector("h1, h2, h3, h4, h5, h6, legend")?.textContent;
  const name = [node.getAttribute("aria-label"), labelledBy, heading, node.id, node.getAttribute("name")].map(squash).find(Boolean);
  return truncate(name || "", 80).text;
}

const sameLandmark = (a, b) => a.role === b.role && a.name === b.name;

// Every visible control with this role and name, each with its place on the page. Only the
// elements of that role (hasRole: from their markup, for all but a few) are named, and only those
// of that name are looked at further, so an action on a page of thousands of controls does not lay
// them all out.
// reach.local: set false when the walk went into a shadow root or a frame (see placeOf).
function placesOf(role, name, reach = {}) {
  reach.local = true;
  const ofRole = hasRole(role);
  const same = controls(document.documentElement, (el) => ofRole(el) && nameOf(el) === name, reach);
  const landmarks = same.map((el) => {
    const { node, role: landmark } = landmarkOf(el);
    return { role: landmark, name: landmarkName(node) };
  });
  return same.map((el, i) => {
    const mates = landmarks.filter((other) => sameLandmark(other, landmarks[i]));
    const nth = landmarks.slice(0, i + 1).filter((other) => sameLandmark(other, landmarks[i])).length;
    return { el, role, name, landmark: landmarks[i].role, landmark_name: landmarks[i].name, nth, of: mates.length, count: same.length };
  });
}

// The place of one element, as a workflow records it (its locator left out), and `local`: the
// walk for it stayed in this document (no shadow root, no frame), so that only a change of this
// document can change it (page-version.js watches the document alone).
export function placeOf(el) {
  const [role, name] = [roleOf(el), nameOf(el)];
  const reach = {};
  const found = placesOf(role, name, reach).find((place) => place.el === el);
  if (!found) return { place: { role, name, landmark: landmarkOf(el).role, landmark_name: landmarkName(landmarkOf(el).node), nth: 0, of: 0, count: 0 }, local: reach.local };
  const { el: _, ...place } = found;
  return { place, local: reach.local };
}

// The one element at a recorded place (a workflow's step), found as find_control finds it:
// { el, place, local } when exactly one control of that role and name is there and the page has
// as many of them as when it was saved (its place and reach as placeOf gives them: the walk is not
// made again for the action on it), else { count, there } (how many of them, how many at that
// place) for the replay to say why it stops.
const PLACE_KEYS = ["role", "name", "landmark", "landmark_name", "nth", "of", "count"];
export function atPlace(place) {
  const reach = {};
  const found = placesOf(place.role, place.name, reach);
  const there = found.filter((c) => PLACE_KEYS.every((key) => c[key] === place[key]));
  if (found.length !== place.count || there.length !== 1) return { count: found.length, there: there.length };
  const { el, ...itsPlace } = there[0];
  return { el, place: itsPlace, local: reach.local };
}

tools.find_control = {
  params: { role: arg("string"), name: arg("string") },
  run({ role, name }) {
    const found = placesOf(role, name);
    return { url: location.href, count: found.length, candidates: found.map(({ el, ...place }) => ({ locator: locators.locatorFor(el), ...place })) };
  },
};
