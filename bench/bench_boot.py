#!/usr/bin/env python3
"""Cold start of the extension's Python, measured in real headless Chromium.

- first start: a new profile (the very first start after installing);
- later start: the same profile restarted;
- no snapshot: a copy of the extension without the build's memory snapshot, for comparison.
"Browser start" is when the Chromium process started (read from /proc; /proc's start time
has a 10 ms resolution).
For each: browser start to offscreen-ready (wall clock), the offscreen document's own
start-up (fetching the package, Pyodide, importing tabagent) and loadPyodide alone.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.helpers.browser import ROOT, Browser, fresh_profile, remove_profile  # noqa: E402

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


def one_start(profile: Path, extension_dir: Path = ROOT) -> dict:
    browser = Browser(profile).start(extension_dir)
    started = process_started_at(chromium_pid(browser.driver.service.process.pid))
    try:
        browser.open_side_panel()
        reply = browser.driver.execute_async_script(PING)
        if not reply.get("ok"):
            raise RuntimeError(f"ping failed: {reply}")
        info = reply["result"]
        return {
            "browser_to_ready": info["readyAt"] / 1000 - started,
            "offscreen_startup": info["startupMs"] / 1000,
            "pyodide_load": info["pyodideLoadMs"] / 1000,
            "from_snapshot": info["fromSnapshot"],
        }
    finally:
        browser.quit()


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered) * 1000:.0f} | {ordered[0] * 1000:.0f}–{ordered[-1] * 1000:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    without_snapshot = Path(tempfile.mkdtemp(prefix="tabagent-nosnap-"))
    shutil.copytree(ROOT / "extension", without_snapshot / "extension", ignore=shutil.ignore_patterns("python.snapshot*"))
    shutil.copy(ROOT / "manifest.json", without_snapshot / "manifest.json")
    shutil.copytree(ROOT / "_locales", without_snapshot / "_locales")  # the manifest's __MSG_ names
    first, later, plain = [], [], []
    try:
        for _ in range(runs):
            profile = fresh_profile()
            try:
                first.append(one_start(profile))
                later.append(one_start(profile))
            finally:
                remove_profile(profile)
            profile = fresh_profile()
            try:
                plain.append(one_start(profile, without_snapshot))
            finally:
                remove_profile(profile)
    finally:
        shutil.rmtree(without_snapshot, ignore_errors=True)
    assert all(r["from_snapshot"] for r in first + later) and not any(r["from_snapshot"] for r in plain)
    print(f"\n### Cold start of Python in the extension ({runs} runs each; ms)\n")
    print("| start | measure | median | min–max | target |")
    print("|---|---|---|---|---|")
    rows = (("first start", first, "< 3000"), ("later start", later, "< 1000"), ("without snapshot", plain, ""))
    for label, results, target in rows:
        print(f"| {label} | browser start → offscreen ready | {summary([r['browser_to_ready'] for r in results])} | {target} |")
        print(f"| {label} | offscreen start-up | {summary([r['offscreen_startup'] for r in results])} | |")
        print(f"| {label} | loadPyodide alone | {summary([r['pyodide_load'] for r in results])} | |")


if __name__ == "__main__":
    main()
