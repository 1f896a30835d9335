#!/usr/bin/env python3
"""Where the time of a cold start goes, phase by phase: panel open -> Python ready, and
send -> first token (a turn sent from the settings page, no panel open, a local model that
answers at once), as bench/bench_at_rest.py measures them.

Each run is a new headless Chromium with a new profile and the built extension (with its
snapshot), at rest for a few seconds; then the side panel opens and its ping waits for Python,
or a turn is sent.
The moments come from each context's own clock, as Unix times in ms (performance.timeOrigin +
performance.now(), comparable across contexts): the panel's navigation timing, the service
worker's creation of the offscreen document, the document's start, its worker's start and the
steps of starting Pyodide (interpreter.js); for a turn, also its first event, and when the
model server had each look-up (GET) and the chat request (this machine's clock too).

    python bench/profile_start.py [--runs 5] [--only panel|first-token] [--extension DIR ...]

With several --extension folders (copies of the unpacked extension: extension/, manifest.json
and _locales/), their runs take turns, so that each meets the same state of the machine.

Prints a Markdown table for each: each moment's median time since the start (the panel's time
origin, or the moment the turn was sent), and the median time from the moment before.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_at_rest import offscreen_open  # noqa: E402  (beside this file)
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.panel_backends import chromium_panel  # noqa: E402
from tests.helpers.browser import ROOT, Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.model_server import ModelServer, Reply  # noqa: E402

SETTLE_S = 5

PANEL_TIMES = """
const nav = performance.getEntriesByType("navigation")[0];
const at = (ms) => Math.round(performance.timeOrigin + ms);
return { panelOpened: Math.round(performance.timeOrigin), panelResponse: at(nav.responseEnd),
         panelInteractive: at(nav.domInteractive), panelModulesRan: at(nav.domContentLoadedEventStart) };
"""

# The moments in the order a start goes through them, and what each one is.
PANEL_MOMENTS = {
    "panelOpened": "panel page's time origin (the start)",
    "panelResponse": "panel HTML read",
    "panelInteractive": "panel HTML parsed",
    "firstPing": "service worker has the panel's ping (python-status.js, before the panel's own modules)",
    "panelModulesRan": "panel's modules ran (sidepanel.js's whole graph)",
    "createAsked": "service worker asks Chrome for the offscreen document",
    "documentStarted": "offscreen document's time origin",
    "documentModuleRan": "offscreen document's modules ran; it starts the worker",
    "documentLoaded": "createDocument resolved in the service worker",
    "documentListening": "the document says it listens",
    "workerStarted": "Python's worker's time origin",
    "moduleRan": "worker's modules ran (pyodide.mjs among them); fetches start",
    "snapshotFetched": "memory snapshot fetched (31 MB)",
    "pyodideLoaded": "loadPyodide done (wasm compiled, snapshot restored)",
    "packageInstalled": "tabagent's files unpacked into Pyodide's file system",
    "ready": "versions read: Python ready",
}

FIRST_TOKEN_MOMENTS = {
    "sent": "turn sent from the settings page (the start)",
    **{k: v for k, v in PANEL_MOMENTS.items() if not k.startswith("panel") and k != "firstPing"},
    "firstEvent": "the turn's first event (its time, from Python)",
    **{f"lookup{n}": f"the model server has look-up {n} (GET)" for n in (1, 2, 3)},
    "modelAsked": "the model server has the request",
    "firstToken": "first token event (its time, from Python)",
}


def with_browser(measure, extension: Path = ROOT):
    profile = fresh_profile()
    browser = Browser(profile).start(extension)
    try:
        time.sleep(SETTLE_S)
        return measure(browser)
    finally:
        browser.quit()
        remove_profile(profile)


def panel_start(browser: Browser) -> dict:
    browser.open_side_panel()
    info = chromium_panel(browser).ask_background("ping")
    moments = {**browser.driver.execute_script(PANEL_TIMES), **info["phases"]}
    return {k: moments[k] - moments["panelOpened"] for k in PANEL_MOMENTS if k in moments}


def first_token(model: ModelServer, asked: list[float]):
    def measure(browser: Browser) -> dict:
        browser.open_tab(browser.url("extension/options/options.html"))
        chromium_panel(browser).configure(model.base_url)
        time.sleep(SETTLE_S)
        if offscreen_open(browser):
            raise RuntimeError("Python was running before the turn: not a cold start")
        asked.clear()
        model.lookups.clear()
        model.script(Reply(text="Hello there, this is the first token."))
        sent = browser.driver.execute_script("return Date.now()")
        conversation = chromium_panel(browser).ask_background("start-turn", text="Say hello")["conversationId"]
        events = events_to_first_token(browser, conversation)
        moments = {**chromium_panel(browser).ask_background("ping")["phases"], "sent": sent, "modelAsked": asked[0] * 1000,
                   "firstToken": events[-1]["time"] * 1000, "firstEvent": events[0]["time"] * 1000,
                   **{f"lookup{n}": lookup["time"] * 1000 for n, lookup in enumerate(model.lookups[:3], 1)}}
        return {k: moments[k] - sent for k in FIRST_TOKEN_MOMENTS if k in moments}
    return measure


def events_to_first_token(browser: Browser, conversation: str) -> list[dict]:
    """The turn's events up to its first token, once there is one."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        record = next((c for c in chromium_panel(browser).stored_conversations() if c["id"] == conversation), None)
        events = (record or {"turns": [{}]})["turns"][-1].get("events", [])
        first = next((n for n, e in enumerate(events) if e["kind"] == "token"), None)
        if first is not None:
            return events[:first + 1]
        time.sleep(0.05)
    raise RuntimeError("no token within 120 s")


