"""How long read_page takes on the largest saved pages, in headless Chromium.

Each page is loaded once and the content scripts injected (as tests/e2e does); then
read_page is called --runs times. Two times per call:
- in page: measured with performance.now() around TabAgentPage.run, i.e. the tool's own
  cost (copy the document, Readability, Markdown, pagination);
- round trip: from Python, including the DevTools-protocol hop and returning the JSON,
  a stand-in for the service worker's executeScript round trip.
The first call is reported apart (it pays for compiling the scripts), and so is the
injection of the content scripts themselves.

    python scripts/bench_read_page.py [--runs 10] [--page yahoo-2 --page wikipedia]

Prints a Markdown table (median and spread: min/max, p90). The target is a median under
300 ms for yahoo-2 (1.6 MB of HTML).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers

from tests.helpers.page_server import PageServer  # noqa: E402
from tests.helpers.page_tools import PageTools, start_chromium  # noqa: E402

CORPUS = Path("/work/shared/testdata/pages")
TARGET_MS = {"yahoo-2": 300}

TIMED_CALL = """(() => {
  const start = performance.now();
  const answer = globalThis.TabAgentPage.run("read_page", {});
  if (!answer.ok) throw new Error(answer.error);
  return { ms: performance.now() - start, pages: answer.result.pages, length: answer.result.length };
})()"""


def time_page(tools, runs):
    first = tools.evaluate(TIMED_CALL)
    in_page, round_trip = [], []
    for _ in range(runs):
        start = time.perf_counter()
        reply = tools.evaluate(TIMED_CALL)
        round_trip.append((time.perf_counter() - start) * 1000)
        in_page.append(reply["ms"])
    return first, in_page, round_trip


def spread(samples):
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered):.1f} | {ordered[0]:.1f}–{ordered[-1]:.1f} | {p90:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--page", action="append", dest="pages", help="corpus page (repeatable)")
    args = parser.parse_args()
    pages = args.pages or ["yahoo-2", "wikipedia"]

    rows = []
    missed = []
    driver = start_chromium()
    try:
        with PageServer(CORPUS) as server:
            for name in pages:
                driver.get(server.url(f"{name}/source.html"))
                start = time.perf_counter()
                tools = PageTools(driver).inject()
                inject_ms = (time.perf_counter() - start) * 1000
                first, in_page, round_trip = time_page(tools, args.runs)
                size_kb = (CORPUS / name / "source.html").stat().st_size / 1024
                median = statistics.median(in_page)
                target = TARGET_MS.get(name)
                verdict = "" if target is None else ("met" if median < target else "MISSED") + f" (< {target})"
                if verdict.startswith("MISSED"):
                    missed.append(name)
                rows.append(f"| {name} | {size_kb:.0f} KB | {first['length']} chars, {first['pages']} page(s) "
                            f"| {inject_ms:.0f} | {first['ms']:.1f} | {spread(in_page)} | {spread(round_trip)} | {verdict} |")
        version = driver.capabilities.get("browserVersion", "?")
    finally:
        driver.quit()

    print(f"read_page, {args.runs} runs per page after a first call; Chromium {version}, "
          f"{platform.machine()}, {platform.system()}; times in ms\n")
    print("| page | HTML | Markdown | inject | first call | in page: median | min–max | p90 "
          "| round trip: median | min–max | p90 | target |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
