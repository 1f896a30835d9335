#!/usr/bin/env python3
"""bench_boot.py's later start as an interleaved A/B: this checkout's Chrome package against an
earlier commit's (or several: --before again), in turns that alternate which goes first, so that a machine whose load moves
(a shared one) loads both alike. Each turn starts each build once in a new profile (its first
start, not counted) and then `--runs` times more in that profile (later starts: the row with a
target of < 1000 ms). Prints, for each build, the median per turn and the median and minimum of
all runs of "browser start → offscreen ready", and then bench_boot.py's moments table for both.

The earlier build is this checkout's staged package (scripts/browser_builds.py) with the earlier
commit's `extension/` in place of its own, Chrome's modules only (the Python and its snapshot in
it are this checkout's: compare commits that differ in JavaScript only; a difference in py/ is
said).

    python bench/ab_boot.py --before 99c639e [--before another] [--turns 4] [--runs 2]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from selenium.common.exceptions import WebDriverException

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_boot import MOMENTS, one_start, staged_package  # noqa: E402  (beside this file)
from build_first import build_checkout  # noqa: E402
from tests.helpers.browser import fresh_profile, remove_profile  # noqa: E402


def before_build(commit: str, package: Path, into: Path) -> Path:
    """`package` (this checkout's staged Chrome package) with `commit`'s extension/ in place of its own."""
    shutil.copytree(package, into)
    archive = subprocess.run(["git", "archive", commit, "extension"], cwd=ROOT, check=True, capture_output=True).stdout
    source = into / "from-commit"
    source.mkdir()
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    shutil.rmtree(source / "extension" / "vendor", ignore_errors=True)
    shutil.rmtree(source / "extension" / "platform" / "firefox", ignore_errors=True)
    shutil.copytree(into / "extension" / "vendor", source / "extension" / "vendor")
    shutil.rmtree(into / "extension")
    (source / "extension").rename(into / "extension")
    source.rmdir()
    if subprocess.run(["git", "diff", "--quiet", commit, "--", "py"], cwd=ROOT).returncode != 0:
        print(f"(py/ differs from {commit}: both builds run this checkout's Python)")
    return into


def start_once(profile: Path, extension: Path, tries: int = 3) -> dict:
    """One start; a browser that did not start at all (ChromeDriver's "chrome not reachable", seen
    at load 19) is started again, and said."""
    for attempt in range(1, tries + 1):
        try:
            return one_start(profile, extension)
        except WebDriverException as error:
            if attempt == tries:
                raise
            print(f"(a start failed, started again: {error.msg.splitlines()[0] if error.msg else error})", flush=True)
    raise AssertionError("unreachable")


def one_turn(extension: Path, runs: int) -> list[dict]:
    profile = fresh_profile()
    try:
        start_once(profile, extension)  # the first start: the profile made
        return [start_once(profile, extension) for _ in range(runs)]
    finally:
        remove_profile(profile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, action="append", help="an earlier commit (repeatable)")
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--runs", type=int, default=2, help="later starts per build per turn")
    args = parser.parse_args()
    build_checkout()
    made = Path(tempfile.mkdtemp(prefix="tabagent-ab-boot-"))
    after = staged_package(made)
    builds = {commit: before_build(commit, after, made / f"before-{n}") for n, commit in enumerate(args.before)}
    builds["after"] = after
    medians = {name: [] for name in builds}
    every = {name: [] for name in builds}
    try:
        for turn in range(args.turns):
            order = list(builds) if turn % 2 == 0 else list(reversed(builds))
            for name in order:
                results = one_turn(builds[name], args.runs)
                medians[name].append(statistics.median(r["browser_to_ready"] for r in results))
                every[name].extend(results)
            print(f"turn {turn + 1} of {args.turns} done, load average {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        shutil.rmtree(made, ignore_errors=True)
    assert all(r["from_snapshot"] for runs in every.values() for r in runs)
    print(f"\n### Interleaved A/B: {', '.join(args.before)} against this checkout (after); "
          f"{args.turns} turns of {args.runs} later starts (ms)\n")
    print("| build | browser start → offscreen ready: turn medians | median | min | panel's time origin → ready: median | min |")
    print("|---|---|---|---|---|---|")
    for name in builds:
        times = [r["browser_to_ready"] * 1000 for r in every[name]]
        panel = [(r["browser_to_ready"] - r["moments"]["panelOpened"]) * 1000 for r in every[name]]
        print(f"| {name} | {', '.join(f'{m * 1000:.0f}' for m in medians[name])} | {statistics.median(times):.0f} | "
              f"{min(times):.0f} | {statistics.median(panel):.0f} | {min(panel):.0f} |")
    for title, origin in (("since the browser process started", None), ("since the panel's time origin", "panelOpened")):
        print(f"\n### Where a later start goes ({len(every['after'])} runs each; median ms {title})\n")
        print("| moment | " + " | ".join(builds) + " |")
        print("|---" * (len(builds) + 1) + "|")
        for key, what in MOMENTS.items():
            values = [[(r["moments"][key] - (r["moments"][origin] if origin else 0)) * 1000 for r in every[name] if key in r["moments"]]
                      for name in builds]
            print(f"| {what} | " + " | ".join(f"{statistics.median(v):.0f}" if v else "" for v in values) + " |")


if __name__ == "__main__":
    main()
