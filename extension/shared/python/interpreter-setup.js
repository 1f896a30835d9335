// What a ready interpreter has: shared by the offscreen document and by the build, which
// makes the memory snapshot under Node.js (so this file must not touch browser APIs).

export const PACKAGE_DIR = "/home/pyodide/tabagent-src";

// Modules the agent needs on every turn: imported before the snapshot is taken, so a
// restored interpreter has them already.
export const WARM_IMPORTS = "import asyncio, json, re, ast, inspect, dataclasses, typing, traceback, tabagent, tabagent.app.json_entry_points";
