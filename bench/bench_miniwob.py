#!/usr/bin/env python3
"""MiniWoB++ through the whole extension: each episode is a real turn in the side panel,
scored by the task's own reward (WOB_RAW_REWARD_GLOBAL > 0 is a success, as BrowserGym counts).

The task pages come from the `miniwob` package (PyPI), served on 127.0.0.1 and shown in front in
their own window (the panel in another, as a side panel sits beside the page, so screenshots
work); an episode starts with its seed, the task's sentence is sent as the user's message,
every confirmation the agent asks for is answered "allow for this turn" (the person running the
benchmark allows the actions), and the reward is read from the page when the turn ends.

    make bench ONLY=miniwob            a scripted "perfect model" (tests/helpers/miniwob_policies.py)
                                       that decides each call only from what the tools return,
                                       on every task it has a policy for, 3 seeds each
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

from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.panel_backends import ChromiumPanel  # noqa: E402
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.miniwob_episode import PUBLISHED, episode, task_pages  # noqa: E402
from tests.helpers.miniwob_policies import HAND_BACK, POLICIES  # noqa: E402
from tests.helpers.page_server import PageServer  # noqa: E402
from tests.helpers.tool_model import ToolModel  # noqa: E402

SCRIPTED_STEPS = 30  # guess-number's search takes up to 17 calls
# The scripted model is offered every tool ("full"), as a model with a large window is; "auto"
# would list the compact set, the window of an endpoint that does not say being small.


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="your model's endpoint; leave out for the scripted run")
    parser.add_argument("--model", default="")
    parser.add_argument("--api-key", default=os.environ.get("TABAGENT_API_KEY", ""))
    parser.add_argument("--agent", default="tool_calling", choices=["tool_calling", "code"])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--task", action="append", help="only these tasks (repeatable)")
    parser.add_argument("--verbose", action="store_true", help="the scripted model's calls when an episode fails")
    return parser.parse_args()


def settings(args, scripted_model) -> dict:
    if not args.base_url:
        return {"provider": "custom", "base_url": scripted_model.base_url, "model": "scripted-vision",
                "agent": args.agent, "max_steps": SCRIPTED_STEPS, "tool_set": "full"}
    return {"provider": "custom", "base_url": args.base_url, "model": args.model, "agent": args.agent, "max_steps": 10}


def play(args, tasks) -> tuple[dict[str, list[float]], dict[str, str]]:
    scripted = not args.base_url
    results: dict[str, list[float]] = {}
    notes: dict[str, str] = {}
    profile = fresh_profile()
    browser = Browser(profile).start()
    try:
        with ToolModel() as scripted_model, PageServer(task_pages()) as site:
            tabs = ChromiumPanel.in_windows(browser)
            tabs.ask_background("save-settings", settings=settings(args, scripted_model), apiKey=args.api_key or "sk-test")
            for task in tasks:
                for seed in range(args.seeds):
                    try:
                        reward, why = episode(tabs, site, scripted_model, task, seed, scripted, 60 if scripted else 300)
                    except Exception as error:  # a task page the harness cannot drive: counted as a failure
                        reward, why = 0.0, f"harness: {type(error).__name__}: {str(error)[:120]}"
                    results.setdefault(task, []).append(reward)
                    if reward <= 0:
                        notes[task] = why
                    print(f"{task} seed {seed}: {reward:+.2f} {why if reward <= 0 else ''}", file=sys.stderr, flush=True)
                    if reward <= 0 and args.verbose:
                        print("\n".join(scripted_model.transcript), file=sys.stderr, flush=True)
    finally:
        browser.quit()
        remove_profile(profile)
    return results, notes


def table(args, results, notes) -> None:
    who = "a scripted model deciding from what the tools return" if not args.base_url else f"{args.model} at {args.base_url}"
    print(f"\n### MiniWoB++ through the extension ({who}; {args.agent} agent; {args.seeds} seed(s) each)\n")
    print("| task | success | mean reward | why it failed |")
    print("|---|---|---|---|")
    for task, rewards in results.items():
        wins = sum(r > 0 for r in rewards)
        handed = task in HAND_BACK and wins == 0
        why = "hand-back: the agent does not type passwords, the user does (by design)" if handed else notes.get(task, "")
        print(f"| {task} | {'hand-back' if handed else f'{wins}/{len(rewards)}'} | {sum(rewards) / len(rewards):.2f} | {why} |")
    counted = {t: r for t, r in results.items() if t not in HAND_BACK}
    episodes = [r for rewards in counted.values() for r in rewards]
    rate = 100 * sum(r > 0 for r in episodes) / max(1, len(episodes))
    solved = sum(all(r > 0 for r in rewards) for rewards in counted.values())
    print(f"| **{len(counted)} tasks (hand-backs aside)** | **{rate:.1f} %** of episodes | | {solved} tasks solved on every seed; {PUBLISHED} |")


def main() -> None:
    build_checkout()
    args = arguments()
    html = task_pages()
    tasks = args.task or (list(POLICIES) if not args.base_url else sorted(p.stem for p in (html / "miniwob").glob("*.html")))
    results, notes = play(args, tasks)
    table(args, results, notes)


if __name__ == "__main__":
    main()
