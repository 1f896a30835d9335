"""A workflow's steps, as a finished turn did them: its page actions in order, each element
found again by its place (role, accessible name, landmark, which of the same-named ones it is)
rather than by the turn's "ta-<n>" locators, and the values the user gave in the task (a
search term, a date, an address) as parameters.

    steps, parameters = steps_from_turn(events, task)   # the turn's events, as saved

Everything recorded here came from the turn's tool calls and the page's answers to them: the
roles and names are page text. They become string literals in code the user reads before it is
saved (workflow_source.py), never instructions: a replay compares them, it does not obey them.
"""

from __future__ import annotations

import inspect
import json
import keyword
import re
from dataclasses import dataclass, field

from .page_actions import ACTING, BY_POSITION, PageActor
from .site_rules import site_of
from .untrusted_content import unmarked

# The argument of each action that names the element it acts on.
TARGET = {"click": "locator", "type_text": "locator", "select_option": "locator", "check": "locator",
          "press_key": "locator", "hover": "locator", "scroll": "to"}
# The arguments whose values the user may want to change from run to run.
TYPED = {"type_text": "text", "select_option": "option"}


@dataclass(frozen=True)
class Place:
    """Where the element was: `nth` of the `of` elements with this role and name in its
    landmark, and `count` of them on the whole page."""
    role: str
    name: str
    landmark: str = ""
    landmark_name: str = ""
    nth: int = 1
    of: int = 1
    count: int = 1

    def summary(self) -> str:
        where = f" in the {self.landmark} “{self.landmark_name}”" if self.landmark_name else (
            f" in the {self.landmark}" if self.landmark else "")
        return f"{self.role} “{self.name}”{where}"


@dataclass(frozen=True)
class Parameter:
    """A value the workflow takes when it runs (its default: what the recorded turn used)."""
    name: str


@dataclass
class Step:
    action: str
    at: Place | None = None
    args: dict = field(default_factory=dict)

    def __init__(self, action: str, at: Place | None = None, **args):
        if action not in ACTING:
            raise ValueError(f"a workflow step is one of {', '.join(ACTING)}; not {action!r}")
        self.action, self.at, self.args = action, at, args

    def arguments(self, values: dict) -> dict:
        """The action's arguments for one run, its parameters filled in."""
        return {k: values[v.name] if isinstance(v, Parameter) else v for k, v in self.args.items()}

    def summary(self, values: dict | None = None) -> str:
        """The step in words: its action, its element, its arguments (filled in with `values`)."""
        args = self.arguments(values) if values is not None else self.args
        what = ", ".join(f"{k}={v!r}" for k, v in args.items() if k != "clear")
        target = f" the {self.at.summary()}" if self.at else ""
        return f"{self.action}{target}" + (f" ({what})" if what else "")


def steps_from_turn(events: list[dict], task: str) -> tuple[list[Step], dict[str, object]]:
    """(steps, {parameter: default}) from a turn's events: each page action that was done
    (not denied, not failed), in order. Raises ValueError when the turn did none."""
    calls, steps, defaults = {}, [], {}
    for event in sorted(events, key=lambda e: e.get("seq", 0)):
        data = event.get("data") or {}
        if event.get("kind") == "tool_call" and data.get("name") in (*ACTING, *BY_POSITION) \
                and isinstance(data.get("arguments"), dict):
            calls[data.get("id")] = data
        elif event.get("kind") == "tool_result" and data.get("id") in calls and not data.get("is_error"):
            done = _done(data.get("result", ""))
            if done is not None:
                steps.append(_step(calls.pop(data["id"]), done, task, defaults))
    if not steps:
        raise ValueError("This turn did nothing on a page: there is no workflow to save.")
    return steps, defaults


def _done(result: str) -> dict | None:
    """What the browser said it did, read back from the marked result; None when the action
    was denied or failed (those results are sentences, not the action's record)."""
    content = unmarked(result)
    try:
        done = json.loads(content) if content is not None else None
    except ValueError:
        return None
    return done if isinstance(done, dict) and done.get("action") else None


def _plain_press(action: str, args: dict) -> dict:
    """A click or key press as a workflow replays it: a plain one (no button or duration
    arguments); a right, double or held one is refused in words, never replayed as a plain one."""
    button, duration = args.pop("button", "left"), args.pop("duration", 0)
    if button != "left" or duration:
        raise ValueError(f"This turn used {action} with button={button!r} or a duration, which a workflow does not "
                         "replay yet. Save a turn of plain clicks and key presses instead.")
    return args


def _step(call: dict, done: dict, task: str, defaults: dict) -> Step:
    if call["name"] in BY_POSITION:  # never left out in silence: the replay would skip a step
        raise ValueError(f"This turn used {call['name']} at a screenshot's points, which a workflow cannot replay: "
                         "where a point lands depends on the page's layout at that moment. Save a turn that "
                         "found its elements by their locators instead.")
    action, args = call["name"], {**_defaults_of(call["name"]), **call["arguments"]}
    args = _plain_press(action, args)
    place = (done.get("element") or {}).get("place")
    at = None
    if action in TARGET and isinstance(place, dict) and args.get(TARGET[action]) not in (None, "") \
            and not isinstance(args.get(TARGET[action]), int):
        at = Place(**{k: place[k] for k in Place.__dataclass_fields__ if k in place})
        args.pop(TARGET[action])
    typed = TYPED.get(action)
    if typed and isinstance(args.get(typed), str) and _in_task(args[typed], task):
        name = _parameter_for(args[typed], at, defaults)
        defaults[name] = args[typed]
        args[typed] = Parameter(name)
    return Step(action, at, **args)


def _defaults_of(action: str) -> dict:
    """The action's arguments the model may leave out, as the agent's tool fills them in: the
    step says them all, as the action was done."""
    parameters = inspect.signature(getattr(PageActor, action)).parameters.values()
    return {p.name: p.default for p in parameters if p.default is not inspect.Parameter.empty and p.name != "locator"}


def _in_task(value: str, task: str) -> bool:
    value = " ".join(value.split()).casefold()
    return bool(value) and value in " ".join(task.split()).casefold()


def _parameter_for(value: str, at: Place | None, defaults: dict) -> str:
    """A Python name for the value: the same one for the same value, else from the field's name."""
    for name, default in defaults.items():
        if default == value:
            return name
    base = re.sub(r"\W+", "_", (at.name if at else "").casefold()).strip("_")[:30] or "value"
    if not base.isidentifier() or keyword.iskeyword(base):
        base = f"value_{base}" if f"value_{base}".isidentifier() else "value"
    name, n = base, 2
    while name in defaults:
        name, n = f"{base}_{n}", n + 1
    return name


def sites_of_turn(events: list[dict]) -> list[str]:
    """The sites (origins) the turn's done actions happened on, in order: what the user may
    allow a workflow to act on without asking each time."""
    sites = []
    for event in events:
        data = event.get("data") or {}
        done = _done(data.get("result", "")) if event.get("kind") == "tool_result" and not data.get("is_error") else None
        site = site_of((done or {}).get("page_url"))
        if site and site not in sites:
            sites.append(site)
    return sites
