// wait_for: until a text or an element appears on the page (or, with gone, disappears), or
// the time runs out, the way a person waits for what a click started (a result list, a
// message, a dialog). The page being loaded is waited for before any tool runs
// (background/page-access.js: settled); this waits for what the page does after.

import { PAGE_TOOL_DEFAULTS } from "../shared/wire.js";
import { isVisible } from "./element-words.js";
import { squash, truncate } from "./snippets.js";
import { PageToolError, clamp, arg } from "./tool-arguments.js";
import * as locators from "./locators.js";

export const tools = {};

const LONGEST_MS = PAGE_TOOL_DEFAULTS.wait_for.longest_ms;
const POLL_MS = 100;

function present({ text, locator }) {
  if (text) return squash(document.body?.innerText ?? "").toLowerCase().includes(squash(text).toLowerCase());
  try {
    return locators.findAll(locator).some((el) => isVisible(el));
  } catch (error) {
    if (error instanceof PageToolError) return false; // not there (yet)
    throw error;
  }
}

tools.wait_for = {
  params: { text: arg("string", null), locator: arg("string", null), gone: arg("boolean", false),
    timeout_ms: arg("number", PAGE_TOOL_DEFAULTS.wait_for.timeout_ms) },
  run({ text, locator, gone, timeout_ms }) {
    if (!text === !locator) throw new PageToolError("wait_for waits for one thing: give either text or locator.");
    const limit = clamp(timeout_ms, 0, LONGEST_MS);
    const what = text ? `the text “${truncate(text, 80).text}”` : `an element matching “${locator}”`;
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const check = () => {
        const done = present({ text, locator }) !== gone;
        const waited = Math.round(performance.now() - started);
        if (done || waited >= limit) {
          observer.disconnect();
          clearInterval(timer);
          if (done) resolve({ [gone ? "gone" : "found"]: true, waited_ms: waited, url: location.href });
          else reject(new PageToolError(`${what[0].toUpperCase()}${what.slice(1)} did ${gone ? "not go away" : "not appear"} within ${limit / 1000} s.`));
        }
      };
      const observer = new MutationObserver(check);
      observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true, attributes: true });
      const timer = setInterval(check, POLL_MS);
      check();
    });
  },
};
