"""How long read_page takes through the extension on the largest saved pages.

The built extension runs in headless Chromium; each page is served from 127.0.0.1 and opened
in a tab, and read_page is called by hand from the side panel (call-tool) --runs times after
a first call. Two times per call:
- in Python: from the tool call to its result in the agent's Python (offscreen document ->
  service worker -> content script in the tab -> back, plus marking the result), which is
  what a turn waits for;
- from the panel: the whole call-tool round trip as the side panel sees it;
and the page's own part: the CPU time of the tab's main thread per call (CDP Performance
metrics in thread time), which a busy machine stretches far less than the times above.
The first call is reported apart: it injects the content scripts into the page. The timed calls
find the page tab in front, as a user's tab is beside the side panel: the harness opens the panel
as a tab of its own, and a page left hidden behind it is run as a background tab (on a busy
machine the same calls took 1.3 to 1.7 times as long there).

    python bench/bench_read_page.py [--runs 10] [--page yahoo-2 --page wikipedia]

Prints a Markdown table (median and spread: min-max, p90), with the target beside each page
that has one: a median under 300 ms in Python for yahoo-2 (1.6 MB of HTML), and under 150 ms
for the vendored Wikipedia (238 KB) and pixnet (402 KB) pages (issue 24).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers

from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.panel_backends import ChromiumPanel  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.page_server import PageServer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# The whole corpus beside the checkout, or beside the worktrees' folder (yahoo-2, the largest
# page, is only there); else the pages the tests vendor.
VENDORED_CORPUS = ROOT / "tests" / "e2e" / "pages" / "readability"
SHARED_CORPUS = next((p / "shared/testdata/pages" for p in (ROOT.parent, ROOT.parent.parent)
                      if (p / "shared/testdata/pages").is_dir()), ROOT.parent / "shared/testdata/pages")
CORPUS = SHARED_CORPUS if SHARED_CORPUS.is_dir() else VENDORED_CORPUS
TARGET_MS = {"yahoo-2": 300, "wikipedia": 150, "pixnet": 150}

TIMED_CALL = """
const done = arguments[arguments.length - 1];
const started = performance.now();
chrome.runtime.sendMessage({ target: "background", type: "call-tool", name: "read_page", args: {} }).then(
  (reply) => done(reply.ok ? { python: reply.result.ms, panel: performance.now() - started, length: reply.result.result.length }
                           : { error: reply.error }),
  (error) => done({ error: String(error) }));
"""


def timed_call(tabs, page_cpu=None):
    before = page_cpu() if page_cpu else 0
    reply = tabs.driver.execute_async_script(TIMED_CALL)
    if "error" in reply:
        raise RuntimeError(f"read_page failed: {reply['error']}")
    if page_cpu:
        reply["cpu"] = page_cpu() - before
    return reply


def page_cpu_meter(browser, url):
    """A function giving the CPU ms the tab showing `url` has spent on its main thread."""
    target = next(t for t in browser.cdp.targets() if t.get("type") == "page" and t.get("url") == url)
    session = browser.cdp.attach(target["targetId"])
    browser.cdp.send("Performance.enable", {"timeDomain": "threadTicks"}, session_id=session)

    def cpu_ms():
        metrics = browser.cdp.send("Performance.getMetrics", session_id=session)["metrics"]
        return 1000 * next(m["value"] for m in metrics if m["name"] == "ThreadTime")
    return cpu_ms


def bring_to_front(browser, url):
    """The tab showing `url` in front, as the tab beside the side panel is (the calls still go
    from the panel's page)."""
    target = next(t for t in browser.cdp.targets() if t.get("type") == "page" and t.get("url") == url)
    browser.cdp.send("Target.activateTarget", {"targetId": target["targetId"]})


def spread(samples):
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered):.1f} | {ordered[0]:.1f}–{ordered[-1]:.1f} | {p90:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--page", action="append", dest="pages", help="corpus page (repeatable)")
    args = parser.parse_args()
    build_checkout()
    pages = args.pages or (["yahoo-2", "wikipedia", "pixnet"] if CORPUS == SHARED_CORPUS else ["wikipedia", "pixnet"])
    if CORPUS != SHARED_CORPUS:
        print(f"bench: {SHARED_CORPUS} is absent: timing the vendored pages {', '.join(pages)} instead", file=sys.stderr)

    rows = []
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        tabs = ChromiumPanel.beside_a_page(browser)
        with PageServer(CORPUS) as server:
            for name in pages:
                tabs.show(server.url(f"{name}/source.html"))
                first = timed_call(tabs)
                bring_to_front(browser, server.url(f"{name}/source.html"))
                cpu = page_cpu_meter(browser, server.url(f"{name}/source.html"))
                calls = [timed_call(tabs, cpu) for _ in range(args.runs)]
                python, panel = [c["python"] for c in calls], [c["panel"] for c in calls]
                size_kb = (CORPUS / name / "source.html").stat().st_size / 1024
                median = statistics.median(python)
                target = TARGET_MS.get(name)
                verdict = "" if target is None else ("met" if median < target else "MISSED") + f" (< {target})"
                rows.append(f"| {name} | {size_kb:.0f} KB | {first['length']} chars | {first['python']:.1f} "
                            f"| {spread(python)} | {spread(panel)} | {statistics.median(c['cpu'] for c in calls):.1f} | {verdict} |")
        version = browser.driver.capabilities.get("browserVersion", "?")
        problems = browser.take_problems()
    finally:
        browser.quit()
        remove_profile(profile)

    print(f"read_page through the extension, {args.runs} runs per page after a first call; "
          f"Chromium {version}, {platform.machine()}, {platform.system()}; load {os.getloadavg()[0]:.2f}; times in ms\n")
    print("| page | HTML | result (page 1) | first call | in Python: median | min–max | p90 "
          "| from the panel: median | min–max | p90 | page CPU: median | target (median in Python) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if problems:
        print("\nerrors in the extension:\n" + "\n".join(map(str, problems)), file=sys.stderr)
    # A missed target is a figure in the table (MISSED), as in every bench; only errors fail.
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
