#!/usr/bin/env python3
"""Python only when asked for: what TabAgent costs at rest, and how long a cold start takes.

Each run is a new headless Chromium with a new profile and the built extension:
- memory at rest: the proportional set size (PSS, /proc/<pid>/smaps_rollup) of the
  extension's processes (renderers started with --extension-process) a few seconds after the
  browser started, panel never opened; and the same once a panel has started Python, for scale;
- panel open -> Python ready: from the panel page's time origin to the moment the offscreen
  document's Python was ready (its readyAt), Python not running before (with the snapshot);
- send -> first token: a turn sent from the options page while Python is not running, to the
  first token event, against a local model that answers at once.

    python bench/bench_at_rest.py [--runs 5]

Prints Markdown tables (median and spread). Targets: < 30 MB at rest, < 1 s to ready,
< 1.5 s to the first token.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.chat import ask_background, configure, stored_conversations  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.model_server import ModelServer, Reply  # noqa: E402

SETTLE_S = 5  # let the browser finish starting before measuring it at rest


def descendants(pid: int) -> list[int]:
    children = {}
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit():
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry.name))
        except OSError:
            continue
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def extension_pss_mb(browser: Browser) -> float:
    """PSS of this browser's extension renderer processes, in MB."""
    total_kb = 0
    for pid in descendants(browser.driver.service.process.pid):
        try:
            if "--extension-process" not in Path(f"/proc/{pid}/cmdline").read_text():
                continue
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        total_kb += next(int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:"))
    return total_kb / 1024


def offscreen_open(browser: Browser) -> bool:
    return any(t["url"].endswith("extension/offscreen/offscreen.html") for t in browser.extension_targets())


def with_browser(measure):
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        return measure(browser)
    finally:
        browser.quit()
        remove_profile(profile)


def memory(browser: Browser) -> dict:
    time.sleep(SETTLE_S)
    at_rest, python_then = extension_pss_mb(browser), offscreen_open(browser)
    browser.open_side_panel()
    ask_background(browser, "ping")
    return {"rest": at_rest, "python_at_rest": python_then, "python": extension_pss_mb(browser)}


def panel_to_ready(browser: Browser) -> dict:
    time.sleep(SETTLE_S)
    browser.open_side_panel()
    origin = browser.driver.execute_script("return performance.timeOrigin")
    info = ask_background(browser, "ping")
    return {"ready": info["readyAt"] - origin, "offscreen": info["startupMs"], "pyodide": info["pyodideLoadMs"]}


def send_to_first_token(model: ModelServer):
    def measure(browser: Browser) -> float:
        browser.open_tab(browser.url("extension/options/options.html"))
        configure(browser, model.base_url)
        time.sleep(SETTLE_S)
        if offscreen_open(browser):
            raise RuntimeError("Python was running before the turn: not a cold start")
        model.script(Reply(text="Hello there, this is the first token."))
        sent = browser.driver.execute_script("return Date.now()")
        conversation = ask_background(browser, "start-turn", text="Say hello")["conversationId"]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            record = next((c for c in stored_conversations(browser) if c["id"] == conversation), None)
            tokens = [e for e in (record or {"turns": [{}]})["turns"][-1].get("events", []) if e["kind"] == "token"]
            if tokens:
                return tokens[0]["time"] * 1000 - sent
            time.sleep(0.05)
        raise RuntimeError("no token within 120 s")
    return measure


def spread(values: list[float], unit: str = "") -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered):.0f}{unit} | {ordered[0]:.0f}–{ordered[-1]:.0f}{unit}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    memories = [with_browser(memory) for _ in range(max(1, args.runs // 2))]
    readies = [with_browser(panel_to_ready) for _ in range(args.runs)]
    with ModelServer() as model:
        model.required_key = None
        firsts = [with_browser(send_to_first_token(model)) for _ in range(args.runs)]
    print(f"\nLean at rest ({args.runs} cold starts each; a new browser and profile per run)\n")
    print("| measure | median | spread | target |")
    print("|---|---|---|---|")
    print(f"| extension memory at rest (PSS), panel never opened | {spread([m['rest'] for m in memories], ' MB')} | < 30 MB |")
    print(f"| Python running at rest | {sum(m['python_at_rest'] for m in memories)} of {len(memories)} runs | | never |")
    print(f"| extension memory with Python started (PSS), for scale | {spread([m['python'] for m in memories], ' MB')} | |")
    print(f"| panel open → Python ready (cold, snapshot) | {spread([r['ready'] for r in readies], ' ms')} | < 1000 ms |")
    print(f"| … of which the offscreen document's own start-up | {spread([r['offscreen'] for r in readies], ' ms')} | |")
    print(f"| … of which loadPyodide (restoring the snapshot) | {spread([r['pyodide'] for r in readies], ' ms')} | |")
    print(f"| send → first token (cold, instant model) | {spread(firsts, ' ms')} | < 1500 ms |")


if __name__ == "__main__":
    main()
