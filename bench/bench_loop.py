"""Per-step overhead of the agent loop, with a model that answers instantly.

What is timed is everything the framework does in a step: building the messages,
reading the action from the reply, validating arguments, running a trivial tool (or
compiling and running a line of code), recording memory, and emitting events to a
sink that serialises each one to JSON (as the extension's does). The model costs
nothing, so the numbers are the loop's own cost.

    python bench/bench_loop.py [--runs 200] [--steps 10]

bench/bench_loop_pyodide.mjs runs this same file inside Pyodide under Node.js.
Prints a Markdown table: median and spread (p10/p90, min/max) of a step, in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import statistics
import sys
import time
from pathlib import Path

if "tabagent" not in sys.modules:  # run from a checkout: the package lives in py/
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from tabagent import CodeAgent, ModelReply, ToolCall, ToolCallingAgent, tool  # noqa: E402
from tabagent.testing import ScriptedModel  # noqa: E402


@tool
def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: The first.
        b: The second.
    """
    return a + b


def tool_calling_replies(steps: int, calls_per_step: int = 1):
    """A model that calls `add` until the last step, then answers."""
    def reply(messages):
        step = sum(1 for m in messages if m["role"] == "assistant")
        if step + 1 >= steps:
            return ModelReply(tool_calls=[ToolCall(f"f{step}", "final_answer", '{"answer": "done"}')])
        # Other arguments each step: the same call again would be told, not run (call_log.py).
        return ModelReply(tool_calls=[ToolCall(f"c{step}.{i}", "add", f'{{"a": {step}, "b": {i}}}')
                                      for i in range(calls_per_step)])
    return reply


def code_replies(steps: int):
    def reply(messages):
        done = sum(1 for m in messages if m["role"] == "user") - 1  # minus the task
        if done + 1 >= steps:
            return ModelReply(content="```python\nfinal_answer(x)\n```")
        return ModelReply(content=f"```python\nx = add({done}, 2)\nprint(x)\n```")
    return reply


async def measure(kind: str, runs: int, steps: int) -> list[float]:
    """Durations of single steps in ms: from one step_start to the next (or to done)."""
    durations: list[float] = []
    last = [0.0]

    def listener(event):
        if event.kind in ("step_start", "done"):
            now = time.perf_counter()
            if event.step > 1 or event.kind == "done":
                durations.append((now - last[0]) * 1000)
            last[0] = now

    for run in range(runs + 1):
        if kind == "CodeAgent":
            agent = CodeAgent(ScriptedModel(code_replies(steps)), [add], max_steps=steps)
        else:
            calls = 2 if "parallel" in kind else 1
            agent = ToolCallingAgent(ScriptedModel(tool_calling_replies(steps, calls)), [add],
                                     max_steps=steps)
        # Like the extension's sink, serialise every event (it posts them as JSON).
        agent.listeners.append(lambda event: event.to_json())
        if run == 0:  # warm-up: imports, first compilations
            await agent.run("warm up")
            continue
        agent.listeners.append(listener)
        answer = await agent.run("Add 1 and 2 again and again.")
        assert answer == "done" or isinstance(answer, int), answer  # the CodeAgent answers its last sum
    return durations


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def table(rows: list[tuple[str, list[float]]], interpreter: str) -> str:
    lines = [f"Per-step overhead of the agent loop, {interpreter} (ms, instant scripted model)", "",
             "| loop | steps | median | p10 | p90 | min | max |",
             "|------|------:|-------:|----:|----:|----:|----:|"]
    for name, values in rows:
        lines.append(f"| {name} | {len(values)} | {statistics.median(values):.3f} | "
                     f"{percentile(values, 10):.3f} | {percentile(values, 90):.3f} | "
                     f"{min(values):.3f} | {max(values):.3f} |")
    return "\n".join(lines)


async def main_async(runs: int = 200, steps: int = 10, interpreter: str | None = None) -> str:
    interpreter = interpreter or f"{platform.python_implementation()} {platform.python_version()}"
    kinds = ("ToolCallingAgent", "ToolCallingAgent, 2 parallel calls", "CodeAgent")
    rows = [(kind, await measure(kind, runs, steps)) for kind in kinds]
    report = table(rows, interpreter)
    print(report)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="agent runs per loop kind")
    parser.add_argument("--steps", type=int, default=10, help="steps per run (the last one answers)")
    args = parser.parse_args()
    asyncio.run(main_async(args.runs, args.steps))


if __name__ == "__main__":
    main()
