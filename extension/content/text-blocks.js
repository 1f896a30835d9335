// The innermost blocks of text under an element: those matching a selector that hold text and
// no block (of another selector) that holds text. main-content.js's rules ask for them again
// after each change to the reading. Asking each block's textContent, and then each block
// inside it, reads the page's text once per level of nesting (a third of read_page's time on
// a long article); here every element is visited once, from the leaves up.
(() => {
  const page = (globalThis.TabAgentPage ??= {});

  // Elements under `root` (not root) matching `selector` whose text is not all whitespace
  // and which hold no element matching `inside` with such text; in document order.
  function innermostWithText(root, selector, inside) {
    const elements = [...root.querySelectorAll("*")];
    const withText = new Set();
    const holdsBlock = new Set();
    for (let i = elements.length - 1; i >= 0; i--) { // children before their parents
      const el = elements[i];
      let text = false;
      let block = false;
      for (let child = el.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === Node.TEXT_NODE || child.nodeType === Node.CDATA_SECTION_NODE) text ||= /\S/.test(child.data);
        else if (withText.has(child)) {
          text = true;
          block ||= holdsBlock.has(child) || child.matches(inside);
        }
      }
      if (text) withText.add(el);
      if (block) holdsBlock.add(el);
    }
    return elements.filter((el) => withText.has(el) && !holdsBlock.has(el) && el.matches(selector));
  }

  page.textBlocks = { innermostWithText };
})();
