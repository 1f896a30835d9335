#!/usr/bin/env python3
"""The boot and panel rows for both browsers side by side: Chromium (bench_at_rest.py's
measures) and Firefox ESR (the same measures, driven over WebDriver BiDi with
tests/helpers/firefox.py; TabAgent's Firefox build from dist/firefox, `make build`).

Each run is a new browser with a new profile:
- memory at rest: PSS (/proc/<pid>/smaps_rollup) of the browser's extension processes a few
  seconds after it started, the chat never opened. In Firefox that is the one "extension"
  process (ChromeUtils.requestProcInfo names it), which also holds Firefox's own built-in
  add-ons; in Chromium, the renderers started with --extension-process;
- chat open → Python ready: from the chat page's time origin to Python's readyAt, Python not
  running before (with the snapshot). Chromium's chat is its side panel; Firefox's, its
  sidebar page, opened as a tab;
- send → first token: a turn started from the settings page while Python is not running, to
  its first token event, against a local model that answers at once;
- sandbox round trip: `print(1)` in a warm sandbox of the model's code, CodeSandbox.run to its
  result timed in an extension page (the settings page) of each browser: Chromium's manifest
  sandbox page, Firefox's the same page framed sandboxed (`make bench ONLY=sandbox` has
  Chromium's other sandbox rows).

    python bench/bench_browsers.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_at_rest as chromium  # noqa: E402
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.firefox import Firefox  # noqa: E402
from tests.helpers.model_server import ModelServer, Reply  # noqa: E402

SETTLE_S = chromium.SETTLE_S
PING = "chrome.runtime.sendMessage({ target: 'background', type: 'ping' })"
SANDBOX_RUNS = 20

# CodeSandbox, imported in an extension page: its start from the snapshot, warm-up runs, then
# each `print(1)` from run() to its result (ms).
SANDBOX_ROUND_TRIPS = """(async () => {
  const { CodeSandbox } = await import(chrome.runtime.getURL("extension/offscreen/code-sandboxes/code-sandbox.js"));
  const sandbox = new CodeSandbox();
  try {
    await sandbox.prepare();
    for (let i = 0; i < 3; i++) await sandbox.run("print(1)");
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const result = await sandbox.run("print(1)");
      if (result.isError || result.output.trim() !== "1") throw new Error(`print(1) gave ${result.output}`);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    sandbox.close();
  }
})()""".replace("RUNS", str(SANDBOX_RUNS))


def in_firefox_window(firefox: Firefox, expression: str):
    [window, *_] = firefox.send("browsingContext.getTree", {"moz:scope": "chrome"})["contexts"]
    result = firefox.send("script.evaluate", {"expression": f"(async () => JSON.stringify(await ({expression})))()",
                                              "target": {"context": window["context"]}, "awaitPromise": True})
    return json.loads(result["result"]["value"])


def extension_pss_mb(firefox: Firefox) -> float:
    pids = in_firefox_window(firefox, "ChromeUtils.requestProcInfo().then((info) => info.children.filter((c) => c.type === 'extension').map((c) => c.pid))")
    total_kb = 0
    for pid in pids:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        total_kb += next(int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:"))
    return total_kb / 1024


def with_firefox(measure):
    firefox = Firefox().start()
    try:
        return measure(firefox)
    finally:
        firefox.quit()


def ask(firefox: Firefox, page: str, expression: str):
    reply = firefox.evaluate(page, expression, timeout=120)
    if not reply or not reply.get("ok"):
        raise RuntimeError(f"{expression}: {reply}")
    return reply["result"]


def firefox_memory(firefox: Firefox) -> float:
    time.sleep(SETTLE_S)
    return extension_pss_mb(firefox)


def firefox_chat_to_ready(firefox: Firefox) -> float:
    time.sleep(SETTLE_S)
    page = firefox.open_sidebar_page()
    origin = firefox.evaluate(page, "performance.timeOrigin")
    return ask(firefox, page, PING)["readyAt"] - origin


def firefox_send_to_first_token(model: ModelServer):
    def measure(firefox: Firefox) -> float:
        page = firefox.open_tab(firefox.url("extension/options/options.html"))
        settings = {"provider": "custom", "base_url": model.base_url, "model": "scripted-model", "agent": "tool_calling"}
        ask(firefox, page, f"chrome.runtime.sendMessage({json.dumps({'target': 'background', 'type': 'save-settings', 'settings': settings, 'apiKey': ''})})")
        time.sleep(SETTLE_S)
        model.script(Reply(text="Hello there, this is the first token."))
        sent = firefox.evaluate(page, "Date.now()")
        start = {"target": "background", "type": "start-turn", "text": "Say hello"}
        conversation = ask(firefox, page, f"chrome.runtime.sendMessage({json.dumps(start)})")["conversationId"]
        first = firefox.wait_for_value(page, f"""chrome.storage.local.get('conversation:{conversation}').then((all) =>
          all['conversation:{conversation}']?.turns.at(-1).events?.find((event) => event.kind === 'token')?.time)""", 120)
        return first * 1000 - sent
    return measure


def chromium_sandbox(browser) -> float:
    browser.open_tab(browser.url("extension/options/options.html"))
    browser.driver.set_script_timeout(300)
    times = browser.driver.execute_async_script(f"const done = arguments[arguments.length - 1]; {SANDBOX_ROUND_TRIPS}.then(done, (e) => done(String(e)));")
    if not isinstance(times, list):
        raise RuntimeError(f"the sandbox in Chromium: {times}")
    return statistics.median(times)


def firefox_sandbox(firefox: Firefox) -> float:
    page = firefox.open_tab(firefox.url("extension/options/options.html"))
    return statistics.median(firefox.evaluate(page, SANDBOX_ROUND_TRIPS, timeout=300))


def measure_both(runs: int) -> dict:
    figures = {"chromium": {}, "firefox": {}}
    figures["chromium"]["rest"] = [chromium.with_browser(chromium.memory)["rest"] for _ in range(runs)]
    figures["firefox"]["rest"] = [with_firefox(firefox_memory) for _ in range(runs)]
    figures["chromium"]["ready"] = [chromium.with_browser(chromium.panel_to_ready)["ready"] for _ in range(runs)]
    figures["firefox"]["ready"] = [with_firefox(firefox_chat_to_ready) for _ in range(runs)]
    with ModelServer() as model:
        model.required_key = None
        figures["chromium"]["first"] = [chromium.with_browser(chromium.send_to_first_token(model)) for _ in range(runs)]
        figures["firefox"]["first"] = [with_firefox(firefox_send_to_first_token(model)) for _ in range(runs)]
    figures["chromium"]["sandbox"] = [chromium.with_browser(chromium_sandbox) for _ in range(runs)]
    figures["firefox"]["sandbox"] = [with_firefox(firefox_sandbox) for _ in range(runs)]
    return figures


def spread(values: list[float], unit: str) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered):.0f}{unit} ({ordered[0]:.0f}–{ordered[-1]:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    build_checkout()
    figures = measure_both(runs)
    print(f"\nBoot and panel, both browsers ({runs} cold starts each; median (min–max))\n")
    print("| measure | Chromium | Firefox ESR | target |")
    print("|---|---|---|---|")
    rows = (("extension memory at rest (PSS), chat never opened", "rest", " MB", "< 30 MB"),
            ("chat open → Python ready (cold, snapshot)", "ready", " ms", "< 1000 ms"),
            ("send → first token (cold, instant model)", "first", " ms", "< 1500 ms"),
            (f"sandbox `print(1)` round trip, warm (median of {SANDBOX_RUNS})", "sandbox", " ms", "< 20 ms"))
    for label, key, unit, target in rows:
        print(f"| {label} | {spread(figures['chromium'][key], unit)} | {spread(figures['firefox'][key], unit)} | {target} |")


if __name__ == "__main__":
    main()
