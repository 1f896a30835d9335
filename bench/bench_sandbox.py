#!/usr/bin/env python3
"""The sandbox that runs a CodeAgent's code, timed in real headless Chromium.

Times are taken inside the offscreen document (performance.now), so the DevTools
connection that drives the benchmark is not counted:
- `print(1)` in a warm sandbox: CodeSandbox.run to its result;
- a tool call: sandboxed code calling a tool in the parent and getting its answer, for a
  JavaScript tool given to CodeSandbox.run and for a Python tool through SandboxExecutor
  (the path a CodeAgent takes): a run making CALLS calls, less a run making none, over CALLS;
- after a timeout: from the timed-out run's result to the next `print(1)` done (on the
  spare), and the new spare's own start-up in the background;
- Stop: from CodeSandbox.stop() on code that never ends to its result;
- while code spins in the sandbox: a message from the panel through the service worker to
  the offscreen document and back (timed in the panel).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402

CALLS = 20
CALLING = f"for i in range({CALLS}):\n    x = add(i, 1)"

PING = """
const done = arguments[arguments.length - 1];
chrome.runtime.sendMessage({ target: "background", type: "ping" }).then(done, (e) => done({ ok: false, error: String(e) }));
"""

TIMED_RUNS = """(async () => {
  const sandbox = globalThis.tabagent.sandbox;
  const tools = [{ name: "add", doc: "", params: [{ name: "a", required: true }, { name: "b", required: true }] }];
  const onToolCall = async (_name, argsJson) => {
    const { args: [a, b] } = JSON.parse(argsJson);
    return JSON.stringify({ ok: true, value: a + b });
  };
  const time = async (code, options) => {
    const started = performance.now();
    const result = await sandbox.run(code, options);
    if (result.isError) throw new Error(result.output);
    return performance.now() - started;
  };
  const print = [], bare = [], call = [];
  for (let i = 0; i < RUNS; i++) {
    print.push(await time("print(1)"));
    bare.push(await time("x = 1 + 2", { tools, onToolCall }));
    call.push(await time(CALLING, { tools, onToolCall }));
  }
  return { print, bare, call };
})()"""

PYTHON_TOOL_RUNS = """
import json, time
from tabagent import tool
from tabagent.app.sandbox_executor import SandboxExecutor

@tool
def add(a: int, b: int) -> int:
    \"\"\"Adds.

    Args:
        a: One.
        b: The other.
    \"\"\"
    return a + b

executor = SandboxExecutor(sandbox_for("bench"))
bare, call = [], []
for _ in range(RUNS):
    for code, times in (("x = 1 + 2", bare), (CALLING, call)):
        started = time.perf_counter()
        result = await executor.run(code, {"add": add})
        assert not result.is_error, result.output
        times.append((time.perf_counter() - started) * 1000)
json.dumps({"bare": bare, "call": call})
"""

AFTER_TIMEOUT = """(async () => {
  const sandbox = globalThis.tabagent.sandbox;
  const stopped = await sandbox.run("while True: pass", { timeoutMs: 300 });
  if (stopped.stopped !== "timeout") throw new Error(JSON.stringify(stopped));
  const started = performance.now();
  await sandbox.run("print(1)");
  const nextMs = performance.now() - started;
  const spareFrom = performance.now();
  while (globalThis.tabagentDebug.sandboxStatus(sandbox).spare !== "ready") await new Promise((resolve) => setTimeout(resolve, 10));
  return { nextMs, spareMs: performance.now() - spareFrom + nextMs };
})()"""


STOP = """(async () => {
  const sandbox = globalThis.tabagent.sandbox;
  const running = sandbox.run("while True: pass");
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = performance.now();
  sandbox.stop();
  const result = await running;
  if (result.stopped !== "stopped") throw new Error(JSON.stringify(result));
  return performance.now() - started;
})()"""

TIMED_PING = """
const done = arguments[arguments.length - 1];
const started = performance.now();
chrome.runtime.sendMessage({ target: "background", type: "ping" }).then(
  (reply) => done(reply.ok ? performance.now() - started : null), () => done(null));
