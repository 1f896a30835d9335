// Puts py/tabagent into a Pyodide running under Node.js, at /src/tabagent, as the build's
// zip puts it into the extension's: for the Pyodide tests and benchmarks.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function copyTree(pyodide, from, to) {
  pyodide.FS.mkdirTree(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.name === "__pycache__") continue;
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) copyTree(pyodide, source, `${to}/${entry.name}`);
    else if (entry.name.endsWith(".py")) pyodide.FS.writeFile(`${to}/${entry.name}`, fs.readFileSync(source));
  }
}

export function installPackage(pyodide) {
  copyTree(pyodide, path.join(ROOT, "py", "tabagent"), "/src/tabagent");
}
