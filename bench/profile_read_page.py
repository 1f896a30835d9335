"""Where read_page's time goes: a CPU profile (CDP Profiler) of read_page calls in the page tab.

Loads each page as bench_read_page.py does, calls read_page once to inject the scripts, brings
the page's tab to the front (as bench_read_page.py does), then profiles --runs calls and prints
the split by step of the reading (each sample counted in the innermost step it ran under: the
copy of the page, the unseen-text pass, Readability, ...), then the functions with the most
time (self, and with what they call), summed over the calls and divided by their number.

    python bench/profile_read_page.py [--runs 3] [--page wikipedia] [--top 25]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for bench_read_page

from bench_read_page import CORPUS, bring_to_front, timed_call  # noqa: E402
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.panel_backends import ChromiumPanel  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.page_server import PageServer  # noqa: E402


def page_session(browser, url):
    target = next(t for t in browser.cdp.targets() if t.get("type") == "page" and t.get("url") == url)
    return browser.cdp.attach(target["targetId"])


def profile_calls(browser, tabs, session, runs):
    cdp = browser.cdp
    cdp.send("Profiler.enable", session_id=session)
    cdp.send("Profiler.setSamplingInterval", {"interval": 100}, session_id=session)
    cdp.send("Profiler.start", session_id=session)
    for _ in range(runs):
        timed_call(tabs)
    return cdp.send("Profiler.stop", session_id=session)["profile"]


def totals(profile):
    """(self ms, total ms) per function name, from the samples' time deltas."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    self_ms, total_ms = defaultdict(float), defaultdict(float)
    for sample, delta in zip(profile["samples"], profile["timeDeltas"]):
        ms = delta / 1000
        frame = nodes[sample]["callFrame"]
        self_ms[label(frame)] += ms
        seen = set()
        for at in ancestry(sample, parent):
            name = label(nodes[at]["callFrame"])
            if name not in seen:
                seen.add(name)
                total_ms[name] += ms
    return self_ms, total_ms


def lines(profile):
    """Self ms per source line of our own scripts (and the vendored ones), from the samples."""
    self_ms = defaultdict(float)
    for sample, delta in zip(profile["samples"], profile["timeDeltas"]):
        self_ms[sample] += delta / 1000
    by_line = defaultdict(float)
    for node in profile["nodes"]:
        ticks = node.get("positionTicks") or []
        hits = sum(tick["ticks"] for tick in ticks)
        frame = node["callFrame"]
        where = f"{frame['functionName'] or '(anonymous)'} {frame['url'].rsplit('/', 1)[-1]}"
        for tick in ticks:
            by_line[f"{where}:{tick['line']}"] += self_ms[node["id"]] * tick["ticks"] / hits
    return by_line


# The steps of one reading, by the function that runs each (main-content-*.js, frames.js, visibility.js,
# html-to-markdown.js and the vendored libraries); a sample belongs to the innermost one.
STEPS = {
    "visibleCopy": "copy of the page: clone, hidden elements out",
    "cloneWithFrames": "copy of the page: clone, hidden elements out",
    "unseenText": "unseen text: a verdict per text node",
    "removeBoilerplate": "boilerplate out",
    "parse": "Readability",
    "pageMetadata": "metadata",
    "isFormOrApp": "form or app? (its signals)",
    "hideSecrets": "password fields found and emptied",
    "justChanged": "what just changed: live regions, dialogs, new text",
    "firstChoice": "first choice: marker, widening",
    "notJustTheChrome": "candidates weighed",
    "choose": "first choice: marker, widening",
    "wrapLooseRuns": "line rules, lead, boxes",
    "extract": "line rules, lead, boxes",
    "RootNode": "Turndown: its copy, whitespace",
    "turndown": "Turndown: conversion",
    "readPage": "the rest of read_page (pages, fields)",
}
NATIVE_COPY = "cloneNode"
OUTSIDE = {"(garbage collector)": "garbage collection", "(program)": "(program: the browser's own work)"}


def steps(profile):
    """ms per step (STEPS), with the cloneNode calls of each step apart, from the samples."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    split = defaultdict(float)
    for sample, delta in zip(profile["samples"], profile["timeDeltas"]):
        # (esbuild numbers a second function of the same name in the bundle: choose2, extract2.)
        names = [re.sub(r"\d+$", "", nodes[at]["callFrame"]["functionName"]) for at in ancestry(sample, parent)]
        step = next((STEPS[name] for name in names if name in STEPS), None) or OUTSIDE.get(names[0])
        if step:
            split[f"{step}: cloneNode" if names[0] == NATIVE_COPY else step] += delta / 1000
    return split


def ancestry(node_id, parent):
    while node_id is not None:
        yield node_id
        node_id = parent.get(node_id)


def label(frame):
    where = frame["url"].rsplit("/", 1)[-1]
    return f"{frame['functionName'] or '(anonymous)'} {where}:{frame['lineNumber'] + 1}" if where else frame["functionName"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--page", action="append", dest="pages")
    args = parser.parse_args()
    build_checkout()
    profile_dir = fresh_profile()
    browser = Browser(profile_dir).start()
    try:
        tabs = ChromiumPanel.beside_a_page(browser)
        with PageServer(CORPUS) as server:
            for name in args.pages or ["wikipedia", "pixnet"]:
                url = server.url(f"{name}/source.html")
                tabs.show(url)
                timed_call(tabs)
                bring_to_front(browser, url)
                profile = profile_calls(browser, tabs, page_session(browser, url), args.runs)
                self_ms, total_ms = totals(profile)
                split = steps(profile)
                print(f"\n### {name}: the reading by step, ms per call, over {args.runs} calls\n")
                print("| step | ms |\n|---|---|")
                for step, ms in sorted(split.items(), key=lambda kv: -kv[1]):
                    print(f"| {step} | {ms / args.runs:.1f} |")
                print(f"| all steps | {sum(split.values()) / args.runs:.1f} |")
                print(f"\n### {name}: ms per call, over {args.runs} calls\n")
                print("| function | self | total |\n|---|---|---|")
                for fn, ms in sorted(total_ms.items(), key=lambda kv: -kv[1])[: args.top]:
                    print(f"| {fn} | {self_ms[fn] / args.runs:.1f} | {ms / args.runs:.1f} |")
                print("\nmost self time:\n")
                for fn, ms in sorted(self_ms.items(), key=lambda kv: -kv[1])[: args.top]:
                    print(f"| {fn} | {ms / args.runs:.1f} |")
                print("\nmost self time by line:\n")
                for line, ms in sorted(lines(profile).items(), key=lambda kv: -kv[1])[: args.top]:
                    print(f"| {line} | {ms / args.runs:.1f} |")
    finally:
        browser.quit()
        remove_profile(profile_dir)


if __name__ == "__main__":
    main()
