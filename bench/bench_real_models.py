#!/usr/bin/env python3
"""Real models on real tasks: `make bench ONLY=real-models`.

The 22 tasks of bench/real_models/tasks.py (reading, conversions, forms, menus, two tabs, on the
local pages of bench/real_models/pages/, judged by checks on the answer or on what the site was
sent), each run by every agent on each model, all through one llama.cpp server per model
(tests/helpers/llama_server.py: Qwen2.5-Coder-Instruct 0.5B and 1.5B, Q4_K_M, from `make
models`; an 8,192-token window, 2 threads) behind one meter that counts every agent's tokens
alike (real_models/meter.py):

- TabAgent's CodeAgent and ToolCallingAgent, through the whole extension in Chromium;
- smolagents' CodeAgent and ToolCallingAgent with its page-fetching tool (VisitWebpageTool), and
  browser-use's Agent on the same Chromium: the peers a user would pick instead, in their own
  environment (.venv-peers, bench/requirements-peers.txt), set up in real_models/peers.py.

Every agent: temperature 0, at most 8 steps and 512 tokens a reply (an hour a task, against a hang). It prints
a table per model (task by agent: success, steps, tokens, seconds) and a summary. Each finished
row is also appended to bench/results/real-models-rows.jsonl at once, so a run cut short keeps
what it measured; --resume skips the rows already there for this version of TabAgent (the last commit that
changed py/ or extension/).

    python bench/bench_real_models.py [--model qwen2.5-coder-0.5b] [--agent tabagent-code] [--task kettle-price] [--resume]

A whole run is long on two shared cores: run it as `nice -n 10 make bench ONLY=real-models`.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from real_models.meter import Meter  # noqa: E402
from real_models.site import Site  # noqa: E402
from real_models.tabagent import TabAgent  # noqa: E402
from real_models.tasks import TASKS, no_answer  # noqa: E402
from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.llama_server import LlamaServer, missing  # noqa: E402

sys.path.insert(0, str(ROOT / "py"))
from tabagent.app.wire import SETTINGS  # noqa: E402
from tabagent.reply_grammar import AFTER_MISREADS, HOLDS  # noqa: E402

MODELS = ("qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b")
TABAGENT = {"tabagent-code": "code", "tabagent-tool": "tool_calling"}
PEERS = ("smolagents-code", "smolagents-tool", "browser-use")
AGENTS = (*TABAGENT, *PEERS)
PEERS_PYTHON = ROOT / ".venv-peers" / "bin" / "python"
ROWS = ROOT / "bench" / "results" / "real-models-rows.jsonl"
# A task's time is not capped by the clock, which on a shared machine measures the load, not the
# agent: an hour is a guard against a hang, not a limit a run is meant to meet.
N_CTX, MAX_STEPS, MAX_TOKENS, TASK_TIMEOUT = 8192, 8, 512, 3600


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", action="append", choices=MODELS, help="only these models (repeatable)")
    parser.add_argument("--agent", action="append", choices=AGENTS, help="only these agents (repeatable)")
    parser.add_argument("--task", action="append", choices=[t.id for t in TASKS], help="only these tasks")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--resume", action="store_true", help="skip the rows of this commit already measured")
    parser.add_argument("--without-grammar", action="store_true",
                        help="the server is said not to hold replies to a schema (TabAgent then never asks it to): "
                             "the rows are kept apart, for the comparison with it")
    parser.add_argument("--hold-replies", choices=HOLDS, default=SETTINGS["hold_replies"],
                        help="TabAgent's hold_replies setting (py/tabagent/reply_grammar.py): when its "
                             "ToolCallingAgent's replies are held to a call; the rows are kept apart by it")
    parser.add_argument("--tables", metavar="VERSION", help="only print the tables of the rows kept for VERSION")
    return parser.parse_args()


def commit() -> str:
    """The agent measured: the last commit that changed TabAgent (py/, extension/), "-dirty" when
    they have changes not committed. The bench's own files may change without a new version."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    made = git("log", "-1", "--format=%h", "--", "py", "extension") or "unknown"
    return made + ("-dirty" if git("status", "--porcelain", "--", "py", "extension") else "")


def kept_rows() -> list[dict]:
    if not ROWS.exists():
        return []
    return [json.loads(line) for line in ROWS.read_text().splitlines() if line.strip()]


