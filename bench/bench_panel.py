#!/usr/bin/env python3
"""The side panel's speed, in real headless Chromium against the scripted model server.

- token to DOM: from the model server writing a token to the socket to that token being in
  the panel's DOM (both clocks are this machine's wall clock), over streamed replies; again
  with a reasoning stream in front of the answer (its thoughts into the Thinking block, then
  the answer's tokens into the reply);
- the same over a 2,000-token answer with code, rendered live as Markdown and highlighted,
  and that time in its two parts: until the offscreen document sends the token on (the fetch,
  Python, batching) and from there into the panel's DOM (messaging and the panel's work);
- open a long conversation: a stored conversation of 200 steps (each with a streamed
  thought, a tool call and its result) read from chrome.storage and rendered, layout included.

The harness keeps out of the way while a reply streams: the panel is the only one open (each
run's panel tab is closed after it: an open one still takes every broadcast) and the end of
the turn is awaited in the page, not polled over WebDriver (each poll runs script on the
extension's renderer thread, which the panel and the offscreen document share; the agent's
Python runs beside it, in the offscreen document's worker). Who holds that thread while the
answer streams: bench/profile_panel_thread.py.

The load the targets hold under is the load CI has: CI runs one pytest, with one browser, at a
time, on 2 cores, so one busy process beside the bench is the closest analogue (`--busy 1`,
each a `while True: pass` Python process, started before the browser and stopped after it);
`--busy 2` (both cores taken) is reported too. The table's header says how many ran and the
machine's load average at the end, since other work on the machine loads it as well.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.panel_backends import ChromiumPanel  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.model_server import ModelServer, Reply  # noqa: E402
from bench_sandbox import offscreen as offscreen_target  # noqa: E402

WATCH_TOKENS = """
window.seenTokens = {};
// Only what each mutation adds is read (not the whole reply again), so the observer's own
// cost does not grow with the reply and blur the measure.
new MutationObserver((records) => {
  const now = Date.now();
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (!node.parentElement?.closest(".step .reply, .step .thinking-text") && !node.querySelector?.(".reply")) continue;
      for (const word of node.textContent.split(" ")) if (word && !(word in seenTokens)) seenTokens[word] = now;
    }
  }
}).observe(document.getElementById("conversation"), { childList: true, subtree: true });
"""


# Resolves once the last turn has ended, watched in the page rather than polled from here.
TURN_ENDED = """
const done = arguments[arguments.length - 1];
const ended = () => { const status = [...document.querySelectorAll("article.turn")].at(-1)?.dataset.status; return status && status !== "running" && status; };
if (ended()) done(ended());
else new MutationObserver((_, observer) => { if (ended()) { observer.disconnect(); done(ended()); } })
  .observe(document.getElementById("conversation"), { subtree: true, attributes: true, attributeFilter: ["data-status"] });
"""

# When the offscreen document sends each token on (Date.now(), the clock the panel's DOM times
# are read on), recorded by wrapping its sendMessage from outside, over DevTools.
STAMP_SENDS = """(() => {
  globalThis.tokensSentAt = {};
  if (globalThis.stampingSends) return;
  globalThis.stampingSends = true;
  const sendMessage = chrome.runtime.sendMessage.bind(chrome.runtime);
  chrome.runtime.sendMessage = (message, ...rest) => {
    const now = Date.now();
    for (const event of message?.events ?? []) {
      for (const word of String(event?.data?.text ?? "").split(/\\s+/)) if (word && !(word in tokensSentAt)) tokensSentAt[word] = now;
    }
    return sendMessage(message, ...rest);
  };
})()"""


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def answer_with_code(run: int, tokens: int) -> tuple[list[str], list[str]]:
    """A Markdown answer of `tokens` measured words: paragraphs, a list, and every fifth
    block a Python code block (so the live renderer highlights as it streams). Returns the
    streamed pieces and the measured words."""
    pieces, words = [], []
    block = 0
    while len(words) < tokens:
        block += 1
        kind = "code" if block % 5 == 0 else "list" if block % 5 == 3 else "text"
        pieces += ["```python\n"] if kind == "code" else []
        for line in range(6 if kind == "code" else 3):
            if kind == "code":
                pieces += ["def ", f"f{block}_{line}(x):\n", "    return ", "x ", "+ "]
            elif kind == "list":
                pieces.append("- ")
            for _ in range(6):
                word = f"r{run}t{len(words)}"
                words.append(word)
                pieces += [f"{word} "] if kind != "code" else [f"{word} ", "+ "]
            pieces.append("1\n" if kind == "code" else "\n")
        pieces.append("```\n\n" if kind == "code" else "\n")
    return pieces, words


# The panel's own work per live batch (apply the events, render the Markdown), apart from the
# messaging before it: what the renderer costs, whatever the machine's load does to the rest.
# The panel's module, imported again by its URL, is the very instance the panel runs.
TIME_BATCHES = """
const done = arguments[arguments.length - 1];
import(chrome.runtime.getURL("extension/sidepanel/sidepanel.js")).then(() => {
  const view = globalThis.tabagentDebug.conversation;
  window.batchTimes = [];
  const apply = view.applyBatch.bind(view);
  view.applyBatch = (batch) => { const start = performance.now(); apply(batch); window.batchTimes.push(performance.now() - start); };
  done();
});
"""


PING = """
const done = arguments[arguments.length - 1];
chrome.runtime.sendMessage({ target: "background", type: "ping" }).then(done, (e) => done({ ok: false, error: String(e) }));
"""


def offscreen(browser: Browser) -> dict:
    """The offscreen document's target (the ping starts it, if it was not running)."""
    if not browser.driver.execute_async_script(PING).get("ok"):
        raise RuntimeError("the extension did not answer a ping")
    return offscreen_target(browser)


