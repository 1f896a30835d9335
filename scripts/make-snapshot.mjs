// Makes Pyodide's memory snapshot at build time, under Node.js, with the standard modules
// the agent needs and tabagent itself already imported. The offscreen document restores it
// instead of booting Python from scratch (about 0.3 s instead of about 2 s, first start
// included). The snapshot is only valid for the exact runtime and package it was made from,
// so a sidecar JSON records both and the offscreen document checks them before using it.
//
// usage: node scripts/make-snapshot.mjs <tabagent.zip> <out.snapshot> <key>

import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";
import { WARM_IMPORTS, PACKAGE_DIR } from "../extension/shared/python/interpreter-setup.js";

const [zipPath, outPath, key] = process.argv.slice(2);
if (!zipPath || !outPath || !key) {
  console.error("usage: node scripts/make-snapshot.mjs <tabagent.zip> <out.snapshot> <key>");
  process.exit(2);
}

const pyodide = await loadPyodide({ _makeSnapshot: true, env: { HOME: "/home/pyodide" } });
pyodide.unpackArchive(new Uint8Array(readFileSync(zipPath)), "zip", { extractDir: PACKAGE_DIR });
pyodide.runPython(`
import os, sys
# Node.js hands its own environment to Python; none of it belongs in the extension.
os.environ.clear()
os.environ.update(HOME="/home/pyodide", LANG="C.UTF-8")
sys.path.insert(0, ${JSON.stringify(PACKAGE_DIR)})
${WARM_IMPORTS}
`);
const snapshot = pyodide.makeMemorySnapshot();
writeFileSync(outPath, snapshot);
writeFileSync(`${outPath}.json`, JSON.stringify({ key, bytes: snapshot.length }) + "\n");
console.log(`snapshot: ${(snapshot.length / 1e6).toFixed(1)} MB for ${key}`);
