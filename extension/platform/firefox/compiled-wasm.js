// Whether this browser's engine gives a WebAssembly compile the module it compiled already from
// the same bytes (Firefox's version of extension/platform/chrome/compiled-wasm.js): not relied on,
// as not measured in Firefox, where compiling Pyodide's early would then compile it twice.
export const REUSES_COMPILED_WASM = false;