"""

SPIN = """(async () => {
  const sandbox = globalThis.tabagent.sandbox;
  globalThis.spinning = sandbox.run("while True: pass", { timeoutMs: 60000 });
  await new Promise((resolve) => setTimeout(resolve, 300));
})()"""

END_SPIN = "(async () => { globalThis.tabagent.sandbox.stop(); await globalThis.spinning; })()"


def offscreen(browser: Browser) -> dict:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for target in browser.extension_targets():
            if target["url"].endswith("extension/offscreen/offscreen.html"):
                return target
        time.sleep(0.1)
    raise RuntimeError("the offscreen document never appeared")


def in_python(browser: Browser, target: dict, code: str):
    return browser.evaluate_in(target, f"""(async () => {{
        const {{ run }} = await globalThis.tabagent.python;
        return await run({json.dumps(code)}, () => globalThis.tabagent.sandbox);
    }})()""", timeout=300)


def wait_for_spare(browser: Browser, target: dict) -> None:
    browser.evaluate_in(target, """(async () => {
        while (globalThis.tabagentDebug.sandboxStatus(globalThis.tabagent.sandbox).spare !== "ready") await new Promise((r) => setTimeout(r, 20));
    })()""", timeout=120)


def row(label: str, values: list[float], target: str = "") -> str:
    ordered = sorted(values)
    return f"| {label} | {statistics.median(ordered):.1f} | {ordered[0]:.1f}–{ordered[-1]:.1f} | {target} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30, help="runs of each quick measure")
    parser.add_argument("--timeouts", type=int, default=5, help="timed-out runs")
    args = parser.parse_args()
    build_checkout()
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        browser.open_side_panel()
        assert browser.driver.execute_async_script(PING)["ok"]
        target = offscreen(browser)
        browser.expose_offscreen_for_tests(target)
        boot = browser.evaluate_in(target, "globalThis.tabagent.sandbox.prepare()", timeout=120)
        wait_for_spare(browser, target)
        browser.evaluate_in(target, TIMED_RUNS.replace("RUNS", "3").replace("CALLING", json.dumps(CALLING)), timeout=120)  # warm up
        js_runs = browser.evaluate_in(target, TIMED_RUNS.replace("RUNS", str(args.runs)).replace("CALLING", json.dumps(CALLING)), timeout=300)
        py_runs = json.loads(in_python(browser, target, PYTHON_TOOL_RUNS.replace("RUNS", str(args.runs)).replace("CALLING", repr(CALLING))))
        after = []
        for _ in range(args.timeouts):
            wait_for_spare(browser, target)
            after.append(browser.evaluate_in(target, AFTER_TIMEOUT, timeout=120))
        stops, pings = [], []
        for _ in range(args.timeouts):
            wait_for_spare(browser, target)
            stops.append(browser.evaluate_in(target, STOP, timeout=120))
        wait_for_spare(browser, target)
        browser.evaluate_in(target, SPIN, timeout=120)
        pings = [browser.driver.execute_async_script(TIMED_PING) for _ in range(args.runs)]
        browser.evaluate_in(target, END_SPIN, timeout=120)
        if None in pings:
            raise RuntimeError("the extension did not answer while code was spinning")
    finally:
        browser.quit()
        remove_profile(profile)

    def per_call(with_calls, without):  # a run's own cost taken out, pairwise
        return [(a - b) / CALLS for a, b in zip(with_calls, without)]

    print(f"\n### The sandbox ({args.runs} runs each, {args.timeouts} timeouts; ms)\n")
    print(f"Sandbox start-up (worker, from the snapshot): {boot['startupMs']} ms.\n")
    print("| measure | median | min–max | target |")
    print("|---|---|---|---|")
    print(row("`print(1)` round trip, warm sandbox", js_runs["print"], "< 20"))
    print(row("tool call round trip, JavaScript tool", per_call(js_runs["call"], js_runs["bare"]), "< 30"))
    print(row("tool call round trip, Python tool (SandboxExecutor)", per_call(py_runs["call"], py_runs["bare"]), "< 30"))
    print(row("run without tool calls (SandboxExecutor)", py_runs["bare"]))
    print(row("timeout → next execution done (on the spare)", [a["nextMs"] for a in after], "< 1000"))
    print(row("timeout → new spare ready (background)", [a["spareMs"] for a in after]))
    print(row("Stop → result, code that never ends", stops, "< 100"))
    print(row("panel → offscreen → panel message, while code spins", pings, "< 200"))


if __name__ == "__main__":
    main()
