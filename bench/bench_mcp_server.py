#!/usr/bin/env python3
"""TabAgent as an MCP server, timed in real headless Chromium: one page-tool call from an MCP
client (the official Python SDK's stdio client, which starts `tabagent-mcp`) through the native
host and the extension to the page and back.

- the round trip: `tools/call` of `read_page` on a small local page, as the client sees it;
- the page's own work: the same tool called by hand from the panel (call-tool), as Python in the
  offscreen document times it (the page bridge, the service worker, the content script);
- the overhead: the two above, apart: stdio, the MCP server, the socket, native messaging, the
  service worker, the session's events (target < 50 ms).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.page_server import PageServer  # noqa: E402
from tests.helpers.pages import OWN_PAGES  # noqa: E402
from tests.helpers.panel_backends import ChromiumPanel  # noqa: E402
from tests.helpers.tabagent_mcp import StdioClient, register, socket_folder  # noqa: E402

from bench_sandbox import row  # noqa: E402

WARM_UP = 3


def timed_calls(client: StdioClient, runs: int) -> list[float]:
    times = []
    for _ in range(runs + WARM_UP):
        started = time.perf_counter()
        failed, text, _ = client.call_tool("read_page")
        assert not failed, text
        times.append((time.perf_counter() - started) * 1000)
    return times[WARM_UP:]


def by_hand(tabs: ChromiumPanel, runs: int) -> list[float]:
    return [tabs.tool_reply("read_page")["result"]["ms"] for _ in range(runs + WARM_UP)][WARM_UP:]


def measure(browser: Browser, site: PageServer, runs: int) -> tuple[list[float], list[float]]:
    folder, home = socket_folder(), Path(tempfile.mkdtemp(prefix="tabagent-bench-home-"))
    try:
        register(home, folder, "--chrome-profile", str(browser.profile), "--chrome-extension-id", browser.extension_id)
        tabs = ChromiumPanel.beside_a_page(browser)
        tabs.show(site.url("actions.html"))
        tabs.ask_background("save-settings", settings={"mcp_clients": True})
        deadline = time.monotonic() + 30
        while not (folder / "host.sock").exists():
            assert time.monotonic() < deadline, "the extension never started the native host"
            time.sleep(0.05)
        with StdioClient(folder) as client:
            through_mcp = timed_calls(client, runs)
        return through_mcp, by_hand(tabs, runs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    build_checkout()
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        with PageServer(OWN_PAGES) as site:
            through_mcp, page_work = measure(browser, site, args.runs)
    finally:
        browser.quit()
        remove_profile(profile)
    overhead = [t - statistics.median(page_work) for t in through_mcp]
    print(f"\n### A page-tool call from an MCP client ({args.runs} runs each; ms)\n")
    print("| measure | median | min–max | target |")
    print("|---|---|---|---|")
    print(row("`read_page` from the MCP client, through the native host, and back", through_mcp))
    print(row("the same tool called by hand (the page's own work, timed in Python)", page_work))
    print(row("overhead of the MCP path (the two above)", overhead, "< 50"))


if __name__ == "__main__":
    main()
