// The innermost blocks of text under an element: those that hold text and no other block that
// holds text. main-content.js's rules ask for them again after each change to the reading.
// Asking each block's textContent, and then each block inside it, read the page's text once
// per level of nesting; here each piece of text is visited once and finds its own block.
(() => {
  const page = (globalThis.TabAgentPage ??= {});
  const TEXT = NodeFilter.SHOW_TEXT | NodeFilter.SHOW_CDATA_SECTION;

  // The elements under `root` (not root) matching `kinds` whose text is not all whitespace and
  // which hold no element matching `blocks` with such text; in document order. Every `kinds`
  // element must be a `blocks` one too: such an element qualifies when it is the nearest block
  // of every piece of text under it.
  function innermostWithText(root, kinds, blocks) {
    const owners = [];
    const holdsBlock = new Set();
    const blockOf = nearestBlock(root, blocks);
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
    return [...new Set(owners)].filter((el) => !holdsBlock.has(el) && el.matches(kinds));
  }

  // The nearest `blocks` element around an element (itself included) below `root`, or null:
  // closest() for each piece of text asked every ancestor again for each link and emphasis in a
  // paragraph; here each element is matched once per call.
  function nearestBlock(root, blocks) {
    const found = new Map();
    const blockOf = (el) => {
      if (!el || el === root) return null;
      if (!found.has(el)) found.set(el, el.matches(blocks) ? el : blockOf(el.parentElement));
      return found.get(el);
    };
    return blockOf;
  }

  page.textBlocks = { innermostWithText };
})();
