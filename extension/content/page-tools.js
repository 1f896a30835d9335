// The page tools' entry point: globalThis.TabAgentPage.run(name, args).
//
// Loading: classic scripts (no modules, no bundler), injected by the service worker with
// chrome.scripting.executeScript({files}) into the tab's top frame, in this order, which
// files.json (beside this file) lists for the service worker to read:
//   vendor/readability/Readability.js   Mozilla Readability (defines Readability)
//   vendor/turndown/turndown.js         turndown (defines TurndownService)
//   common.js      errors, caps, argument checking, describing elements
//   tool-defaults.js  the tools' defaults, generated from py/tabagent/app/wire.py (as Python's)
//   sight.js       what a reader sees: shown elements, text no one can read
//   frames.js      same-origin iframes: all documents, copies with frames inlined
//   locators.js    "ta-<n>" locators and CSS selectors -> elements
//   tables.js      table grid (colspan/rowspan) and extract_tables
//   html-to-markdown.js  HTML -> Markdown (turndown + table/pre/link/image rules)
//   text-blocks.js   the innermost blocks of text under an element, in one pass
//   lexicon.js     the words and phrases of boilerplate, per kind of page and language
//   content-quality.js  how much a part of the page reads as text (prose against chrome)
//   result-list.js  a list of results: titles that are links, each with a snippet of prose
//   main-content.js  the page's main content (boilerplate removed, Readability, markers)
//   pagination.js  read_page's Markdown cut into pages of a budget
//   read-page.js   read_page
//   selection.js   get_selection
//   search.js      find_in_page
//   query.js       query_page, list_links, page_html
//   controls.js    list_controls: the page's controls, with locators
//   gestures.js    what a person's hand does: the events of a click, a key, typing, choosing
//   hover-styles.js  the page's own :hover rules, applied where hover rests (CSS-only menus)
//   actions.js     click, type_text, select_option, check, press_key, hover, scroll, describe_action
//   waiting.js     wait_for: a text or an element appearing (or going)
//   screenshot-layout.js  where the element and the controls are, for a screenshot
//   page-tools.js  this file: run()
// Injecting the files again is harmless: each one only (re)defines its part of
// globalThis.TabAgentPage; the little state kept between calls (locators) is reused.
//
// run() never throws: it returns {ok: true, result} with a JSON-able result, or
// {ok: false, error} with a sentence a person understands (a promise of one, for wait_for).
(() => {
  const page = (globalThis.TabAgentPage ??= {});

  // options.planId: for an action, the plan describe_action held for the user's consent.
  page.run = function run(name, args, options = {}) {
    const tool = Object.hasOwn(page.tools, name) ? page.tools[name] : null;
    if (!tool) {
      return { ok: false, error: `There is no page tool named “${name}”; the page tools are: ${Object.keys(page.tools).join(", ")}.` };
    }
    const failed = (error) => (error instanceof page.PageToolError
      ? { ok: false, error: error.message } : { ok: false, error: `${name} failed on this page: ${error?.message || error}` });
    try {
      const result = tool.run(page.readArgs(name, tool.params, args), options);
      // A tool that waits (wait_for) answers later: executeScript waits for the promise.
      if (result instanceof Promise) return result.then((value) => ({ ok: true, result: value }), failed);
      return { ok: true, result };
    } catch (error) {
      return failed(error);
    }
  };
})();
