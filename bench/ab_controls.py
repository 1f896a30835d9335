#!/usr/bin/env python3
"""The controls rows of bench_controls.py as an interleaved A/B: this checkout against an earlier
commit's extension, each in a browser of its own, in turns that alternate which goes first, so
that a machine whose load moves (a shared one) loads both alike. Prints each row's median per
turn, and the median and minimum of all runs, for each build; then where an action's time went,
from the service worker: each call into the tab (its script, by tool) and each DevTools command of
the real input, timed around the call (medians per action, in ms).

The earlier build is this checkout's built extension with the earlier commit's `extension/` in
place of its own, and the content scripts bundled from it (the Python in it is this checkout's:
compare commits that differ in JavaScript only; a difference in py/ is said).

    python bench/ab_controls.py --before 1239d21 [--turns 4] [--runs 10]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))

from bench_controls import PLAIN, big_page, run_page_tool  # noqa: E402  (beside this file)
from build_first import build_checkout  # noqa: E402
from tests.helpers.panel_backends import ChromiumPanel  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.page_server import PageServer  # noqa: E402

# In the service worker: every script run in a tab and every DevTools command timed, by name.
TIMING = """(() => {
  globalThis.__steps = [];
  if (globalThis.__timing) return true;
  globalThis.__timing = true;
  const timed = (owner, key, name) => {
    const call = owner[key];
    owner[key] = function (...args) {
      const started = performance.now();
      const done = () => globalThis.__steps.push([name(...args), performance.now() - started]);
      const result = call.apply(this, args);
      Promise.resolve(result).then(done, done);
      return result;
    };
  };
  timed(chrome.scripting, "executeScript", (injection) => injection.func ? `script ${injection.args?.[0]}` : "inject files");
  timed(chrome.debugger, "attach", () => "debugger attach");
  timed(chrome.debugger, "detach", () => "debugger detach");
  timed(chrome.debugger, "sendCommand", (target, method, params) => `${method}${params?.type ? ` ${params.type}` : ""}`);
  return true;
})()"""
TAKE = "(() => { const s = globalThis.__steps ?? []; globalThis.__steps = []; return s; })()"

ROWS = ("check", "hover", "small page: check", "small page: click")


def before_build(commit: str, into: Path) -> Path:
    """This checkout's built extension, with `commit`'s extension/ and its content scripts bundled."""
    built = ROOT / "extension" / "vendor"
    shutil.copy2(ROOT / "manifest.json", into / "manifest.json")
    shutil.copytree(ROOT / "_locales", into / "_locales")
    archive = subprocess.run(["git", "archive", commit, "extension"], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    shutil.rmtree(into / "extension" / "vendor", ignore_errors=True)
    shutil.copytree(built, into / "extension" / "vendor")
    bundle = subprocess.run(
        [str(ROOT / "node_modules" / ".bin" / "esbuild"), "extension/content/injected.js", "--bundle", "--format=iife",
         "--platform=browser", "--target=chrome116,firefox140", "--charset=utf8", "--legal-comments=inline", "--log-level=warning"],
        cwd=into, check=True, capture_output=True, env={**os.environ, "NODE_PATH": str(ROOT / "node_modules")}).stdout
    (into / "extension" / "vendor" / "injected.js").write_bytes(bundle)
    python_differs = subprocess.run(["git", "diff", "--quiet", commit, "--", "py"], cwd=ROOT).returncode != 0
    if python_differs:
        print(f"(py/ differs from {commit}: both builds run this checkout's Python)")
    return into


def one_turn(extension: Path, site, runs: int) -> tuple[dict, dict]:
    """Each row's times (ms, in Python) and each step's per action, in a browser of its own."""
    profile = fresh_profile()
    browser = Browser(profile).start(extension_dir=extension)
    rows, steps = defaultdict(list), defaultdict(lambda: defaultdict(list))
    try:
        tabs = ChromiumPanel.in_windows(browser)

        def timed(row, name, **args):
            worker = browser.service_worker_target()
            browser.evaluate_in(worker, TIMING)
            rows[row].append(run_page_tool(tabs, name, **args)["ms"])
            per_action = defaultdict(float)
            for step, ms in browser.evaluate_in(worker, TAKE):
                per_action[step] += ms
            for step, ms in per_action.items():
                steps[row][step].append(ms)

        tabs.show(site.url("big.html"))
        run_page_tool(tabs, "list_controls")  # injects the content scripts
        for i in range(runs):
            timed("check", "check", locator="#box", checked=i % 2 == 0)
        for n in range(1, runs + 1):
            timed("hover", "hover", locator=f".item-{n} button")
        tabs.show(site.url("plain.html"))
        run_page_tool(tabs, "list_controls")
        for i in range(runs):
            timed("small page: check", "check", locator="#box", checked=i % 2 == 0)
        for _ in range(runs):
            timed("small page: click", "click", locator="#plain")
    finally:
        browser.quit()
        remove_profile(profile)
    return rows, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="the earlier commit")
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    build_checkout()
    made = Path(tempfile.mkdtemp(prefix="tabagent-ab-"))
    (made / "pages").mkdir()
    (made / "pages" / "big.html").write_text(big_page())
    (made / "pages" / "plain.html").write_text(PLAIN)
    (made / "before").mkdir()
    builds = {"before": before_build(args.before, made / "before"), "after": ROOT}
    medians = {name: defaultdict(list) for name in builds}
    every = {name: defaultdict(list) for name in builds}
    steps = {name: defaultdict(lambda: defaultdict(list)) for name in builds}
    try:
        with PageServer(made / "pages") as site:
            for turn in range(args.turns):
                order = list(builds) if turn % 2 == 0 else list(reversed(builds))
                for name in order:
                    rows, seen = one_turn(builds[name], site, args.runs)
                    for row, values in rows.items():
                        medians[name][row].append(statistics.median(values))
                        every[name][row].extend(values)
                    for row, by_step in seen.items():
                        for step, values in by_step.items():
                            steps[name][row][step].extend(values)
                print(f"turn {turn + 1} of {args.turns} done, load average {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        shutil.rmtree(made, ignore_errors=True)
    print(f"\n### Interleaved A/B: {args.before} (before) against this checkout (after); {args.turns} turns of {args.runs} runs (ms)\n")
    print("| row | before: turn medians; median, min | after: turn medians; median, min |")
    print("|---|---|---|")
    for row in ROWS:
        cells = [f"{', '.join(f'{m:.0f}' for m in medians[name][row])}; {statistics.median(every[name][row]):.1f}, "
                 f"{min(every[name][row]):.1f}" for name in builds]
        print(f"| {row} | {cells[0]} | {cells[1]} |")
    print("\n### Where the time went, per action (service worker's view; medians of all runs, ms)\n")
    for row in ROWS:
        print(f"{row}:")
        names = sorted({step for name in builds for step in steps[name][row]})
        for step in names:
            cells = [f"{statistics.median(steps[name][row][step]):6.1f}" if steps[name][row][step] else "     -" for name in builds]
            print(f"  {step:42} before {cells[0]}  after {cells[1]}")


if __name__ == "__main__":
    main()
