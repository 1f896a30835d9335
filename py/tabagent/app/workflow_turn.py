"""A saved workflow run as a turn of its own (from the composer: `/name`), without the model.

The request names the workflow (a user tool) and its arguments:

    "workflow": {"name": "find_kettle", "arguments": {"search": "red kettle"},
                 "allowed_sites": ["https://shop.example"]}     # asked of no one on those sites

The ticked sites are given to this replay alone ("the workflow find_kettle": consent.py), never
to the agent that takes over, and not in a scheduled run, which acts unasked only on the
schedule's own sites.

The turn's events are the replay's: each step's `tool_call` and `tool_result`, the user's
`confirmation`s, then `final_answer` and `done`, as a turn of the agent's. When a step cannot
be done, an `error` of kind "workflow" says so in the panel, and the agent (either kind, with
its model and rules) takes over from that step with the workflow's goal and what was done.
"""

from __future__ import annotations

import asyncio

from ..memory import FinalAnswerStep, TaskStep
from ..tools import format_result
from .consent import AskTheUser
from .workflows import collecting_replays, stop_collecting_replays


async def run_workflow_turn(agent, task: str, asked: dict, reset: bool) -> None:
    if reset:
        await agent.reset()
    tool = agent.tools.get(asked.get("name") or "")
    if tool is None or not hasattr(tool, "consent"):
        return await _answer(agent, task, f"There is no saved workflow named “{asked.get('name')}”.", "error")
    replaying = tool.consent.replaying(tool.name) if isinstance(tool.consent, AskTheUser) else None
    if replaying is not None and tool.consent.actor.kind != "schedule":
        replaying.give_sites(asked.get("allowed_sites") or ())
    replays, token = collecting_replays()
    agent.step = 1
    await agent.emit("step_start", {})
    try:
        said = format_result(await tool(**(asked.get("arguments") or {})))
    except asyncio.CancelledError:  # stopped (Stop, or a scheduled run that needs the user)
        asyncio.current_task().uncancel()
        return await _stopped(agent)
    except Exception as error:  # wrong arguments, no page: said as the answer
        said = f"The workflow did not run: {error}"
    finally:
        stop_collecting_replays(token)
        if replaying is not None:
            replaying.end()  # the agent that may take over is not given what the replay was
    outcome = replays[-1] if replays else None
    if outcome is None or outcome.finished or outcome.denied:
        return await _answer(agent, task, said, "ok" if outcome and outcome.finished else "error")
    step = outcome.workflow.steps[outcome.stopped_at - 1]
    await agent.emit("error", {"kind": "workflow", "message": (
        f"The workflow “{tool.name}” could not do step {outcome.stopped_at} of {len(outcome.workflow.steps)} "
        f"({step.summary(outcome.values)}): the page is not as it was when it was saved. "
        f"The agent takes over from that step.")})
    await agent.run(outcome.takeover_task(), reset=False)


async def _stopped(agent) -> None:
    agent.status = "cancelled"
    await agent.emit("done", {"status": "cancelled", "steps": agent.step, "usage": {}})


async def _answer(agent, task: str, said: str, status: str) -> None:
    """Ends the turn with `said` as its answer, as the agent ends one (no model was asked)."""
    agent.memory.append(TaskStep(task))
    agent.memory.append(FinalAnswerStep(said))
    await agent.emit("final_answer", {"answer": said})
    agent.status = status
    await agent.emit("done", {"status": status, "steps": agent.step, "usage": {}})
