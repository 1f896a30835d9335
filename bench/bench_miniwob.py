#!/usr/bin/env python3
"""MiniWoB++ through the whole extension: each episode is a real turn in the side panel,
scored by the task's own reward (WOB_RAW_REWARD_GLOBAL > 0 is a success, as BrowserGym counts).

The task pages come from the `miniwob` package (PyPI), served on 127.0.0.1; an episode starts
with its seed, the task's sentence is sent as the user's message, every confirmation the
agent asks for is answered "allow for this turn" (the person running the benchmark allows
the actions), and the reward is read from the page when the turn ends.

    make bench ONLY=miniwob            a scripted model that plays the right tool calls for a
                                       dozen tasks: the tools can express them, the scoring works
    python bench/bench_miniwob.py --base-url URL --model NAME [--api-key KEY] [--seeds 5]
                                       your own model on every task it ships (the full benchmark)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.chat import ask_background, configure  # noqa: E402
from tests.e2e.page_tabs import PageTabs  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.miniwob import ORACLES, PUBLISHED, episode, task_pages  # noqa: E402
from tests.helpers.model_server import ModelServer  # noqa: E402
from tests.helpers.page_server import PageServer  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="your model's endpoint; leave out for the scripted run")
    parser.add_argument("--model", default="")
    parser.add_argument("--api-key", default=os.environ.get("TABAGENT_API_KEY", ""))
    parser.add_argument("--agent", default="tool_calling", choices=["tool_calling", "code"])
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--task", action="append", help="only these tasks (repeatable)")
    args = parser.parse_args()
    scripted = not args.base_url
    html = task_pages()
    tasks = args.task or (list(ORACLES) if scripted else sorted(p.stem for p in (html / "miniwob").glob("*.html")))
    profile = fresh_profile()
    browser = Browser(profile).start()
    results: dict[str, list[float]] = {}
    notes: dict[str, str] = {}
    try:
        with ModelServer() as scripted_model, PageServer(html) as site:
            tabs = PageTabs(browser)
            if scripted:
                configure(browser, scripted_model.base_url, agent=args.agent)
            else:
                settings = {"provider": "custom", "baseUrl": args.base_url, "model": args.model, "agent": args.agent, "maxSteps": 10}
                ask_background(browser, "save-settings", settings=settings, apiKey=args.api_key)
            for task in tasks:
                for seed in range(args.seeds):
                    try:
                        reward, why = episode(tabs, site, scripted_model, task, seed, scripted, 60 if scripted else 300)
                    except Exception as error:  # a task page the harness cannot drive: counted as a failure
                        reward, why = 0.0, f"harness: {type(error).__name__}: {str(error)[:120]}"
                    results.setdefault(task, []).append(reward)
                    if reward <= 0:
                        notes[task] = why
    finally:
        browser.quit()
        remove_profile(profile)
    who = "a scripted model playing the right tool calls" if scripted else f"{args.model} at {args.base_url}"
    print(f"\n### MiniWoB++ through the extension ({who}; {args.agent} agent; {args.seeds} seed(s) each)\n")
    print("| task | success | mean reward | why it failed |")
    print("|---|---|---|---|")
    for task, rewards in results.items():
        wins = sum(r > 0 for r in rewards)
        print(f"| {task} | {wins}/{len(rewards)} | {sum(rewards) / len(rewards):.2f} | {notes.get(task, '')} |")
    episodes = [r for rewards in results.values() for r in rewards]
    rate = 100 * sum(r > 0 for r in episodes) / max(1, len(episodes))
    print(f"| **all {len(results)} tasks** | **{rate:.1f} %** | | {PUBLISHED} |")


if __name__ == "__main__":
    main()