def in_turns(runs: int, extensions: list[Path], measure) -> dict[Path, list[dict]]:
    found = {extension: [] for extension in extensions}
    for _ in range(runs):
        for extension in extensions:
            found[extension].append(with_browser(measure, extension))
    return found


class Arrivals(list):
    """The model server's look-ups (GET), each with the time it came."""
    def append(self, lookup: dict) -> None:
        super().append({**lookup, "time": time.time()})


def first_token_runs(runs: int, extensions: list[Path]) -> dict[Path, list[dict]]:
    asked: list[float] = []
    with ModelServer() as model:
        model.required_key = None
        model.lookups = Arrivals()
        receive = model._next_reply
        model._next_reply = lambda request: (asked.append(time.time()), receive(request))[1]
        return in_turns(runs, extensions, first_token(model, asked))


def table(title: str, moments: dict, runs: list[dict]) -> None:
    print(f"\n### {title} ({len(runs)} cold starts; ms since the start)\n")
    print("| moment | median | min–max | since the moment before (median) |")
    print("|---|---|---|---|")
    previous = None
    for key, what in moments.items():
        values = sorted(r[key] for r in runs if key in r)
        if not values:
            continue
        step = "" if previous is None else f"{statistics.median(r[key] - r[previous] for r in runs):.0f}"
        print(f"| {what} | {statistics.median(values):.0f} | {values[0]:.0f}–{values[-1]:.0f} | {step} |")
        previous = key


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", choices=["panel", "first-token"])
    parser.add_argument("--extension", action="append", type=Path, help="an unpacked extension's folder (repeatable)")
    args = parser.parse_args()
    build_checkout()
    extensions = args.extension or [ROOT]
    if args.only != "first-token":
        for extension, runs in in_turns(args.runs, extensions, panel_start).items():
            table(f"Panel open → Python ready, phase by phase: {extension.name}", PANEL_MOMENTS, runs)
    if args.only != "panel":
        for extension, runs in first_token_runs(args.runs, extensions).items():
            table(f"Send → first token (cold), phase by phase: {extension.name}", FIRST_TOKEN_MOMENTS, runs)


if __name__ == "__main__":
    main()
