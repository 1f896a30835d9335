#!/usr/bin/env python3
"""The side panel's longest task while it renders an answer built to break it, in real
headless Chromium against the scripted model server: a 2 KB TeX macro bomb (KaTeX would
expand it into 2.5 million elements), 10,000 nested braces, a 10,000-deep quote. Each is
streamed as a model's answer and shown as plain text with a note (the formula once the
worker rendering it gives up); what is timed is the panel's main thread meanwhile. And a
stored answer of a megabyte, opened: its Markdown is lexed and rendered a window at a time
(4,000 characters, then 8,000), one a frame (extension/sidepanel/lex-windows.js).

The longest task: the longest entry a 'longtask' PerformanceObserver reports (it reports
tasks of 50 ms and more), and when there is none, the longest call in which the panel
applies the stream's events or shows a stored turn (rendering and the layout it forces
included). A timer loop's
longest gap would count the time this shared machine gives the panel no core as well.
So does a task's wall time, under load: the stored answer's row is given again as the
longest task's CPU time, from a Chromium trace of the panel's main thread (task_cpu.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_panel import row  # noqa: E402
from task_cpu import TaskCpu  # noqa: E402
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.panel_backends import ChromiumPanel  # noqa: E402
from tests.e2e.render_bombs import deep_braces, deep_quote, macro_bomb  # noqa: E402
from tests.e2e.stored import store, stored_answer  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.model_server import ModelServer, Reply  # noqa: E402

WATCH_TASKS = """
const done = arguments[arguments.length - 1];
const watch = window.taskWatch = { calls: [], longtasks: [] };
new PerformanceObserver((list) => { for (const entry of list.getEntries()) watch.longtasks.push(entry.duration); })
  .observe({ type: "longtask" });
// The panel's module, imported again by its URL: the very instance the panel runs.
import(chrome.runtime.getURL("extension/sidepanel/sidepanel.js")).then(() => {
  const view = globalThis.tabagentDebug.conversation;
  for (const name of ["applyBatch", "finished", "addTurn"]) {
    const call = view[name].bind(view);
    view[name] = (...args) => {
      const start = performance.now();
      try { return call(...args); } finally { watch.calls.push(performance.now() - start); }
    };
  }
  done();
});
"""

WATCHED = """
const watch = window.taskWatch;
return { calls: Math.max(0, ...watch.calls), longest: Math.max(0, ...watch.longtasks), count: watch.longtasks.length };
"""

SHOWN_AS_TEXT = """
const answer = document.querySelector("article.turn:last-of-type .message.assistant");
return Boolean(answer && !answer.hidden && answer.querySelector(".render-limit") && !answer.querySelector(".math-pending"));
"""


ALL_SHOWN = """
const answer = document.querySelector("article.turn:last-of-type .message.assistant");
return Boolean(answer && !answer.hidden && !answer.closest("[aria-busy]") && answer.textContent.includes("Paragraph 999"));
"""


def longest_task_opening(browser: Browser, answer: str) -> tuple[float, int, float]:
    """The same, from opening a stored conversation (as History does) to its answer shown,
    and the longest task's CPU time (task_cpu.py)."""
    panel = ChromiumPanel(browser).new_conversation()
    record = stored_answer(answer)
    store(browser.driver, record)
    browser.driver.execute_async_script(WATCH_TASKS)
    with TaskCpu(browser) as trace:
        panel.open_conversation(record["id"])
        browser.wait(lambda d: d.execute_script(ALL_SHOWN), 60, "the long answer never showed whole")
    return (*watched_tasks(browser), trace.longest())


def longest_task(browser: Browser, model: ModelServer, answer: str) -> tuple[float, int]:
    """(the panel's longest task in ms, how many long tasks) from sending the question to
    the answer shown with its fallback."""
    panel = ChromiumPanel(browser).new_conversation()
    panel.configure(model.base_url)
    model.script(Reply(text=f"The page says:\n\n{answer}\n\nThat is all."))
    browser.driver.execute_async_script(WATCH_TASKS)
    panel.send("Quote the page")
    panel.wait_for_status("ok", timeout=120)
    browser.wait(lambda d: d.execute_script(SHOWN_AS_TEXT), 60, "the answer never showed as text")
    return watched_tasks(browser)


def watched_tasks(browser: Browser) -> tuple[float, int]:
    watched = browser.driver.execute_script(WATCHED)
    return watched["longest"] or watched["calls"], watched["count"]


LONG = "a stored answer of 1 MB of ordinary Markdown, opened"


def long_answer() -> str:
    return "\n\n".join(f"Paragraph {n} with **bold** words, `code` and a [link](https://example.com/{n}). " * 13 for n in range(1_000))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    build_checkout()
    bombs = {"a 2 KB macro bomb (\\def)": macro_bomb(), "10,000 nested braces": deep_braces(), "a 10,000-deep quote": deep_quote()}
    results = {name: [] for name in [*bombs, LONG]}
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        with ModelServer() as model:
            # A first answer with every renderer in it, not counted: what is timed is the
            # bomb, not the panel's first compile of its code.
            longest_task(browser, model, "> quoted $x^2$\n\n$$\\frac{1}{2}$$\n\n```python\nx = 1\n```\n\n" + deep_quote(20))
            for _ in range(args.runs):
                for name, answer in bombs.items():
                    results[name].append(longest_task(browser, model, answer))
                results[LONG].append(longest_task_opening(browser, long_answer()))
    finally:
        browser.quit()
        remove_profile(profile)
    print(f"\n### The panel's longest task while an answer built to break it renders ({args.runs} runs each; ms)\n")
    print("| measure | median | p95 | min–max | target |")
    print("|---|---|---|---|---|")
    for name, runs in results.items():
        long_tasks = sum(run[1] for run in runs)
        shown = "rendered in windows" if name == LONG else "shown as text with a note"
        print(row(f"{name}, {shown} ({long_tasks} long tasks ≥ 50 ms)", [run[0] for run in runs], "< 50"))
    cpu = [run[2] for run in results[LONG]]
    print(row(f"{LONG}: the longest task's CPU time, waiting for a core left out", cpu, "< 50"))


if __name__ == "__main__":
    main()
