"""Saved workflows, replayed without the model.

A workflow is data: a Python file holding one `Workflow(...)` literal of its steps (written by
workflow_source.py from a finished turn), read from its syntax tree and never run
(workflow_reading.py), which becomes the agent's tool. Each step finds its
element by the place recorded (workflow_steps.Place), and acts through the same path as the
agent's own actions (page_actions.PageActor): the site rules, then the user's consent for each
action, asked in the replay's own name ("the workflow find_kettle": consent.py), unless the user
allowed the workflow's sites when they ran it. What the replay was allowed ends with it: the
agent that takes over asks again.

A step is done only when exactly one element is where the workflow saw it, with as many of its
role and name on the page as when it was saved. Otherwise (gone, moved, a second one with the
same name) the replay stops there, acting on nothing, and says why: the agent then takes over
from that step, with its model and its rules (workflow_turn.py), or, when the agent itself
called the workflow as a tool, reads that and carries on.

    outcome = await run_workflow(workflow, values, bridge, consent, emit)   # for schedules too
"""

from __future__ import annotations

import contextvars
import uuid
from dataclasses import dataclass, field

from ..reply_checks import AgentsWords
from .consent import AskTheUser
from .page_actions import PageActor
from .workflow_steps import TARGET, Parameter, Place, Step  # noqa: F401 (what a saved workflow imports)
from .user_tool_page import acting_on_page


class StepNotDone(Exception):
    """A step the replay cannot do safely; the message says why, in our words only."""


@dataclass
class Replay:
    """How a replay went: the steps done, and where and why it stopped, if it did."""
    workflow: "Workflow"
    values: dict
    done: list[str] = field(default_factory=list)
    stopped_at: int | None = None  # 1-based
    reason: str = ""
    denied: bool = False

    @property
    def finished(self) -> bool:
        return self.stopped_at is None

    def report(self) -> str:
        done = "".join(f"\n{n}. {s}" for n, s in enumerate(self.done, 1)) or "\n(none)"
        if self.finished:
            return f"The workflow did its {len(self.done)} steps:{done}"
        why = "the user denied it" if self.denied else self.reason
        return (f"The workflow stopped at step {self.stopped_at} of {len(self.workflow.steps)}, "
                f"acting on nothing there: {why}. Done before it:{done}")

    def takeover_task(self) -> str:
        """The task the agent is given to carry on: the goal, what was done, what is left."""
        left = self.workflow.steps[self.stopped_at - 1:]
        steps = "".join(f"\n{n}. {s.summary(self.values)}" for n, s in enumerate(left, self.stopped_at))
        # TabAgent's words, after the replay acted: no page the user asked to read (reply_checks.py)
        return AgentsWords(
            f"Carry on a saved workflow that could not finish by itself.\nIts goal, in the user's words "
            f"when it was saved: {self.workflow.goal}\nWith these values: {self.values!r}\n"
            f"{self.report()}\nThe steps it had left, as saved (the page may have changed: "
            f"find the right elements again, and do not act on one you are unsure of):{steps}")


class Workflow:
    """`parameters`: each value the steps take, with the one the recorded turn used; `sites`: where
    it acted then (the user may allow them, in the Tools view: nothing here allows any)."""

    def __init__(self, goal: str, steps: list[Step], parameters: dict | None = None, sites: list[str] | None = None):
        if not isinstance(parameters or {}, dict) or not isinstance(sites or [], list):
            raise TypeError("its parameters are a dict ({name: value}) and its sites a list")
        self.goal, self.steps = goal, list(steps)
        self.defaults, self.sites = dict(parameters or {}), list(sites or [])

    def parameters(self) -> set[str]:
        return {v.name for s in self.steps for v in s.args.values() if isinstance(v, Parameter)}

    async def replay(self, **values) -> str:
        """Runs the steps on the tab the turn works in; returns what happened, in words."""
        bridge, consent = acting_on_page("replay")
        outcome = await run_workflow(self, values, bridge, consent, getattr(consent, "emit", None))
        replays = _replays.get()
        if replays is not None:
            replays.append(outcome)
        return outcome.report()


