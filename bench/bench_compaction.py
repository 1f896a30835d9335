"""Time to compact a 200-step conversation so that it fits an 8,192-token window.

The conversation is what a long session leaves: 200 steps of a ToolCallingAgent, each a
thought and a tool call, every fifth a page read of about 8,000 characters (marked as page
content), the others results of about 600 characters; about 500,000 characters in all.
Timed: counting its tokens and compacting it (notes for old results, a summary of older
steps), as the agent does before a request that would not fit. Each run compacts a fresh
copy of the memory (copied outside the timing).

    python bench/bench_compaction.py [--runs 30] [--steps 200]

bench/bench_compaction_pyodide.mjs runs this same file inside Pyodide under Node.js, the
interpreter the extension runs the agent in. Target: under 50 ms there.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

if "tabagent" not in sys.modules:  # run from a checkout: the package lives in py/
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from tabagent.compaction import compact  # noqa: E402
from tabagent.context_window import ContextWindow  # noqa: E402
from tabagent.memory import ActionStep, Memory, TaskStep  # noqa: E402
from tabagent.app.untrusted_content import untrusted  # noqa: E402
from tabagent.tokens import count_messages  # noqa: E402

WORDS = ("river bakery library council train mountain harbour village school chapter note "
         "opened painted welcomed records timetable storm autumn winter visitors valleys").split()


def prose(chars: int, seed: int) -> str:
    words, total, i = [], 0, seed
    while total < chars:
        word = WORDS[(i * 7 + seed) % len(WORDS)]
        words.append(word + ("." if i % 11 == 10 else ""))
        total += len(word) + 1
        i += 1
    return " ".join(words)


def conversation(steps: int) -> str:
    memory = Memory([TaskStep("Go through these pages and tell me what changed in each chapter.")])
    for n in range(1, steps + 1):
        page = n % 5 == 0
        name, args = ("read_page", f'{{"page": {n // 5}}}') if page else ("find_in_page", f'{{"query": "note {n}"}}')
        result = untrusted("https://example.org/chronicle", prose(8000, n)) if page else prose(600, n)
        memory.append(ActionStep(n, model_output=prose(200, n + 1000),
                                 tool_calls=[{"id": f"c{n}", "name": name, "arguments": args}],
                                 observations=[{"id": f"c{n}", "name": name, "content": result,
                                                "is_error": False}]))
    return memory.to_json()


def measure(runs: int, steps: int, window: ContextWindow) -> tuple[list[float], dict]:
    saved = conversation(steps)
    system = {"role": "system", "content": prose(4000, 7)}
    fixed = count_messages([system])
    durations, report = [], None
    for run in range(runs + 1):
        memory = Memory.from_json(saved)
        started = time.perf_counter()
        report = compact(memory, fixed, window.budget)
        elapsed = (time.perf_counter() - started) * 1000
        if run:  # the first run warms up
            durations.append(elapsed)
    return durations, {"before": report.before, "after": report.after,
                       "dropped": len(report.dropped), "summarised": report.summarised,
                       "chars": sum(len(m.get("content") or "") for m in Memory.from_json(saved).to_messages(""))}


def table(durations: list[float], facts: dict, where: str, steps: int) -> str:
    q = statistics.quantiles(durations, n=10)
    return "\n".join([
        f"Compacting a {steps}-step conversation ({facts['chars']:,} characters, about "
        f"{facts['before']:,} tokens) to fit 8,192 tokens: {where}",
        f"{facts['dropped']} results dropped, {facts['summarised']} steps summarised, "
        f"about {facts['after']:,} tokens after. Target: under 50 ms in Pyodide.",
        "",
        "| what | runs | median ms | p10 | p90 | min | max |",
        "|---|---|---|---|---|---|---|",
        f"| count and compact | {len(durations)} | {statistics.median(durations):.1f} | {q[0]:.1f} | "
        f"{q[-1]:.1f} | {min(durations):.1f} | {max(durations):.1f} |",
    ])


def main(runs: int = 30, steps: int = 200, where: str = "") -> None:
    durations, facts = measure(runs, steps, ContextWindow(8192, "bench"))
    where = where or f"CPython {platform.python_version()}"
    print(table(durations, facts, where, steps), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--steps", type=int, default=200)
    options = parser.parse_args()
    main(options.runs, options.steps)
