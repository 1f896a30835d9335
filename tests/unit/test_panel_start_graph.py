"""Opening the side panel starts Python: its ping makes the service worker create the offscreen
document. So what the panel loads before it pings is paid by every "panel open -> Python ready"
(bench/bench_boot.py, bench/bench_at_rest.py).

- highlight.js (378 KB, half the panel's code) is imported when a block of code is first shown
  (sidepanel/code-colours.js), never by the panel's static graph.

The graphs are esbuild's, walked in Node.js (tests/helpers/module_graph.py)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.module_graph import module_graph

ROOT = Path(__file__).resolve().parents[2]
PANEL = ROOT / "extension" / "sidepanel"
HIGHLIGHT = "extension/vendor/highlight/highlight.mjs"


def test_the_panels_start_parses_no_code_highlighting():
    graph = module_graph(PANEL / "sidepanel.js")
    assert "extension/sidepanel/markdown.js" in graph["static"]  # the graph is really walked
    assert HIGHLIGHT not in graph["static"]
    assert HIGHLIGHT in graph["dynamic"]  # ...imported when code is first shown
    assert sum(graph["bytes"].values()) < 500_000, "the panel's start parses more than 500 KB again"
