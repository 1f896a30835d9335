#!/usr/bin/env python3
"""screenshot → ready for the model, through the extension in real headless Chromium: the
call from Python to the service worker, chrome.tabs.captureVisibleTab, the content script's
layout (for a crop or labels), and the offscreen document's crop, labels, resize and encoding,
back to Python. Timed in Python (call-tool's own time), on a page window of 1366×900 with the
page of the controls benchmark. Chrome allows two captures a second, so runs are spaced (the
tool itself waits its turn when asked sooner: that wait is not what is measured here)."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))

from bench_controls import big_page, row, run_page_tool  # noqa: E402
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.panel_backends import ChromiumPanel  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.page_server import PageServer  # noqa: E402

SPACING_S = 0.6  # above Chrome's limit of two captures a second


def timed(tabs, runs, **args):
    values = []
    for _ in range(runs):
        time.sleep(SPACING_S)
        values.append(run_page_tool(tabs, "screenshot", **args)["ms"])
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    build_checkout()
    made = Path(tempfile.mkdtemp(prefix="tabagent-screenshot-"))
    (made / "big.html").write_text(big_page())
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        tabs = ChromiumPanel.in_windows(browser)
        with PageServer(made) as site:
            tabs.show(site.url("big.html"))
            tabs.driver.switch_to.window(tabs.page)
            tabs.driver.set_window_size(1366, 900)
            tabs.driver.switch_to.window(tabs.window)
            run_page_tool(tabs, "screenshot")  # the offscreen document and the canvas code, loaded once
            full = timed(tabs, args.runs)
            element = timed(tabs, args.runs, locator="#f section:nth-of-type(2)")
            labelled = timed(tabs, args.runs, labels=True)
    finally:
        browser.quit()
        remove_profile(profile)
    print(f"\n### Screenshot → ready for the model ({args.runs} runs; ms, in Python)\n")
    print("| measure | median | min–max | target |")
    print("|---|---|---|---|")
    print(row("the visible part of the page (1366×900 window, JPEG)", full, "< 300"))
    print(row("one element, cropped (PNG)", element, "< 300"))
    print(row("with the controls' numbers drawn", labelled, "< 300"))


if __name__ == "__main__":
    main()
