// Per-step overhead of the agent loop inside Pyodide under Node.js: the interpreter
// the extension runs the agent in. Runs bench/bench_loop.py (the same benchmark as
// in CPython) and prints its Markdown table. Target: under 2 ms per step.
//
//   node bench/bench_loop_pyodide.mjs [--runs 200] [--steps 10]

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
pyodide.FS.writeFile("/src/bench_loop.py", fs.readFileSync(path.join(root, "bench", "bench_loop.py")));
const version = pyodide.version;
await pyodide.runPythonAsync(`
import sys
sys.path.insert(0, "/src")
import bench_loop
await bench_loop.main_async(${option("--runs", 200)}, ${option("--steps", 10)},
                            f"Pyodide ${version} (Python {sys.version.split()[0]}) on Node.js ${process.versions.node}")
`);
