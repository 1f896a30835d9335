// wait_for: until a text or an element appears on the page (or, with gone, disappears), or
// the time runs out, the way a person waits for what a click started (a result list, a
// message, a dialog). The page being loaded is waited for before any tool runs
// (background/page-access.js: settled); this waits for what the page does after.
(() => {
  const page = (globalThis.TabAgentPage ??= {});
  const LONGEST_MS = page.DEFAULTS.wait_for.longest_ms;
  const POLL_MS = 100;

  function present({ text, locator }) {
    if (text) return page.squash(document.body?.innerText ?? "").toLowerCase().includes(page.squash(text).toLowerCase());
    try {
      return page.locators.findAll(locator).some((el) => page.isVisible(el));
    } catch (error) {
      if (error instanceof page.PageToolError) return false; // not there (yet)
      throw error;
    }
  }

  page.tools.wait_for = {
    params: { text: page.arg("string", null), locator: page.arg("string", null), gone: page.arg("boolean", false),
      timeout_ms: page.arg("number", page.DEFAULTS.wait_for.timeout_ms) },
    run({ text, locator, gone, timeout_ms }) {
      if (!text === !locator) throw new page.PageToolError("wait_for waits for one thing: give either text or locator.");
      const limit = page.clamp(timeout_ms, 0, LONGEST_MS);
      const what = text ? `the text “${page.truncate(text, 80).text}”` : `an element matching “${locator}”`;
      const started = performance.now();
      return new Promise((resolve, reject) => {
        const check = () => {
          const done = present({ text, locator }) !== gone;
          const waited = Math.round(performance.now() - started);
          if (done || waited >= limit) {
            observer.disconnect();
            clearInterval(timer);
            if (done) resolve({ [gone ? "gone" : "found"]: true, waited_ms: waited, url: location.href });
            else reject(new page.PageToolError(`${what[0].toUpperCase()}${what.slice(1)} did ${gone ? "not go away" : "not appear"} within ${limit / 1000} s.`));
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true, attributes: true });
        const timer = setInterval(check, POLL_MS);
        check();
      });
    },
  };
})();