def keep(row: dict) -> None:
    ROWS.parent.mkdir(exist_ok=True)
    with ROWS.open("a") as rows:
        rows.write(json.dumps(row) + "\n")


def peer_run(peer: str, base_url: str, model: str, sentence: str) -> dict:
    job = {"sentence": sentence, "max_steps": MAX_STEPS, "max_tokens": MAX_TOKENS, "timeout": TASK_TIMEOUT}
    with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
        json.dump(job, file)
        file.flush()
        started = time.monotonic()
        try:
            done = subprocess.run([str(PEERS_PYTHON), str(ROOT / "bench/real_models/peers.py"), peer, base_url, model,
                                   file.name], capture_output=True, text=True, timeout=TASK_TIMEOUT + 120)
        except subprocess.TimeoutExpired:
            return {"answer": "", "steps": None, "seconds": time.monotonic() - started, "error": "timed out"}
    seconds = time.monotonic() - started
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"answer": "", "steps": None, "seconds": seconds,
                "error": f"exit {done.returncode}: {(done.stderr or done.stdout).strip()[-300:]}"}
    return {**json.loads(lines[-1]), "seconds": seconds}


def run_task(task, agent: str, model: str, model_name: str, meter: Meter, site: Site, tabagent: TabAgent,
             made: str) -> dict:
    """One task with one agent on `model` (served as `model_name`): its row, kept at once."""
    urls = [site.url(page) for page in task.pages]
    site.log.clear()
    meter.take()
    sentence = task.sentence(urls)
    if agent in TABAGENT:
        result = tabagent.run(TABAGENT[agent], sentence, urls)
    else:
        result = peer_run(agent, meter.base_url, model_name, sentence)
    tokens = meter.take()
    row = {"commit": made, "model": model, "agent": agent, "task": task.id, "kind": task.kind,
           "grammar": meter.grammar, **({"hold_replies": tabagent.settings["hold_replies"]} if agent in TABAGENT else {}),
           "success": not no_answer(result["answer"]) and bool(task.check(result["answer"], list(site.log))),
           **tokens,
           "steps": result.get("steps"), "seconds": round(result["seconds"], 1),
           "answer": str(result["answer"])[:300], "did": result.get("did", [])[:20],
           "calls": result.get("calls", [])[:20], "asked_user": result.get("asked_user", []),
           "error": result.get("error"),
           "load": round(os.getloadavg()[0], 1)}
    keep(row)
    print(f"{model} {agent} {task.id}: {'ok ' if row['success'] else 'NO '} {row['steps']} steps, "
          f"{tokens['prompt_tokens'] + tokens['completion_tokens']} tokens, {row['seconds']} s; "
          f"did {row['did']}; answer {row['answer'][:100]!r} {row['error'] or ''}", file=sys.stderr, flush=True)
    return row


def kinds_in_turn(tasks) -> list:
    """The tasks in the order they run: a task of each kind in turn (reading, conversion, form,
    menu, two tabs, reading...), so that a run cut short has measured every kind."""
    by_kind: dict[str, list] = {}
    for task in tasks:
        by_kind.setdefault(task.kind, []).append(task)
    rounds = max(len(group) for group in by_kind.values())
    return [group[n] for n in range(rounds) for group in by_kind.values() if n < len(group)]


def run_model(model: str, agents, tasks, threads: int, done: set, made: str, grammar: bool = True,
              hold_replies: str = AFTER_MISREADS) -> None:
    """Every task, each with every agent in turn (so a run cut short has compared them all on
    the tasks it reached)."""
    with LlamaServer(N_CTX, model=model, threads=threads) as llama, \
            Meter(llama.root, str(llama.file), grammar=grammar) as meter, \
            Site() as site, TabAgent(meter.base_url, llama.model, max_steps=MAX_STEPS, max_tokens=MAX_TOKENS,
                                     timeout=TASK_TIMEOUT, hold_replies=hold_replies) as tabagent:
        for task in kinds_in_turn(tasks):
            for agent in agents:
                if (agent, task.id) not in done:
                    run_task(task, agent, model, llama.model, meter, site, tabagent, made)


def cell(row: dict | None) -> str:
    if row is None:
        return "–"
    tokens = (row["prompt_tokens"] + row["completion_tokens"]) / 1000
    held = f", {row['held']} held" if row.get("held") else ""  # replies the server was asked to hold to a schema
    return (f"{'✓' if row['success'] else '✗'} {row['steps'] if row['steps'] is not None else '?'} st, "
            f"{tokens:.1f}k tok, {row['seconds']:.0f} s{held}")


