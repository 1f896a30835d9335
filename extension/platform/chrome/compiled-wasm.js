// Whether this browser's engine gives a WebAssembly compile the module it compiled already from
// the same bytes, while that module lives (Chrome's version: yes, V8's module cache; measured in
// Chromium 156's extension pages, Pyodide's 9.6 MB: about 460 ms compiled, 110 ms the second time).
// Two compiles of the same bytes under way at once are both made: only a finished one is given.
// Python's worker (offscreen/python/interpreter.js) compiles Pyodide's early only where it is.
export const REUSES_COMPILED_WASM = true;
