// Same-origin iframes are part of "the page" for every reading tool. The content script is
// injected into the top frame only; it reaches same-origin frames through contentDocument
// (cross-origin frames return null there and are skipped: the browser would not let us in).

import * as visibility from "./visibility.js";
import { hideSecrets, takeOutSecrets } from "./secret-fields.js";

const MAX_FRAMES = 50;
const MAX_DEPTH = 5;
const OPTION = new Set(["option", "optgroup"]); // (what goes with its <select> or <datalist>)
const MEDIA = "img, picture, video, audio, canvas, iframe, frame, object, embed, math"; // an <svg> is an icon

function frameDocument(frame) {
  try {
    return frame.contentDocument || null;
  } catch {
    return null;
  }
}

// The top document followed by every reachable same-origin frame document, depth-first.
function allDocuments(root = document) {
  const docs = [];
  const visit = (doc, depth) => {
    if (docs.length >= MAX_FRAMES) return;
    docs.push(doc);
    if (depth >= MAX_DEPTH) return;
    for (const frame of doc.querySelectorAll("iframe, frame")) {
      const inner = frameDocument(frame);
      if (inner?.documentElement) visit(inner, depth + 1);
    }
  };
  visit(root, 0);
  return docs;
}

// querySelectorAll over the page and its same-origin frames, as one list.
function queryAll(selector) {
  const found = [];
  for (const doc of allDocuments()) found.push(...doc.querySelectorAll(selector));
  return found;
}

// What a web component shows (its open shadow root, with the page's elements in its slots)
// put in the copy in place of the host's children, which cloneNode alone would leave bare.
// One level deep: a component inside a component keeps its light children only.
// A live node copied into `doc`, what its password fields hold taken out (secret-fields.js).
function copied(node, doc) {
  const copy = doc.importNode(node, true);
  if (node.nodeType === 1) hideSecrets(node, copy);
  return copy;
}

function inlineShadow(host, placeholder) {
  const rendered = [...host.shadowRoot.childNodes].map((node) => placeholder.ownerDocument.importNode(node, true));
  const box = placeholder.ownerDocument.createElement("div");
  box.append(...rendered);
  hideSecrets(host.shadowRoot, box);
  const liveSlots = host.shadowRoot.querySelectorAll("slot");
  const copiedSlots = box.querySelectorAll("slot");
  for (let i = 0; i < liveSlots.length && i < copiedSlots.length; i++) {
    const assigned = liveSlots[i].assignedNodes({ flatten: true });
    if (assigned.length) copiedSlots[i].replaceWith(...assigned.map((node) => copied(node, placeholder.ownerDocument)));
  }
  placeholder.replaceChildren(...box.childNodes);
}

