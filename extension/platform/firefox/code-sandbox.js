// Whether the code a model writes can run here (Firefox's version of
// extension/platform/chrome/code-sandbox.js): yes, with the same walls as Chrome's sandbox page, built
// from what Firefox 153 ESR has (it has no manifest sandbox pages before 154):
// - the offscreen document frames extension/sandbox/sandbox.html with sandbox="allow-scripts",
//   so the page has an opaque origin: no extension APIs, no IndexedDB or storage of the
//   extension's (where secrets.js keeps the API key);
// - the page carries the manifest's sandbox CSP itself (a <meta>, which adds to the extension
//   pages' policy, whose connect-src alone would let it reach the network), and the worker that
//   runs the code inherits it: no connection, no script from anywhere but the extension;
// - an opaque origin may load an extension file only if it is web accessible, so the sandbox's
//   scripts are (scripts/manifests.py: FIREFOX_SANDBOX_SCRIPTS), and nothing else is.
// The rest is the same code as Chrome's (no-way-out.js, the worker, the host that kills it).
export const WHY_NO_CODE_SANDBOX = "";
