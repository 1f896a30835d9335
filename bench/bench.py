#!/usr/bin/env python3
"""`make bench`: every benchmark, each printing a Markdown table of median and spread.

Targets are printed beside the numbers, not asserted: these machines are shared and noisy.
Run one alone with `make bench ONLY=boot` (a name from BENCHMARKS). What each prints is also
written to bench/results/<name>.md, with the date, the commit and the machine's load, so the
latest figures live in the repository rather than in prose (docs/benchmarks.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"

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
    "windows": [sys.executable, "bench/bench_windows.py"],
    "workflows": [sys.executable, "bench/bench_workflows.py"],
    "mcp-server": [sys.executable, "bench/bench_mcp_server.py"],
    "on-device": [sys.executable, "bench/bench_on_device.py"],
    "real-models": [sys.executable, "bench/bench_real_models.py"],
}
# Run only when named (ONLY=...): hours of CPU on two cores, not part of a plain `make bench`.
ON_REQUEST = {"real-models"}


def main() -> int:
    only = os.environ.get("ONLY")
    chosen = {name: command for name, command in BENCHMARKS.items()
              if name == only or not only and name not in ON_REQUEST}
    if not chosen:
        print(f"bench: no benchmark named {only!r}; there are {', '.join(BENCHMARKS)}", file=sys.stderr)
        return 2
    failed = []
    for name, command in chosen.items():
        print(f"\n## {name}", flush=True)
        if run_and_keep(name, command) != 0:
            failed.append(name)
    if failed:
        print(f"\nbench: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def run_and_keep(name: str, command: list[str]) -> int:
    """Runs one benchmark, its output shown as it comes and kept in bench/results/<name>.md."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    lines = []
    for line in process.stdout:
        print(line, end="", flush=True)
        lines.append(line)
    status = process.wait()
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.md").write_text(f"# {name}\n\n{provenance(status)}\n\n{''.join(lines)}")
    return status


def provenance(status: int) -> str:
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    ended = "" if status == 0 else f"; it ended with status {status}"
    return (f"Written by `make bench` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} at commit "
            f"{commit}, load average {load} ({os.cpu_count()} cores){ended}.")


if __name__ == "__main__":
    sys.exit(main())
