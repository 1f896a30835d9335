#!/usr/bin/env python3
"""A saved workflow's replay against the agent doing the same 10 steps with an instant model.

Both run as turns (turns.Turns) on the same page of controls answered in Python
(tests/helpers/control_page.py), the site allowed so that nothing waits for a person: the agent
with a scripted model that answers at once (10 tool calls, then its answer), the replay with no
model (each step finds its element by place, then acts as the agent's actions do). Each page
call costs `--page-ms` (0: the framework's own cost; 5: about what one call to a tab costs
in the extension). Target (issue 39): replay under a tenth of the agent's time.

    python bench/bench_workflows.py [--runs 30]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))

from tabagent.app.turns import Turns  # noqa: E402
from tabagent.app.user_tool_page import with_page  # noqa: E402
from tabagent.app.user_tools import load_user_tools  # noqa: E402
from tabagent.app.workflow_source import workflow_source  # noqa: E402
from tabagent.app.workflow_steps import steps_from_turn  # noqa: E402
from tabagent.testing import ScriptedModel  # noqa: E402
from tests.helpers.control_page import URL, ControlPage  # noqa: E402

STEPS = 10
CONTROLS = [("text field", f"Field {n}", "form", "Order") for n in range(STEPS // 2)] + \
           [("button", f"Next {n}", "main", "") for n in range(STEPS - STEPS // 2)]
TASK = "Fill in the order form and press each Next"


def calls():
    typed = [{"name": "type_text", "arguments": {"locator": f"ta-{n + 1}", "text": f"value {n}"}} for n in range(STEPS // 2)]
    pressed = [{"name": "click", "arguments": {"locator": f"ta-{n + 1}"}} for n in range(STEPS // 2, STEPS)]
    return [{"tool_calls": [call]} for call in typed + pressed] + ["Done."]


def request(**more):
    return {"conversation_id": "bench", "task": TASK, "memory": None,
            "settings": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "agent": "tool_calling",
                         "max_steps": STEPS + 2, "site_rules": "127.0.0.1: allow"}, **more}


async def agent_turn(page_ms: float) -> tuple[float, list[dict]]:
    page, events = ControlPage(CONTROLS, delay=page_ms / 1000), []
    started = time.perf_counter()
    await Turns().run(request(), events.append, model=ScriptedModel(calls()), page=page)
    assert len(page.done) == STEPS, page.done
    return (time.perf_counter() - started) * 1000, events


async def replay_turn(tools, page_ms: float) -> float:
    page = ControlPage(CONTROLS, first_locator=100, delay=page_ms / 1000)
    model = ScriptedModel([])
    started = time.perf_counter()
    await Turns().run(request(workflow={"name": "fill_order", "allowed_sites": [URL]}), lambda e: None,
                      model=model, page=page, tools=with_page(tools, page))
    assert len(page.done) == STEPS and model.calls == [], (page.done, model.calls)
    return (time.perf_counter() - started) * 1000


async def measure(runs: int, page_ms: float, folder: Path) -> tuple[list[float], list[float]]:
    _, events = await agent_turn(page_ms)
    steps, defaults = steps_from_turn(events, TASK)
    (folder / "fill_order.py").write_text(workflow_source(TASK, steps, defaults))
    tools, problems = load_user_tools(folder)
    assert not problems, problems
    agent, replay = [], []
    for _ in range(runs):
        agent.append((await agent_turn(page_ms))[0])
        replay.append(await replay_turn(tools, page_ms))
    return agent, replay


async def main_async(runs: int) -> None:
    print(f"A {STEPS}-step workflow: its replay against the agent with an instant model (ms per turn, "
          f"median of {runs}, CPython, the page answered in Python)\n")
    print("| each page call | agent | replay | replay / agent | target |")
    print("|---:|---:|---:|---:|---|")
    for page_ms in (0, 5):
        with tempfile.TemporaryDirectory() as folder:
            agent, replay = await measure(runs, page_ms, Path(folder))
        a, r = statistics.median(agent), statistics.median(replay)
        print(f"| {page_ms} ms | {a:.1f} | {r:.1f} | {r / a:.2f} | under 0.10 |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    asyncio.run(main_async(parser.parse_args().runs))


if __name__ == "__main__":
    main()