def held_as(row: dict) -> str:
    """The hold_replies setting a TabAgent row ran with (rows from before 2026-12-07 have no such
    field: they held after two misreads, the only way there was); a peer's: the default's."""
    return row.get("hold_replies", AFTER_MISREADS)


def agent_as_run(row: dict) -> str:
    """The agent of a row as the tables name it: "(no grammar)" after it when the server was said
    not to hold replies (rows from before 2026-12-07 have no such field: they ran with it), and the
    hold_replies setting when it is not "after_misreads"."""
    held = "" if held_as(row) == AFTER_MISREADS else f" (held: {held_as(row)})"
    return row["agent"] + ("" if row.get("grammar", True) else " (no grammar)") + held


def tables(rows: list[dict], models, agents) -> None:
    for model in models:
        mine = {(agent_as_run(r), r["task"]): r for r in rows if r["model"] == model}
        if not mine:
            continue
        shown = [b for a in agents for b in dict.fromkeys(sorted(x for x, _ in mine if x.split(" (")[0] == a))]
        print(f"\n### {model}: per task (success, steps, tokens sent and received, seconds)\n")
        print("| task | kind | " + " | ".join(shown) + " |")
        print("|---|---|" + "---|" * len(shown))
        for task in TASKS:
            if any((a, task.id) in mine for a in shown):
                print(f"| {task.id} | {task.kind} | " + " | ".join(cell(mine.get((a, task.id))) for a in shown) + " |")
        print(f"\n### {model}: summary\n")
        print("| agent | tasks done | success | median steps | median tokens | median seconds | total minutes | load (1 min), median |")
        print("|---|---|---|---|---|---|---|---|")
        for agent in shown:
            runs = [r for (a, _), r in mine.items() if a == agent]
            wins = sum(r["success"] for r in runs)
            steps = [r["steps"] for r in runs if r["steps"] is not None]
            print(f"| {agent} | {len(runs)} | **{wins}/{len(runs)}** ({100 * wins / len(runs):.0f} %) | "
                  f"{statistics.median(steps) if steps else '?'} | "
                  f"{statistics.median(r['prompt_tokens'] + r['completion_tokens'] for r in runs):,.0f} | "
                  f"{statistics.median(r['seconds'] for r in runs):.0f} | {sum(r['seconds'] for r in runs) / 60:.0f} | "
                  f"{statistics.median(r['load'] for r in runs):.1f} |")


def main() -> None:
    # Stopped (kill, or make's Ctrl-C): the servers, the browser and the peers' browsers are
    # closed on the way out, not left running on the shared machine.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = arguments()
    models, agents = args.model or MODELS, args.agent or AGENTS
    tasks = [t for t in TASKS if not args.task or t.id in args.task]
    made = args.tables or commit()
    if args.tables:
        return tables([r for r in kept_rows() if r["commit"] == made], models, agents)
    grammar = not args.without_grammar
    earlier = [r for r in kept_rows() if r["commit"] == made and r.get("grammar", True) == grammar
               and held_as(r) == args.hold_replies] if args.resume else []
    for model in models:
        if why := missing(model):
            raise SystemExit(f"bench_real_models: {why}")
    if any(agent in PEERS for agent in agents) and not PEERS_PYTHON.exists():
        raise SystemExit("bench_real_models: .venv-peers is missing: `make bench ONLY=real-models` installs it")
    if any(agent in TABAGENT for agent in agents):
        build_checkout()
    for model in models:
        run_model(model, agents, tasks, args.threads, {(r["agent"], r["task"]) for r in earlier if r["model"] == model}, made,
                  grammar, args.hold_replies)
    this_run = [r for r in kept_rows() if r["commit"] == made and r["task"] in {t.id for t in tasks}]
    print(f"\n{len(tasks)} tasks; commit {made}; every agent at temperature 0, at most {MAX_STEPS} steps and "
          f"{MAX_TOKENS} tokens a reply, {N_CTX:,}-token window, {args.threads} threads; tokens counted by "
          f"the meter with the model's own tokenizer and template.")
    tables(this_run, models, agents)


if __name__ == "__main__":
    main()
