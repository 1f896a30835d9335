"""What a run has called, step by step: so that a call the model repeats is told, not run again,
and the tools that keep the run's books (`note`, `more_tools`) cannot be all it does.

Real small models loop (issue 48): Qwen2.5-Coder 0.5B fetched the same page six times in a row;
the 1.5B went fetch, note, more_tools, and round again. Two rules, in both agents:

- A call with the same name and arguments as one the last working step made (a step with a call
  other than `note` and `more_tools`) is not run again: the model is told, once, what it returned
  then. Asked a second time, it runs (the model insists; a page may have changed). A tool that
  acts (`acts = True`: a click, a key, typing, each asked of the user) is exempt: a second click
  is a second act, and whether it happens is the user's to say; so is a call the user refused
  (`tools.Refused`): asked again, the user may say yes.
- After two steps in a row that only kept notes or listed tools, `note` and `more_tools` refuse,
  saying why, until another tool runs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .excerpt import cut_inside
from .tools import Refused

# TabAgent's own tools that change nothing the task is about: they keep the run's books.
BOOKKEEPING = ("note", "more_tools")
SHOWN_AGAIN = 2000  # characters of the earlier result said again: the whole is in that step

TOLD = ("You called {name} with these same arguments in step {step}, and nothing ran since, so it "
        "was not run again. It returned:\n{result}\nUse that result, call another tool, or give your "
        "final answer.")
TOLD_IN_CODE = ("Note: {name}(...) was called with the same arguments as in step {step} and nothing "
                "ran since, so it was not run again: the code got what it returned then.")
BOOKS_ONLY = ("{name}: the last two steps only kept notes or listed tools, which does not move the "
              "task on. Call a tool that works on the task, or give your final answer.")


def call_key(name: str, arguments: Any) -> str:
    """One text for a call and its arguments, however the model spaced or ordered them."""
    try:
        return name + json.dumps(arguments, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return name + repr(arguments)


@dataclass
class Earlier:
    step: int
    text: str  # what the model read
    value: Any = None  # what the code got


@dataclass
class CallLog:
    step: int = 0
    working: dict[str, Earlier] = field(default_factory=dict)  # the last working step's calls
    this_step: dict[str, Earlier] = field(default_factory=dict)
    names_this_step: list[str] = field(default_factory=list)
    told: set[str] = field(default_factory=set)  # repeats told once already: run when asked again
    books_only_steps: int = 0  # steps in a row that only kept notes or listed tools
    made: int = 0  # the calls this run has run (any tool, any outcome)
    history: list[str] = field(default_factory=list)  # the names of the calls this run ran, in order

    def start_step(self, step: int) -> None:
        self.step, self.this_step, self.names_this_step = step, {}, []

    def end_step(self) -> None:
        if not self.names_this_step:
            return
        if all(name in BOOKKEEPING for name in self.names_this_step):
            self.books_only_steps += 1
            return
        self.books_only_steps = 0
        self.working = {key: earlier for key, earlier in self.this_step.items()}

    def repeat_of(self, name: str, arguments: Any, acts: bool = False) -> Earlier | None:
        """What the same call returned in the last working step, if the model is to be told so
        (never for a tool that acts)."""
        key = call_key(name, arguments)
        earlier = self.working.get(key)
        if acts or name in BOOKKEEPING or earlier is None or key in self.told:
            return None
        self.told.add(key)
        return earlier

    def ran(self, name: str, arguments: Any, text: str, value: Any = None, is_error: bool = False) -> None:
        self.names_this_step.append(name)
        self.made += 1
        self.history.append(name)
        # An error is worth trying again, and a refusal asks again (the user may say yes).
        if not is_error and not isinstance(value, Refused) and name not in BOOKKEEPING:
            self.this_step[call_key(name, arguments)] = Earlier(self.step, text, value)

    def repeated(self, name: str) -> None:
        """A repeat was told: for what follows, the step used that call."""
        self.names_this_step.append(name)

    def books_refusal(self, name: str) -> str | None:
        return BOOKS_ONLY.format(name=name) if self.books_only_steps >= 2 else None


def told_again(name: str, earlier: Earlier) -> str:
    result = earlier.text
    if len(result) > SHOWN_AGAIN:  # page text keeps its marking whole (excerpt.py)
        rest = f"[… the rest is in step {earlier.step}'s result]"
        result = cut_inside(result, SHOWN_AGAIN, rest) or f"{result[:SHOWN_AGAIN]}\n{rest}"
    return TOLD.format(name=name, step=earlier.step, result=result)