def panel_alone(browser: Browser) -> ChromiumPanel:
    """A fresh side panel, with every other tab closed."""
    panel = ChromiumPanel(browser).new_conversation()
    current = browser.driver.current_window_handle
    for handle in browser.driver.window_handles:
        if handle != current:
            browser.driver.switch_to.window(handle)
            browser.driver.close()
    browser.driver.switch_to.window(current)
    return panel


def token_latencies(browser: Browser, model: ModelServer, runs: int, tokens: int,
                    thoughts: int = 0, with_code: bool = False,
                    batch_times: list | None = None, parts: dict | None = None) -> tuple[list[float], list[float]]:
    """(answer token latencies, reasoning token latencies) in ms; `thoughts` reasoning
    tokens stream before the answer's `tokens`; `with_code` streams a Markdown answer with code;
    `parts` gets each answer token's time to the offscreen document's send and from it to the DOM."""
    sent: dict[str, float] = {}

    def on_sent(data: str, _monotonic: float) -> None:
        if data.startswith("{"):
            for choice in json.loads(data).get("choices", []):
                delta = choice.get("delta") or {}
                piece = delta.get("content") or delta.get("reasoning_content") or ""
                if piece.strip():
                    sent[piece.strip()] = time.time() * 1000

    model.on_sent(on_sent)
    latencies, thought_latencies = [], []
    for run in range(runs):
        panel = panel_alone(browser)
        panel.configure(model.base_url)
        browser.evaluate_in(offscreen(browser), STAMP_SENDS)
        browser.driver.execute_script(WATCH_TOKENS)
        thought_words = [f"r{run}th{i}" for i in range(thoughts)]
        reasoning = " ".join(thought_words)
        browser.driver.execute_async_script(TIME_BATCHES)
        if with_code:
            pieces, words = answer_with_code(run, tokens)
            model.script(Reply(text="".join(pieces), pieces=pieces, reasoning=reasoning, token_delay=0.01))
        else:
            words = [f"r{run}t{i}" for i in range(tokens)]
            model.script(Reply(text=" ".join(words), reasoning=reasoning, token_delay=0.02))
        panel.send(f"Stream {tokens} tokens")
        browser.driver.set_script_timeout(300)
        if (status := browser.driver.execute_async_script(TURN_ENDED)) != "ok":
            raise RuntimeError(f"the streamed turn ended {status}")
        seen = browser.driver.execute_script("return window.seenTokens")
        if parts is not None:
            handed_on = browser.evaluate_in(offscreen(browser), "globalThis.tokensSentAt")
            timed = [w for w in words if w in seen and w in sent and w in handed_on]
            parts.setdefault("to_offscreen_send", []).extend(handed_on[w] - sent[w] for w in timed)
            parts.setdefault("send_to_dom", []).extend(seen[w] - handed_on[w] for w in timed)
        if batch_times is not None:
            batch_times += browser.driver.execute_script("return window.batchTimes")
        latencies += [seen[w] - sent[w] for w in words if w in seen and w in sent]
        thought_latencies += [seen[w] - sent[w] for w in thought_words if w in seen and w in sent]
    return latencies, thought_latencies


def long_conversation(steps: int) -> dict:
    events, seq = [], 0

    def event(kind, step, data):
        nonlocal seq
        seq += 1
        events.append({"kind": kind, "conversation_id": "bench", "agent": "TabAgent", "depth": 0, "step": step,
                       "seq": seq, "time": time.time(), "data": data})

    for step in range(1, steps + 1):
        event("step_start", step, {})
        event("token", step, {"text": f"Thought {step}: I will look at part {step} of the page to find the figure. " * 3})
        event("tool_call", step, {"id": f"c{step}", "name": "read_page", "arguments": {"page": step}})
        event("tool_result", step, {"id": f"c{step}", "name": "read_page", "result": f"Part {step}: " + "lorem ipsum " * 80, "is_error": False})
    event("final_answer", steps, {"answer": "The figure is **42**."})
    event("done", steps, {"status": "ok", "steps": steps, "usage": {}})
    now = time.time() * 1000
    conversation_id = str(uuid.uuid4())
    return {"id": conversation_id, "title": f"{steps} steps", "createdAt": now, "updatedAt": now, "memory": None,
            "turns": [{"id": "t1", "text": "Find the figure", "context": None, "startedAt": now, "status": "ok", "events": events}]}


