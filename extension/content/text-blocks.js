// The innermost blocks of text under an element: those that hold text and no other block that
// holds text. main-content-cleaning.js's rules ask for them again after each change to the reading
// (and after each rule that changed nothing: then the last answer is given again).
// Asking each block's textContent, and then each block inside it, read the page's text once
// per level of nesting; here each piece of text is visited once and finds its own block.
const TEXT = NodeFilter.SHOW_TEXT | NodeFilter.SHOW_CDATA_SECTION;

// The elements under `root` (not root) matching `kinds` whose text is not all whitespace and
// which hold no element matching `blocks` with such text; in document order. Every `kinds`
// element must be a `blocks` one too: such an element qualifies when it is the nearest block
// of every piece of text under it.
function innermostWithText(root, kinds, blocks) {
  // (Only in a copy of the page: on the live page, the page's own changes would pile up.)
  if (root.ownerDocument.defaultView) return innermostOf(root, kinds, blocks);
  return [...remembered(root, kinds, blocks)];
}

// read_page's line rules ask again after each rule, and most rules change nothing: the
// blocks found under a root are kept until anything under it changes (its mutations, taken
// at each ask, say so). A copy of the list is handed out: callers reverse it.
// (Records handed to the callback, should a task end between two asks, count as changes too.)
const found = new WeakMap(); // root -> {kinds, blocks, watch, list, changed}
function remembered(root, kinds, blocks) {
  const last = found.get(root);
  if (last && last.kinds === kinds && last.blocks === blocks && !last.watch.takeRecords().length && !last.changed) return last.list;
  last?.watch.disconnect();
  const entry = { kinds, blocks, list: innermostOf(root, kinds, blocks), changed: false };
  entry.watch = new MutationObserver(() => { entry.changed = true; });
  entry.watch.observe(root, { childList: true, characterData: true, subtree: true });
  found.set(root, entry);
  return entry.list;
}

function innermostOf(root, kinds, blocks) {
  const owners = [];
  const holdsBlock = new Set();
  const blockOf = nearestBlock(root, blocks);
  const isKind = matcher(kinds);
  const walker = root.ownerDocument.createTreeWalker(root, TEXT);
  let last = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!/\S/.test(node.data)) continue;
    const block = blockOf(node.parentElement);
    if (!block || block === last) continue;
    last = block;
    owners.push(block);
    for (let up = block.parentElement; up && up !== root && !holdsBlock.has(up); up = up.parentElement) holdsBlock.add(up);
  }
  // (An owner met again after a block inside it holds that block, and so is left out.)
  return [...new Set(owners)].filter((el) => !holdsBlock.has(el) && isKind(el));
}

// The nearest `blocks` element around an element (itself included) below `root`, or null:
// closest() for each piece of text asked every ancestor again for each link and emphasis in a
// paragraph; here each element is matched once per call.
function nearestBlock(root, blocks) {
  const found = new Map();
  const isBlock = matcher(blocks);
  const blockOf = (el) => {
    if (!el || el === root) return null;
    if (!found.has(el)) found.set(el, isBlock(el) ? el : blockOf(el.parentElement));
    return found.get(el);
  };
  return blockOf;
}

// A test for `selector`: a list of tag names is looked up by the element's name, which for
// the thousands of elements of a page costs less than matching the selector on each.
const TAG_LIST = /^\s*[a-z][a-z0-9]*(\s*,\s*[a-z][a-z0-9]*)*\s*$/;
function matcher(selector) {
  if (!TAG_LIST.test(selector)) return (el) => el.matches(selector);
  const tags = new Set(selector.split(",").map((tag) => tag.trim()));
  return (el) => tags.has(el.localName);
}

export { innermostWithText };
