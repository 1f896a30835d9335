"""Opening the side panel starts Python: its ping makes the service worker create the offscreen
document. So what the panel loads before it pings is paid by every "panel open -> Python ready"
(bench/bench_boot.py, bench/bench_at_rest.py).

- The ping comes from python-status.js, a module script of the panel's page of its own, listed
  first and async: its static graph is a few small modules, so it pings while the rest of the
  panel (60 modules) is still loading, not after, and without waiting for the page's style
  sheets, which a deferred module script waits for (tests/e2e/test_boot_order.py shows it).
- highlight.js (378 KB, half the panel's code) is imported when a block of code is first shown
  (sidepanel/code-colours.js), never by the panel's static graph.

The graphs are esbuild's, walked in Node.js (tests/helpers/module_graph.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.module_graph import module_graph

ROOT = Path(__file__).resolve().parents[2]
PANEL = ROOT / "extension" / "sidepanel"
HIGHLIGHT = "extension/vendor/highlight/highlight.mjs"


def head_elements() -> list[str]:
    """The page's scripts and style sheets, in order: "async python-status.js", "sheet x.css"."""
    html = (PANEL / "sidepanel.html").read_text()
    found = re.findall(r'<script type="module"( async)? src="([^"]+)"></script>|<link rel="stylesheet" href="([^"]+)"', html)
    return [f"async {src}" if is_async else src if src else f"sheet {sheet}" for is_async, src, sheet in found]


def test_the_panel_pings_python_from_a_few_small_modules_before_the_rest_loads():
    elements = head_elements()
    assert elements[0] == "async python-status.js", elements  # first, before every style sheet
    assert [e for e in elements if not e.startswith("sheet ")] == ["async python-status.js", "sidepanel.js"]
    ping = module_graph(PANEL / "python-status.js")
    assert "extension/shared/protocol/runtime.js" in ping["static"]  # the graph is really walked
    assert len(ping["static"]) <= 8 and sum(ping["bytes"].values()) < 30_000, ping["bytes"]
    # The panel itself no longer pings: python-status.js is not one of its modules.
    assert "extension/sidepanel/python-status.js" not in module_graph(PANEL / "sidepanel.js")["static"]


def test_the_panels_start_parses_no_code_highlighting():
    graph = module_graph(PANEL / "sidepanel.js")
    assert "extension/sidepanel/markdown.js" in graph["static"]  # the graph is really walked
    assert HIGHLIGHT not in graph["static"]
    assert HIGHLIGHT in graph["dynamic"]  # ...imported when code is first shown
    assert sum(graph["bytes"].values()) < 500_000, "the panel's start parses more than 500 KB again"
