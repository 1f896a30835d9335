#!/usr/bin/env python3
"""What each request costs a model with a small window (issue 37), counted with real tokenizers
(o200k; Llama 3's and Qwen 3's beside it: tests/helpers/real_tokens.py):

- the first request of each agent (system prompt, tool schemas, in all), with the page tools and
  the user tools as the extension has them, at windows of 4,096 / 8,192 / 32,768 / 131,072;
- the five-step page task (tests/helpers/five_step_task.py: read an article, list the controls,
  click, type, answer from the article) through each agent at each window: whether it ended with
  the article's answer, and the input tokens of all its requests;
- the token estimate (tokens.py) against the real count on those requests.

Beside them, the anchors' first requests measured from their own prompts (o200k), and the
targets. The model is scripted and taken not to see images (no screenshot tool), as a small
local model is.

    python bench/bench_windows.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py")]

from tabagent.app.turns import Turns  # noqa: E402
from tabagent.app.user_tools import load_user_tools  # noqa: E402
from tabagent.testing import ScriptedModel  # noqa: E402
from tabagent.tokens import count_messages  # noqa: E402

from tests.helpers.five_step_task import TASK, PageBridge, ScriptedReader, article  # noqa: E402
from tests.helpers.real_tokens import count_request, count_text, count_tools  # noqa: E402

WINDOWS = (4096, 8192, 32_768, 131_072)
AGENTS = {"tool_calling": "ToolCallingAgent", "code": "CodeAgent"}
ANCHORS = [("browser-use (default prompt and actions)", 9552), ("browser-use (flash)", 4813),
           ("Nanobrowser", 4600), ("smolagents ToolCallingAgent, the same 25 tools", 7018),
           ("smolagents CodeAgent, the same 25 tools", 4176)]
TARGETS = {"full": 3000, "compact": 1800}  # the ToolCallingAgent's first request, o200k


def settings(kind: str, window: int) -> dict:
    return {"agent": kind, "context_window": window, "base_url": "http://127.0.0.1:9/v1", "max_steps": 8}


async def first_request(kind: str, window: int) -> dict:
    model = ScriptedModel(["Done."])
    tools, _ = load_user_tools()
    await Turns().run({"conversation_id": "bench", "task": TASK, "settings": settings(kind, window)}, lambda e: None,
                      model=model, page=PageBridge(article(1)[0]), tools=tools)
    return model.calls[0]


async def five_steps(kind: str, window: int, seed: int) -> tuple[bool, list[dict]]:
    markdown, engineer, year = article(seed)
    model, events = ScriptedReader(kind), []
    await Turns().run({"conversation_id": "bench", "task": TASK, "settings": settings(kind, window)}, events.append,
                      model=model, page=PageBridge(markdown))
    answers = [e["data"].get("answer") for e in events if e["kind"] == "final_answer"]
    return answers == [f"It opened in {year}."], model.requests


def first_rows() -> list[str]:
    rows = []
    for kind, label in AGENTS.items():
        for window in WINDOWS:
            sent = asyncio.run(first_request(kind, window))
            system = count_text(sent["messages"][0]["content"])
            tools, total = count_tools(sent["tools"]), count_request(sent["messages"], sent["tools"])
            listed = len(sent["tools"] or []) or sent["messages"][0]["content"].count("\ndef ")
            target = ""
            if kind == "tool_calling":
                which = "compact" if window <= 16_384 else "full"
                target = f"≤ {TARGETS[which]:,} ({which}) {'✓' if total <= TARGETS[which] else '✗'}"
            rows.append(f"| {label} | {window:,} | {listed} | {system:,} | {tools:,} | {total:,} | "
                        f"{count_messages(sent['messages'], sent['tools']):,} | {target} |")
    return rows


def task_rows() -> tuple[list[str], list[float]]:
    rows, errors = [], []
    for kind, label in AGENTS.items():
        for window in WINDOWS:
            done, requests = asyncio.run(five_steps(kind, window, seed=window))
            real = [count_request(r["messages"], r["tools"]) for r in requests]
            estimated = [count_messages(r["messages"], r["tools"]) for r in requests]
            errors += [e / r - 1 for e, r in zip(estimated, real)]
            largest = max(real) if real else 0
            rows.append(f"| {label} | {window:,} | {'yes, from the article' if done else 'NO'} | {len(requests)} | "
                        f"{sum(real):,} | {largest:,} | {window - min(4096, max(256, window // 8)):,} |")
    return rows, errors


def main() -> None:
    print("\n### First request, counted with o200k (tokens)\n")
    print("| agent | window | tools listed | system | tools | total | estimate (tokens.py) | target |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(first_rows()))
    print("\nAnchors, their first request measured from their own prompts (o200k):\n")
    print("| anchor | first request |")
    print("|---|---|")
    print("\n".join(f"| {name} | {tokens:,} |" for name, tokens in ANCHORS))
    rows, errors = task_rows()
    print("\n### The five-step page task (read, list controls, click, type, answer), o200k\n")
    print("| agent | window | completed | requests | input tokens, all requests | largest request | a request may hold |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"\nThe estimate (tokens.py) on these {len(errors)} requests: from {min(errors):+.1%} to "
          f"{max(errors):+.1%} of o200k's count (target: within 5%).")


if __name__ == "__main__":
    main()
