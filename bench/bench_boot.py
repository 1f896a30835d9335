#!/usr/bin/env python3
"""Cold start of the extension's Python, measured in real headless Chromium.

- first start: a new profile (the very first start after installing);
- later start: the same profile restarted;
- no snapshot: a copy of the extension without the build's memory snapshot, for comparison.
Each loads Chrome's package as users install it (staged by scripts/browser_builds.py in a
folder of its own), not the repository root: Chromium reads every folder of an unpacked
extension as it loads it (19,000 directory reads for a checkout's node_modules, .venv and
.git), which no user's browser does. A later start of the checkout, as a developer loads it,
is a row of its own.
"Browser start" is when the Chromium process started (read from /proc; /proc's start time
has a 10 ms resolution).
For each: browser start to offscreen-ready (wall clock), the offscreen document's own
start-up (fetching the package, Pyodide, importing tabagent) and loadPyodide alone.

Beside them, the baseline: bench/bare-extension/ (an empty service worker, panel and offscreen
document at TabAgent's paths) through the same harness, browser start to its offscreen document
listening: what the browser, ChromeDriver and opening a panel take before any of TabAgent's
work, which no extension can shorten. Then where a later start's time goes, moment by moment
(each context's own clock, Unix ms), for TabAgent and the bare extension.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from browser_builds import stage  # noqa: E402
from manifests import chrome_manifest  # noqa: E402
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.browser import ROOT, Browser, fresh_profile, remove_profile  # noqa: E402

BARE = Path(__file__).resolve().parent / "bare-extension"

PING = """
const done = arguments[arguments.length - 1];
chrome.runtime.sendMessage({ target: "background", type: "ping" }).then(done, (e) => done({ ok: false, error: String(e) }));
"""


def process_started_at(pid: int) -> float:
    """When a process started, as a Unix time, from /proc (so ChromeDriver's own start-up is not counted)."""
    ticks = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[19])
    uptime = float(open("/proc/uptime").read().split()[0])
    return time.time() - (uptime - ticks / os.sysconf("SC_CLK_TCK"))


def chromium_pid(driver_pid: int) -> int:
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == driver_pid:
                return int(entry.name)
        except OSError:
            continue  # the process ended while we looked
    raise RuntimeError("ChromeDriver started no Chromium")


# The moments of a start in the order it goes through them (Unix ms, from each context's clock).
MOMENTS = {
    "serviceWorkerStarted": "service worker's time origin",
    "serviceWorkerModuleRan": "service worker's modules ran",
    "harnessReady": "ChromeDriver's session ready, the extension found (harness)",
    "panelOpened": "panel page's time origin",
    "panelParsed": "panel's HTML parsed",
    "firstPing": "service worker has the panel's ping",
    "createAsked": "service worker asks Chrome for the offscreen document",
    "documentStarted": "offscreen document's time origin",
    "panelModulesRan": "panel's modules ran (sidepanel.js's whole graph)",
    "documentModuleRan": "offscreen document's modules ran",
    "documentListening": "offscreen document listens",
    "workerStarted": "Python's worker's time origin",
    "moduleRan": "Python's worker's modules ran; its fetches start",
    "snapshotFetched": "memory snapshot fetched",
    "pyodideLoaded": "loadPyodide done",
    "ready": "Python ready",
}

# The panel's own moments (Unix ms), from its navigation timing.
PANEL_TIMES = """
const nav = performance.getEntriesByType("navigation")[0];
const at = (ms) => Math.round(performance.timeOrigin + ms);
return { panelOpened: performance.timeOrigin, panelParsed: at(nav.domInteractive), panelModulesRan: at(nav.domContentLoadedEventStart) };
"""


