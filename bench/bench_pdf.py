"""How long read_page takes on a 100-page PDF open in a tab.

The built extension runs in headless Chromium; a 100-page PDF of running text (written here,
about 2,900 characters a page) is served from 127.0.0.1 and shown by Chromium's PDF viewer.
read_page is called by hand from the side panel (call-tool). A cold call downloads the file in
the offscreen document and extracts all its pages with pdf.js: each run opens the PDF at a new
address, so nothing is reused. A warm call reads the next part of a PDF already read.
Times are measured in the agent's Python, from the tool call to its result.

    python scripts/bench_pdf.py [--runs 5] [--pages 100]

Prints a Markdown table (median and spread: min-max). The target is a cold median under 2 s.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers

from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.panel_backends import ChromiumPanel  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.page_server import PageServer  # noqa: E402
from tests.helpers.pdf import make_pdf  # noqa: E402

TARGET_MS = 2000
WORDS = ("orchard", "harvest", "ledger", "pump", "season", "invoice", "barn", "river", "cost", "apple",
         "report", "market", "weather", "tractor", "fence", "seed")

TIMED_CALL = """
const [args, done] = [arguments[0], arguments[arguments.length - 1]];
chrome.runtime.sendMessage({ target: "background", type: "call-tool", name: "read_page", args }).then(
  (reply) => done(reply.ok ? { python: reply.result.ms, text: reply.result.result } : { error: reply.error }),
  (error) => done({ error: String(error) }));
"""


def page_text(number: int) -> str:
    lines = [" ".join(WORDS[(number * 7 + line * 3 + i) % len(WORDS)] for i in range(12)) for line in range(40)]
    return f"Chapter {number}\n" + "\n".join(lines)


def timed_call(tabs, **args):
    reply = tabs.driver.execute_async_script(TIMED_CALL, args)
    if "error" in reply:
        raise RuntimeError(f"read_page failed: {reply['error']}")
    if "### PDF page" not in reply["text"]:
        raise RuntimeError(f"read_page did not read the PDF: {reply['text'][:300]}")
    return reply["python"]


def show_pdf(tabs, url):
    tabs.show(url)
    tabs.driver.switch_to.window(tabs.page)
    for _ in range(200):
        if tabs.driver.execute_script("return document.contentType") == "application/pdf":
            break
        time.sleep(0.05)
    tabs.driver.switch_to.window(tabs.window)


def spread(samples):
    ordered = sorted(samples)
    return f"{statistics.median(ordered):.0f} | {ordered[0]:.0f}–{ordered[-1]:.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pages", type=int, default=100)
    args = parser.parse_args()
    build_checkout()

    with tempfile.TemporaryDirectory(prefix="tabagent-bench-pdf-") as folder:
        pdf = make_pdf([page_text(n) for n in range(1, args.pages + 1)], title="Benchmark book")
        (Path(folder) / "book.pdf").write_bytes(pdf)
        profile = fresh_profile()
        browser = Browser(profile).start()
        try:
            tabs = ChromiumPanel.beside_a_page(browser)
            cold, warm = [], []
            with PageServer(folder) as server:
                for run in range(args.runs):
                    show_pdf(tabs, server.url("book.pdf") + f"?run={run}")
                    cold.append(timed_call(tabs))
                    warm.append(timed_call(tabs, page=2))
            version = browser.driver.capabilities.get("browserVersion", "?")
            problems = browser.take_problems()
        finally:
            browser.quit()
            remove_profile(profile)

    median = statistics.median(cold)
    verdict = ("met" if median < TARGET_MS else "MISSED") + f" (< {TARGET_MS})"
    print(f"read_page on a {args.pages}-page PDF ({len(pdf) / 1024:.0f} KB), {args.runs} runs; "
          f"Chromium {version}, {platform.machine()}, {platform.system()}; times in ms, in Python\n")
    print("| call | median | min–max | target |")
    print("|---|---|---|---|")
    print(f"| cold: download + pdf.js on every page, part 1 | {spread(cold)} | {verdict} |")
    print(f"| warm: part 2 of the same PDF | {spread(warm)} | |")
    if problems:
        print("\nerrors in the extension:\n" + "\n".join(map(str, problems)), file=sys.stderr)
    return 1 if median >= TARGET_MS or problems else 0


if __name__ == "__main__":
    sys.exit(main())
