// Locators: how one tool's result points at an element that another tool then acts on.
//
// A locator is a short string "ta-<n>". Tools that return elements (find_in_page,
// query_page, list_links, extract_tables, get_selection) give each one; the element is
// marked with the attribute data-tabagent-id="ta-<n>", so the same element keeps the same
// locator across calls, and the locator also works inside a CSS selector:
// [data-tabagent-id="ta-3"]. If the page redraws the element (the attribute is lost), the
// locator is found again from the CSS path and text remembered when it was given out.
//
// Wherever a tool takes a locator or a selector it accepts either form: "ta-<n>" or any CSS
// selector (matched in the page and its same-origin frames, first match for one element).
(() => {
  const page = (globalThis.TabAgentPage ??= {});
  const ATTR = "data-tabagent-id";
  const LOCATOR = /^ta-\d+$/;
  // Per-world memory: survives between calls while the tab stays on the same document.
  const state = (page.locatorState ??= { next: 0, remembered: new Map() });
  // The element each locator was given to, held weakly: a page that writes the same
  // attribute on another element (a decoy "Delete" button) does not take the locator over.
  state.given ??= new Map(); // id -> WeakRef(element)

  // A CSS path from the document root (or the nearest ancestor with a unique id).
  function cssPath(el) {
    const parts = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && node.ownerDocument.querySelectorAll(`#${CSS.escape(node.id)}`).length === 1) {
        parts.unshift(`#${CSS.escape(node.id)}`);
        break;
      }
      const sameTag = node.parentElement ? [...node.parentElement.children].filter((c) => c.localName === node.localName) : [];
      const index = sameTag.length > 1 ? `:nth-of-type(${sameTag.indexOf(node) + 1})` : "";
      parts.unshift(CSS.escape(node.localName) + index);
    }
    return parts.join(" > ");
  }

  const textHint = (el) => page.squash(el.textContent).slice(0, 60);

  function locatorFor(el) {
    let id = el.getAttribute(ATTR);
    if (!id || !LOCATOR.test(id)) {
      // Start after any id already in the page: a fresh injection (extension reloaded)
      // must not hand out a locator that already names another element.
      if (state.next === 0) state.next = highestIdInPage();
      id = `ta-${++state.next}`;
      el.setAttribute(ATTR, id);
    }
    const frames = [];
    for (let doc = el.ownerDocument; doc.defaultView?.frameElement; ) {
      const frame = doc.defaultView.frameElement;
      frames.unshift(cssPath(frame));
      doc = frame.ownerDocument;
    }
    state.remembered.set(id, { frames, path: cssPath(el), text: textHint(el) });
    state.given.set(id, new WeakRef(el));
    return id;
  }

  function highestIdInPage() {
    let max = 0;
    for (const el of page.frames.queryAll(`[${ATTR}]`)) {
      max = Math.max(max, Number(el.getAttribute(ATTR).slice(3)) || 0);
    }
    return max;
  }

  // The element a redrawn locator most likely meant: same path, same text.
  function rediscover(id) {
    const memory = state.remembered.get(id);
    if (!memory) return null;
    let doc = document;
    for (const framePath of memory.frames) {
      doc = page.frames.frameDocument(doc.querySelector(framePath) || {});
      if (!doc) return null;
    }
    const el = doc.querySelector(memory.path);
    if (!el || textHint(el) !== memory.text) return null;
    el.setAttribute(ATTR, id);
    return el;
  }

  // The first element matching `selector` inside an open shadow root, at any depth.
  function inShadowRoots(selector) {
    for (const doc of page.frames.allDocuments()) {
      const hosts = [...doc.querySelectorAll("*")].filter((el) => el.shadowRoot);
      while (hosts.length) {
        const root = hosts.shift().shadowRoot;
        const match = root.querySelector(selector);
        if (match) return match;
        hosts.push(...[...root.querySelectorAll("*")].filter((el) => el.shadowRoot));
      }
    }
    return null;
  }

  // Every element a locator or CSS selector names, across the page and its frames.
  function findAll(target) {
    if (typeof target !== "string" || !target.trim()) {
      throw new page.PageToolError("Give a locator (like “ta-12”, from an earlier result) or a CSS selector.");
    }
    target = target.trim();
    if (LOCATOR.test(target)) {
      const given = state.given.get(target)?.deref();
      if (given?.isConnected && given.getAttribute(ATTR) === target) return [given];
      const found = page.frames.queryAll(`[${ATTR}="${target}"]`);
      if (found.length) return found.slice(0, 1);
      const inShadow = inShadowRoots(`[${ATTR}="${target}"]`); // list_controls reaches into web components
      if (inShadow) return [inShadow];
      const again = rediscover(target);
      if (again) return [again];
      throw new page.PageToolError(
        `The element ${target} is no longer on the page (it may have been redrawn or the page changed); ` +
          "use find_in_page or query_page again to get a fresh locator.");
    }
    try {
      return page.frames.queryAll(target);
    } catch {
      throw new page.PageToolError(`“${target}” is neither a locator (like “ta-12”) nor a valid CSS selector.`);
    }
  }

  function findOne(target) {
    const [el] = findAll(target);
    if (!el) throw new page.PageToolError(`Nothing on the page matches “${target}”.`);
    return el;
  }

  page.locators = { ATTR, locatorFor, findAll, findOne, cssPath };
})();