def one_start(profile: Path, extension_dir: Path = ROOT) -> dict:
    browser = Browser(profile).start(extension_dir)
    started = process_started_at(chromium_pid(browser.driver.service.process.pid))
    harness_ready = time.time()
    try:
        browser.open_side_panel()
        panel = browser.driver.execute_script(PANEL_TIMES)
        reply = browser.driver.execute_async_script(PING)
        if not reply.get("ok"):
            raise RuntimeError(f"ping failed: {reply}")
        info = reply["result"]
        moments = {**info.get("phases", {}), "harnessReady": harness_ready * 1000, **panel}
        return {
            "browser_to_ready": info["readyAt"] / 1000 - started,
            "offscreen_startup": info["startupMs"] / 1000,
            "pyodide_load": info["pyodideLoadMs"] / 1000,
            "from_snapshot": info["fromSnapshot"],
            "moments": {k: moments[k] / 1000 - started for k in MOMENTS if k in moments},
        }
    finally:
        browser.quit()


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered) * 1000:.0f} | {ordered[0] * 1000:.0f}–{ordered[-1] * 1000:.0f}"


def staged_package(folder: Path) -> Path:
    """Chrome's package as users install it (scripts/browser_builds.py), staged in `folder`."""
    source = json.loads((ROOT / "manifest.json").read_text())
    return stage("chrome", chrome_manifest(source), folder)


def later_start(extension_dir: Path) -> dict:
    """A start of an extension already started once in the same profile."""
    profile = fresh_profile()
    try:
        one_start(profile, extension_dir)
        return one_start(profile, extension_dir)
    finally:
        remove_profile(profile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    build_checkout()
    staging = Path(tempfile.mkdtemp(prefix="tabagent-boot-"))
    package = staged_package(staging)
    without_snapshot = staging / "without-snapshot"
    shutil.copytree(package, without_snapshot, ignore=shutil.ignore_patterns("python.snapshot*"))
    first, later, plain, root, bare = [], [], [], [], []
    try:
        for _ in range(runs):
            profile = fresh_profile()
            try:
                first.append(one_start(profile, package))
                later.append(one_start(profile, package))
            finally:
                remove_profile(profile)
            root.append(later_start(ROOT))
            bare.append(later_start(BARE))
            profile = fresh_profile()
            try:
                plain.append(one_start(profile, without_snapshot))
            finally:
                remove_profile(profile)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    assert all(r["from_snapshot"] for r in first + later + root) and not any(r["from_snapshot"] for r in plain)
    print(f"\n### Cold start of Python in the extension ({runs} runs each; ms)\n")
    print("| start | measure | median | min–max | target |")
    print("|---|---|---|---|---|")
    rows = (("first start", first, "< 3000"), ("later start", later, "< 1000"), ("without snapshot", plain, ""))
    for label, results, target in rows:
        print(f"| {label} | browser start → offscreen ready | {summary([r['browser_to_ready'] for r in results])} | {target} |")
        print(f"| {label} | offscreen start-up | {summary([r['offscreen_startup'] for r in results])} | |")
        print(f"| {label} | loadPyodide alone | {summary([r['pyodide_load'] for r in results])} | |")
    print(f"| later start, bare extension (the browser's own floor) | browser start → empty offscreen document listens | {summary([r['browser_to_ready'] for r in bare])} | |")
    print(f"| later start, the repository root loaded unpacked | browser start → offscreen ready | {summary([r['browser_to_ready'] for r in root])} | |")
    moments_table(later, bare)


def moments_table(tabagent: list[dict], bare: list[dict]) -> None:
    print(f"\n### Where a later start goes ({len(tabagent)} runs; median ms since the browser process started)\n")
    print("| moment | TabAgent | bare extension |")
    print("|---|---|---|")
    for key, what in MOMENTS.items():
        cells = [statistics.median(values) * 1000 if (values := [r["moments"][key] for r in runs if key in r["moments"]]) else None
                 for runs in (tabagent, bare)]
        if cells != [None, None]:
            print(f"| {what} | " + " | ".join("" if cell is None else f"{cell:.0f}" for cell in cells) + " |")


if __name__ == "__main__":
    main()