OPEN = """
const [record, done] = arguments;
(async () => {
  const index = (await chrome.storage.local.get("conversations")).conversations ?? {};
  index[record.id] = { id: record.id, title: record.title, createdAt: record.createdAt, updatedAt: record.updatedAt };
  await chrome.storage.local.set({ ["conversation:" + record.id]: record, conversations: index });
  // A view of the benchmark's own, on the panel's conversation element: the panel keeps its
  // views to itself.
  const { ConversationView } = await import(chrome.runtime.getURL("extension/sidepanel/conversation-view.js"));
  const view = new ConversationView(document.getElementById("conversation"), { onRunningChange() {} });
  const times = [];
  for (let i = 0; i < 7; i++) {
    view.showEmpty();
    await new Promise((r) => setTimeout(r, 50));
    const start = performance.now();
    await view.open(record.id);
    document.body.offsetHeight; // include style and layout
    times.push(performance.now() - start);
  }
  done(times);
})();
"""


def open_times(browser: Browser, steps: int) -> list[float]:
    ChromiumPanel(browser).new_conversation()
    return browser.driver.execute_async_script(OPEN, long_conversation(steps))


def row(label, values, target):
    return f"| {label} | {statistics.median(values):.1f} | {percentile(values, 0.95):.1f} | {min(values):.1f}–{max(values):.1f} | {target} |"


def busy_processes(count: int) -> list[subprocess.Popen]:
    """`count` processes that each keep a core busy: the load the bench is asked to hold under."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def measure(args) -> dict:
    results: dict = {"batches": [], "parts": {}}
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        with ModelServer() as model:
            if not args.markdown_only:
                results["latencies"], _ = token_latencies(browser, model, args.runs, args.tokens)
                results["after_thoughts"], results["thoughts"] = token_latencies(browser, model, args.runs, args.tokens, args.tokens)
            results["markdown"], _ = token_latencies(browser, model, 1, 2000, with_code=True,
                                                     batch_times=results["batches"], parts=results["parts"])
        if not args.markdown_only:
            results["opening"] = open_times(browser, 200)
        results["load"] = os.getloadavg()  # before the busy processes stop
    finally:
        browser.quit()
        remove_profile(profile)
    return results


def print_table(args, results: dict) -> None:
    load = ", ".join(f"{value:.1f}" for value in results["load"])
    measured = "the live-Markdown rows" if args.markdown_only else f"{args.runs} streamed replies of {args.tokens} tokens; 7 opens"
    print(f"\n### Side panel ({measured}; ms; {args.busy} busy process(es) beside it, "
          f"load average (1, 5, 15 min) at the end {load})\n")
    print("| measure | median | p95 | min–max | target |")
    print("|---|---|---|---|---|")
    if not args.markdown_only:
        print(row("model server sends a token → token in the panel's DOM", results["latencies"], "p95 < 30"))
        print(row("… a reasoning token → in the Thinking block", results["thoughts"], "p95 < 30"))
        print(row("… an answer token after a reasoning stream → in the DOM", results["after_thoughts"], "p95 < 30"))
    markdown, parts, batches = results["markdown"], results["parts"], results["batches"]
    print(row(f"the same, a 2,000-token answer with code: live Markdown + highlighting ({len(markdown)} tokens)", markdown, "p95 < 30"))
    print(row("… of that: model server → the offscreen document sends it on (fetch, Python, batching)", parts["to_offscreen_send"], ""))
    print(row("… of that: the offscreen document sends it on → in the panel's DOM (messaging, panel)", parts["send_to_dom"], ""))
    print(row(f"the panel's work per live batch of that answer: apply + render ({len(batches)} batches)", batches, "p95 < 30"))
    if not args.markdown_only:
        print(row("open a stored conversation of 200 steps (read + render + layout)", results["opening"], "< 150"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=150)
    parser.add_argument("--busy", type=int, default=0, help="busy processes beside the bench (CI's load: 1)")
    parser.add_argument("--markdown-only", action="store_true", help="only the live-Markdown rows")
    args = parser.parse_args()
    build_checkout()
    busy = busy_processes(args.busy)
    try:
        results = measure(args)
    finally:
        for process in busy:
            process.kill()
    print_table(args, results)


if __name__ == "__main__":
    main()
