"""Who holds the side panel's thread while an answer streams: a CPU profile (CDP Profiler) of
the extension's renderer main thread, which every extension page shares (the panel, the
offscreen document), over bench_panel.py's 2,000-token answer with code.

Prints the functions with the most self time, then the sums that say who took the thread:
Pyodide's WebAssembly (the agent's Python, if it runs on that thread) and the offscreen
document's own scripts. Python in its worker (extension/offscreen/python/worker.js) shows as
0 ms of WebAssembly here.

    python bench/profile_panel_thread.py [--top 20]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for bench_panel

from bench_panel import offscreen, panel_alone, token_latencies  # noqa: E402
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.model_server import ModelServer  # noqa: E402

OFFSCREEN_SCRIPTS = {p.name for p in (Path(__file__).resolve().parents[1] / "extension" / "offscreen").glob("*.js")}


def self_times(profile: dict) -> Counter:
    """ms of self time per (function, file) in a CDP Profiler profile."""
    nodes = {node["id"]: node["callFrame"] for node in profile["nodes"]}
    times = Counter()
    for sample, delta in zip(profile["samples"], profile["timeDeltas"]):
        frame = nodes[sample]
        times[(frame["functionName"] or "(anonymous)", frame["url"].rsplit("/", 1)[-1])] += delta / 1000
    return times


def profiled_stream(browser: Browser, model: ModelServer) -> Counter:
    panel_alone(browser)
    session = browser.cdp.attach(offscreen(browser)["targetId"])  # the same thread as the panel's
    try:
        browser.cdp.send("Profiler.enable", session_id=session)
        browser.cdp.send("Profiler.setSamplingInterval", {"interval": 500}, session_id=session)
        browser.cdp.send("Profiler.start", session_id=session)
        token_latencies(browser, model, 1, 2000, with_code=True)
        return self_times(browser.cdp.send("Profiler.stop", session_id=session, timeout=120)["profile"])
    finally:
        browser.cdp.send("Target.detachFromTarget", {"sessionId": session})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    build_checkout()
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        with ModelServer() as model:
            times = profiled_stream(browser, model)
    finally:
        browser.quit()
        remove_profile(profile)
    print(f"\n### The extension's renderer main thread over a 2,000-token answer ({sum(times.values()):.0f} ms profiled)\n")
    print("| function | file | self ms |\n|---|---|---|")
    for (function, file), ms in times.most_common(args.top):
        print(f"| {function} | {file or '(native)'} | {ms:.0f} |")
    wasm = sum(ms for (_, file), ms in times.items() if file.startswith("pyodide.asm"))
    own = sum(ms for (_, file), ms in times.items() if file in OFFSCREEN_SCRIPTS)
    print(f"\nPyodide's WebAssembly on this thread: {wasm:.0f} ms; the offscreen document's scripts: {own:.0f} ms")


if __name__ == "__main__":
    main()