async def run_workflow(workflow: Workflow, values: dict, bridge, consent, emit=None,
                       allowed_sites=()) -> Replay:
    """The entry point: replays `workflow` with `values` (every parameter), no model involved.
    `consent` is the replay's asking (AskTheUser.replaying); `allowed_sites` are origins the user
    allowed for this workflow, whose actions are then not asked (a site rule `never` still
    refuses them). Whatever the replay was allowed ends when it does."""
    missing = workflow.parameters() - set(values)
    if missing:
        raise ValueError(f"the workflow needs {', '.join(sorted(missing))}")
    if allowed_sites and isinstance(consent, AskTheUser):
        consent.give_sites(allowed_sites)
    try:
        return await _replayed(workflow, values, PageActor(bridge, consent), emit)
    finally:
        if isinstance(consent, AskTheUser):
            consent.end()  # control passes back: nothing the replay was allowed goes on


async def _replayed(workflow: Workflow, values: dict, actor: PageActor, emit) -> Replay:
    outcome = Replay(workflow, dict(values))
    for number, step in enumerate(workflow.steps, 1):
        try:
            await _do(step, step.arguments(values), actor, emit)
        except StepNotDone as stop:
            outcome.stopped_at, outcome.reason = number, str(stop)
            outcome.denied = isinstance(stop, Denied)
            return outcome
        outcome.done.append(step.summary(values))
    return outcome


class Denied(StepNotDone):
    """The user said no: the replay stops, and nothing takes over."""


async def _do(step: Step, args: dict, actor: PageActor, emit) -> None:
    # The element is found by its place in the same call that describes the action (one round
    # trip to the page per step besides the action itself, as the agent's own actions take).
    at = (TARGET[step.action], vars(step.at)) if step.at is not None else None
    call_id = f"workflow-{uuid.uuid4().hex[:12]}"
    if emit:
        await emit("tool_call", {"id": call_id, "name": step.action, "arguments": _shown(args, at)})
    attempt = await actor.attempt(step.action, args, refuse=lambda d: _not_recorded(step.at, d), at=at)
    if emit:
        await emit("tool_result", {"id": call_id, "name": step.action, "result": attempt.text,
                                   "is_error": not attempt.done})
    if attempt.denied:
        raise Denied("the user denied it")
    if not attempt.done:
        raise StepNotDone(attempt.text)


def _shown(args: dict, at: tuple[str, dict] | None) -> dict:
    """The step's arguments as the panel shows them: its element by its recorded place."""
    return args if at is None else {**args, at[0]: Place(**at[1]).summary()}


def not_at_place(place: Place, found: dict) -> str:
    """Why the replay cannot act at `place`: the page's {count, there} of its role and name."""
    count = found.get("count", 0)
    if not count:
        return f"there is no {place.summary()} on the page now"
    if count != place.count:
        return (f"the page now has {count} of {place.role} “{place.name}” where the workflow "
                f"saw {place.count}: it cannot tell which one is meant")
    return (f"the {place.role} “{place.name}” is no longer where the workflow saw it "
            f"(it was {place.summary()}, number {place.nth} of {place.of} there)")


def _same_place(place: Place, found: dict) -> bool:
    return all(found.get(key) == value for key, value in vars(place).items())


def _not_recorded(place: Place | None, described: dict) -> str | None:
    """Refuses the action when the element it would act on is not the one recorded: none or
    several at its place, or one the page swapped in between finding and describing."""
    if place is None:
        return None
    if "not_at_place" in described:
        return not_at_place(place, described["not_at_place"] or {})
    now = (described.get("element") or {}).get("place") or {}
    if not _same_place(place, now):
        return f"Nothing was done: the {place.summary()} changed before it could be acted on."
    return None


# The replays run during one call (workflow_turn.py reads how a workflow run from the composer went).
_replays: contextvars.ContextVar[list | None] = contextvars.ContextVar("tabagent_replays", default=None)


def collecting_replays():
    replays: list[Replay] = []
    return replays, _replays.set(replays)


def stop_collecting_replays(token) -> None:
    _replays.reset(token)
