"""The offscreen document starts on every later start of the browser (the panel's Python lives
there), so what its module graph parses is paid before Python's worker starts. The on-device
model's code, wllama (276 KB) and hash-wasm (216 KB), is imported only when a model is first
loaded or a download first checked (dynamic import()), never by the document's static graph.

The graph is esbuild's (pinned in package.json), read from its metafile in Node.js: every
import-statement followed from extension/offscreen/offscreen.js, dynamic imports left out."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OFFSCREEN = ROOT / "extension" / "offscreen" / "offscreen.js"
ON_DEVICE_ONLY = ("extension/vendor/wllama/", "extension/vendor/hash-wasm/")

# Prints {"static": [paths], "dynamic": [paths]}: the modules the entry's static imports reach,
# and those reached only through a dynamic import() somewhere in that graph.
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
console.log(JSON.stringify({ static: [...reached], dynamic: [...dynamic].filter((p) => !reached.has(p)) }));
"""


def module_graph(entry: Path, cwd: Path = ROOT) -> dict[str, list[str]]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to check the JavaScript modules")
    done = subprocess.run([node, "--input-type=module", "-e", GRAPH, entry.relative_to(cwd).as_posix(),
                           str(ROOT / "package.json")], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_offscreen_documents_start_parses_no_on_device_model_code():
    graph = module_graph(OFFSCREEN)
    assert "extension/offscreen/on-device/model-runner.js" in graph["static"]  # the graph is really walked
    assert len(graph["static"]) > 20
    assert sorted(p for p in graph["static"] if p.startswith(ON_DEVICE_ONLY)) == []
    # ...and the runtime is still reachable, when a model is first used.
    assert {"extension/vendor/wllama/index.js", "extension/vendor/hash-wasm/hash-wasm.mjs"} <= set(graph["dynamic"])


def test_the_walk_tells_a_static_import_from_a_dynamic_one(tmp_path):
    (tmp_path / "entry.js").write_text('import { b } from "./b.js";\nexport const a = () => import("./c.js");\nb();\n')
    (tmp_path / "b.js").write_text('import "./d.js";\nexport function b() {}\n')
    (tmp_path / "c.js").write_text("export const c = 1;\n")
    (tmp_path / "d.js").write_text("globalThis.d = 1;\n")
    graph = module_graph(tmp_path / "entry.js", cwd=tmp_path)
    assert sorted(graph["static"]) == ["b.js", "d.js", "entry.js"]
    assert graph["dynamic"] == ["c.js"]
