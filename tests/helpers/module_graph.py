"""A page's static module graph, as its browser loads it before the page's modules run: every
import-statement followed from an entry module, dynamic imports (import()) left out and listed
apart. The graph is esbuild's (pinned in package.json), read from its metafile in Node.js.

Used by the tests that keep rarely needed code out of a page's start (tests/unit/test_*_start_graph.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Prints {"static": [paths], "dynamic": [paths], "bytes": {path: size}}: the modules the entry's
# static imports reach, those reached only through a dynamic import() somewhere in that graph,
# and each module's size.
GRAPH = r"""
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { relative, resolve } from "node:path";
const [entry, packageJson] = process.argv.slice(1);
const esbuild = createRequire(packageJson)("esbuild");
// What the build vendors (extension/vendor/) may not be there yet: such a module is kept in the
// graph by its path, unread.
const notBuilt = { name: "not-built", setup(build) {
  build.onResolve({ filter: /^\.{1,2}\// }, (args) => {
    const path = resolve(args.resolveDir, args.path);
    return existsSync(path) ? undefined : { path: relative(process.cwd(), path), external: true };
  });
} };
const { metafile } = await esbuild.build({
  entryPoints: [entry], bundle: true, write: false, metafile: true, format: "esm", splitting: true,
  outdir: "graph-out", platform: "browser", logLevel: "silent", absWorkingDir: process.cwd(), plugins: [notBuilt],
});
const reached = new Set(), dynamic = new Set(), waiting = [entry];
while (waiting.length) {
  const path = waiting.pop();
  if (reached.has(path)) continue;
  reached.add(path);
  for (const imported of metafile.inputs[path]?.imports ?? []) {
    if (imported.kind === "import-statement") waiting.push(imported.path);
    else if (imported.kind === "dynamic-import") dynamic.add(imported.path);
  }
}
const bytes = Object.fromEntries([...reached].map((path) => [path, metafile.inputs[path]?.bytes ?? 0]));
console.log(JSON.stringify({ static: [...reached], dynamic: [...dynamic].filter((p) => !reached.has(p)), bytes }));
"""


def module_graph(entry: Path, cwd: Path = ROOT) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to check the JavaScript modules")
    done = subprocess.run([node, "--input-type=module", "-e", GRAPH, entry.relative_to(cwd).as_posix(),
                           str(ROOT / "package.json")], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
