"""Tool names as Python names, for the CodeAgent.

A tool's name is whatever its maker chose: MCP servers name theirs `get-sum` or `files.read`,
which code cannot call. The CodeAgent shows each tool under a Python name and defines it
under that name where the code runs; a call through it reaches the tool itself, so the
events, the questions to the user and the server all see the real name. The same mapping is
used for the prompt, the executor's namespace (or the sandbox's stubs) and the check that a
reply without a fence calls a tool.

    names = code_names(tools)          # {"srv__get_sum": <the tool srv__get-sum>, ...}

Names that already are Python names keep them; the others get the nearest one (every
character a name cannot hold becomes '_'), and one that is taken gets a number.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable
from typing import Protocol, TypeVar


class Named(Protocol):
    """What a name is given to: a tool (tools.Tool), as far as this module reads it."""
    name: str


Tool = TypeVar("Tool", bound=Named)

MAX_LENGTH = 64
_NOT_IN_A_NAME = re.compile(r"\W", re.ASCII)
RESERVED = {"final_answer", "print"}  # what the executors define themselves


def is_python_name(name: str) -> bool:
    return name.isidentifier() and name.isascii() and not keyword.iskeyword(name) and len(name) <= MAX_LENGTH


def python_name(name: str) -> str:
    """The nearest Python name: `srv__get-sum` -> `srv__get_sum`, `2fa` -> `tool_2fa`."""
    if is_python_name(name):
        return name
    spelled = _NOT_IN_A_NAME.sub("_", name)[:MAX_LENGTH - 5] or "tool"
    if spelled[0].isdigit() or keyword.iskeyword(spelled):
        spelled = f"tool_{spelled}"
    return spelled


def code_names(tools: Iterable[Tool] | dict[str, Tool]) -> dict[str, Tool]:
    """{Python name: tool} for `tools` (an iterable of Tool, or a dict of them by name),
    one name per tool, no two alike."""
    tools = list(tools.values() if isinstance(tools, dict) else tools)
    names: dict[str, Tool] = {t.name: t for t in tools if is_python_name(t.name)}  # kept as they are
    for tool in tools:
        if is_python_name(tool.name):
            continue
        base = candidate = python_name(tool.name)
        number = 2
        while candidate in names or candidate in RESERVED:
            candidate, number = f"{base}_{number}", number + 1
        names[candidate] = tool
    return names
