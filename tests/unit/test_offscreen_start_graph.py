"""The offscreen document starts on every later start of the browser (the panel's Python lives
there), so what its module graph parses is paid before Python's worker starts. The on-device
model's code, wllama (276 KB) and hash-wasm (216 KB), is imported only when a model is first
loaded or a download first checked (dynamic import()), never by the document's static graph.

The graph is esbuild's, walked in Node.js (tests/helpers/module_graph.py): every import-statement
followed from extension/offscreen/offscreen.js, dynamic imports left out."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.module_graph import module_graph

ROOT = Path(__file__).resolve().parents[2]
OFFSCREEN = ROOT / "extension" / "offscreen" / "offscreen.js"
ON_DEVICE_ONLY = ("extension/vendor/wllama/", "extension/vendor/hash-wasm/")


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


def test_the_offscreen_documents_first_module_starts_pythons_worker_alone():
    """offscreen.html lists worker-start.js before offscreen.js: the worker starts once that one
    module has loaded, while offscreen.js's graph still loads (tests/e2e/test_boot_order.py)."""
    html = (ROOT / "extension" / "offscreen" / "offscreen.html").read_text()
    assert re.findall(r'<script type="module" src="([^"]+)"></script>', html) == ["python/worker-start.js", "offscreen.js"]
    first = module_graph(ROOT / "extension" / "offscreen" / "python" / "worker-start.js")
    assert first["static"] == ["extension/offscreen/python/worker-start.js"], first["static"]
    # offscreen.js takes that worker over rather than starting its own.
    assert "extension/offscreen/python/worker-start.js" in module_graph(OFFSCREEN)["static"]
