// Whether the page has changed since a moment: a stamp taken when the user is asked about an
// action, checked when the action runs. While nothing changed, what was worked out from the whole
// page for the question (an element's place among its namesakes, places.js: a walk over every
// element) still holds, and is not worked out again.
//
// A change is any mutation of the document (nodes, attributes, text, TabAgent's own marks too),
// a new size of the window (media rules) or a stylesheet added or adopted. One observer watches
// while stamps are out, and stops at the first change it sees: every stamp before it is then
// stale, and a page that changes all the time costs one record per stamp. What no mutation shows
// (a rule edited through the CSSOM, a shadow root attached) is not seen: the stamp is used only
// for what the question does not show the user; the element acted on is checked again whole.

let observer = null;
let changes = 0;

function changed() {
  changes++;
  observer?.disconnect();
  observer = null;
}

const looks = () => [innerWidth, innerHeight, devicePixelRatio, document.styleSheets.length, document.adoptedStyleSheets?.length ?? 0];

export function stamp() {
  if (observer?.takeRecords().length) changed();
  if (!observer) {
    observer = new MutationObserver(changed);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }
  return { changes, looks: looks().join() };
}

// (takeRecords: mutations made since the last task whose records are not delivered yet.)
export function unchangedSince(stamped) {
  if (observer?.takeRecords().length) changed();
  return Boolean(observer) && stamped?.changes === changes && stamped.looks === looks().join();
}
