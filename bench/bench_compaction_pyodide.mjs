// Time to compact a 200-step conversation inside Pyodide under Node.js: the interpreter
// the extension runs the agent in. Runs bench/bench_compaction.py (the same benchmark as
// in CPython) and prints its Markdown table. Target: under 50 ms.
//
//   node bench/bench_compaction_pyodide.mjs [--runs 30] [--steps 200]

import { loadPyodide } from "pyodide";
import fs from "node:fs";
import path from "node:path";
import { ROOT as root, installPackage } from "../scripts/pyodide-package.mjs";

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const pyodide = await loadPyodide();
installPackage(pyodide);
pyodide.FS.writeFile("/src/bench_compaction.py", fs.readFileSync(path.join(root, "bench", "bench_compaction.py")));
const version = pyodide.version;
await pyodide.runPythonAsync(`
import sys
sys.path.insert(0, "/src")
import bench_compaction
bench_compaction.main(${option("--runs", 30)}, ${option("--steps", 200)},
                      f"Pyodide ${version} (Python {sys.version.split()[0]}) on Node.js ${process.versions.node}")
`);
