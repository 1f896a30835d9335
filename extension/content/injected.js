// What the service worker injects into a tab: the one file esbuild makes of this module and
// every module it imports (scripts/build.py writes it to extension/vendor/injected.js), run in
// the extension's isolated world of the tab's top frame, which the page cannot see.
//
// It leaves one object there, globalThis.TabAgentPage, for the service worker's calls
// (background/page-tool-relay.js): run(name, args, options) and the locators' numbering.
// The modules themselves share nothing through it. Injected again into the same document
// (two calls that both found the tools missing), the first object stays, with the locators
// it has given and the actions it holds for the user's consent.

import { continueAfter, lastGiven } from "./locators.js";
import { run } from "./page-tools.js";

globalThis.TabAgentPage ??= Object.freeze({ run, locators: Object.freeze({ continueAfter, lastGiven }) });
