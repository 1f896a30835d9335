"""`make bench` builds what its benchmarks load, so that it runs whole from a clean checkout."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def planned_commands(target: str) -> str:
    """What `make` would run for `target` if nothing were built yet (-B: every stamp stale)."""
    result = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True)
    return result.stdout


def test_make_bench_stages_the_per_browser_builds_the_browsers_bench_loads():
    # bench_browsers starts Firefox on dist/firefox (tests/helpers/firefox.py), which only
    # scripts/browser_builds.py makes: without it a clean checkout's `make bench` stopped there.
    assert "bench/bench_browsers.py" in (ROOT / "bench/bench.py").read_text()
    plan = planned_commands("bench")
    assert "scripts/browser_builds.py" in plan
    assert plan.index("scripts/browser_builds.py") < plan.index("bench/bench.py")
