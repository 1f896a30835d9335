#!/usr/bin/env python3
"""`make bench`: every benchmark, each printing a Markdown table of median and spread.

Targets are printed beside the numbers, not asserted: these machines are shared and noisy.
Run one alone with `make bench ONLY=boot` (a name from BENCHMARKS).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name -> command, in the order the issues added them
BENCHMARKS = {
    "boot": [sys.executable, "bench/bench_boot.py"],
    "loop": [sys.executable, "bench/bench_loop.py"],
    "loop-pyodide": ["node", "bench/bench_loop_pyodide.mjs"],
    "read-page": [sys.executable, "bench/bench_read_page.py"],
    "extraction": [sys.executable, "bench/bench_extraction.py"],
    "kinds": [sys.executable, "bench/bench_kinds.py"],
    "sandbox": [sys.executable, "bench/bench_sandbox.py"],
    "panel": [sys.executable, "bench/bench_panel.py"],
    "render-limits": [sys.executable, "bench/bench_render_limits.py"],
    "pdf": [sys.executable, "bench/bench_pdf.py"],
    "compaction": [sys.executable, "bench/bench_compaction.py"],
    "compaction-pyodide": ["node", "bench/bench_compaction_pyodide.mjs"],
    "at-rest": [sys.executable, "bench/bench_at_rest.py"],
    "mcp": [sys.executable, "bench/bench_mcp.py"],
    "controls": [sys.executable, "bench/bench_controls.py"],
    "screenshot": [sys.executable, "bench/bench_screenshot.py"],
    "miniwob": [sys.executable, "bench/bench_miniwob.py"],
    "browsers": [sys.executable, "bench/bench_browsers.py"],
}


def main() -> int:
    only = os.environ.get("ONLY")
    chosen = {name: command for name, command in BENCHMARKS.items() if not only or name == only}
    if not chosen:
        print(f"bench: no benchmark named {only!r}; there are {', '.join(BENCHMARKS)}", file=sys.stderr)
        return 2
    failed = []
    for name, command in chosen.items():
        print(f"\n## {name}", flush=True)
        if subprocess.run(command, cwd=ROOT).returncode != 0:
            failed.append(name)
    if failed:
        print(f"\nbench: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