// A detached copy of `doc` in which each same-origin iframe is replaced by a <div> holding
// a copy of the frame's body, so tools that work on a copy (Readability mutates what it is
// given) see the frame's text where the frame sits on the page.
// With dropHidden, elements the user cannot see (display:none, visibility:hidden) are left
// out, and web components show their shadow content; with keepWaiting too, hidden content
// waiting for the page's scripts stays, shown, but not what hides itself inside it
// (visibility.js); with dropUnseen, text no one can read is left out (visibility.js); with
// keepOptions, a drop-down list shown keeps its options, which have no box of their own while it
// is closed (so that its chosen one can be read). All need the live page, so they are done while
// live and copy still match 1:1.
function cloneWithFrames(doc, { dropHidden = false, keepWaiting = false, dropUnseen = false, keepOptions = false, depth = 0 } = {}) {
  const copy = doc.cloneNode(true);
  hideSecrets(doc, copy); // (first: it pairs live and copy by order, as the passes below do)
  const look = visibility.look(doc); // (one reading of styles for both passes)
  const unseen = dropUnseen && doc.body ? unseenTextIn(look, doc.body, copy.body) : [];
  // cloneNode copies the tree exactly, so the n-th match in one is the n-th in the other.
  // Only the body's elements: <head> is never "visible", and its <title> and <meta> carry
  // the page's metadata.
  const selector = dropHidden ? "body *, frame" : "iframe, frame";
  const live = doc.querySelectorAll(selector);
  const copied = copy.querySelectorAll(selector);
  const hidden = [];
  const frames = [];
  const hosts = [];
  let hiddenLive = null; // the last hidden element: what is inside it goes with it, unasked
  let waitingLive = null; // the last hidden element kept: what is inside it is shown with it
  for (let i = 0; i < live.length; i++) {
    const el = live[i];
    if (hiddenLive?.contains(el) || (keepOptions && OPTION.has(el.localName))) continue;
    const inWaiting = waitingLive?.contains(el);
    if (dropHidden && keepWaiting && !inWaiting && look.waitsForScripts(el)) {
      waitingLive = el;
      shown(copied[i]);
    } else if (dropHidden && (inWaiting ? look.hidesItself(el) : !look.isShown(el))) {
      hidden.push(copied[i]);
      hiddenLive = el;
      continue;
    }
    // Shown while hidden by its own style: waiting to be revealed (visibility.js). What reads
    // the copy takes an inline visibility:hidden as gone. (`el.style` makes a declaration
    // object for every element asked: only those with a style attribute are.)
    if (dropHidden && el.hasAttribute("style") && el.style?.visibility === "hidden") copied[i].style.removeProperty("visibility");
    if (el.localName === "iframe" || el.localName === "frame") frames.push([el, copied[i]]);
    else if (el.shadowRoot) hosts.push([el, copied[i]]);
  }
  for (const [host, placeholder] of hosts) inlineShadow(host, placeholder);
  for (const [frame, placeholder] of frames) {
    const inner = frameDocument(frame);
    if (depth >= MAX_DEPTH || !inner?.body) continue;
    const innerCopy = cloneWithFrames(inner, { dropHidden, keepWaiting, dropUnseen, keepOptions, depth: depth + 1 });
    const box = copy.createElement("div");
    box.setAttribute("data-tabagent-frame", inner.URL);
    box.append(...innerCopy.body.childNodes);
    placeholder.replaceWith(box);
  }
  for (const el of hidden) el.remove();
  for (const text of unseen) leaveOut(text);
  takeOutSecrets(copy);
  // Folded content is read as shown (what reads the copy takes [hidden] as gone).
  if (dropHidden) for (const el of copy.querySelectorAll('[hidden="until-found" i]')) el.removeAttribute("hidden");
  return copy;
}

// The copy of what waits for scripts, shown: what reads the copy takes an inline display:none, an inline
// visibility:hidden or [hidden] as gone.
function shown(copied) {
  copied.removeAttribute("hidden");
  copied.style?.removeProperty("display");
  copied.style?.removeProperty("visibility");
}

// The copy's text nodes that no one can read on the live page (they pair in document order).
function unseenTextIn(look, liveBody, copiedBody) {
  const unseen = look.unseenText(liveBody);
  const found = [];
  if (!unseen.size) return found;
  const live = liveBody.ownerDocument.createTreeWalker(liveBody, NodeFilter.SHOW_TEXT);
  const copied = copiedBody.ownerDocument.createTreeWalker(copiedBody, NodeFilter.SHOW_TEXT);
  for (let node = live.nextNode(), copy = copied.nextNode(); node && copy; node = live.nextNode(), copy = copied.nextNode()) {
    if (unseen.has(node)) found.push(copy);
  }
  return found;
}

// A text node and the elements around it that it alone filled (a list item, a heading).
function leaveOut(text) {
  let gone = text;
  while (gone.parentElement && gone.parentElement.localName !== "body"
    && !/\S/.test(gone.parentElement.textContent.replace(gone.textContent, ""))
    && !gone.parentElement.querySelector(MEDIA)) gone = gone.parentElement;
  gone.remove();
}

export { frameDocument, allDocuments, queryAll, cloneWithFrames };
