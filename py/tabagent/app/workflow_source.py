"""A workflow written as the file the user reads, edits and shares: data, one `Workflow(...)`
literal of its steps, which TabAgent reads from the syntax tree and never runs
(workflow_reading.py).

    source = workflow_source(task, steps, defaults, sites)   # workflow_steps.steps_from_turn

Every value in it (the task, the page's roles and names, what was typed, the sites) is written
with repr(), so no text from the turn or the page can end a string and become code. The tool's
description and its parameters' are the user's task and the fields' names, squeezed to words.
"""

from __future__ import annotations

import keyword
import re

from .workflow_steps import Parameter, Place, Step

HEADER = '''"""A saved workflow: the page actions of one turn, replayed without the model.

Each step finds its element by role, name and place, never by the turn's numbering; when one
is not exactly where it was, the replay stops there and the agent takes over. Each action is
asked of you as the agent's are, and your site rules apply. Edit the steps freely: this file is
read as data (the Workflow below, its texts, numbers and lists), never run.
"""

from tabagent.app.workflows import Parameter, Place, Step, Workflow
'''


def workflow_source(task: str, steps: list[Step], defaults: dict, sites: list[str] = ()) -> str:
    lines = [HEADER, f"WORKFLOW = Workflow(\n    goal={task!r},"]
    if defaults:
        lines.append(f"    parameters={{{', '.join(f'{p!r}: {v!r}' for p, v in defaults.items())}}},")
    if sites:
        lines.append(f"    sites={list(sites)!r},")
    lines.append("    steps=[")
    lines += [f"        {_step(step)}," for step in steps]
    lines.append("    ],\n)\n")
    return "\n".join(lines)


def tool_name(name: str) -> str:
    """A Python name from what the user called the workflow (its first five words)."""
    cleaned = "_".join(re.findall(r"\w+", name.casefold())[:5])[:40].strip("_") or "workflow"
    cleaned = cleaned if cleaned[0].isalpha() else f"workflow_{cleaned}"
    return f"{cleaned}_workflow" if keyword.iskeyword(cleaned) else cleaned


def _step(step: Step) -> str:
    parts = [repr(step.action)]
    if step.at is not None:
        parts.append(f"at={_place(step.at)}")
    parts += [f"{k}={v!r}" for k, v in step.args.items()]
    return f"Step({', '.join(parts)})"


def _place(place: Place) -> str:
    return "Place(" + ", ".join(f"{k}={v!r}" for k, v in vars(place).items()) + ")"


def field_of(parameter: str, steps: list[Step]) -> str:
    for step in steps:
        if Parameter(parameter) in step.args.values() and step.at is not None:
            return f"what goes into the {step.at.role} {step.at.name}"
    return "a value of the workflow"


def words(text: str) -> str:
    """Text safe inside a docstring: letters, digits, spaces and plain punctuation, one line."""
    return " ".join(re.sub(r"[^\w\s,.:;!?()'-]", " ", text).split())[:200]
