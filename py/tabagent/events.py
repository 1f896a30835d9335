"""The event stream: one schema for everything a turn does.

The side panel renders these events, storage persists them, tests assert on them.
The schema (each kind and its `data` keys) is documented in docs/events.md; change
both together.
"""

from __future__ import annotations

import copy
import inspect
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any, Union

SCHEMA_VERSION = 1

# Each kind and the keys its `data` may have (docs/events.md says what they mean).
KINDS: dict[str, tuple[str, ...]] = {
    "step_start": (),
    "token": ("text",),
    "reasoning": ("text",),
    "text_call": ("said",),
    "tool_call": ("id", "name", "arguments"),
    "tool_result": ("id", "name", "result", "is_error"),
    "code": ("code",),
    "code_output": ("output", "is_error"),
    "confirmation": ("id", "tool", "message", "details", "site", "decision", "answers", "form", "actor", "allowed_by"),
    "hand_back": ("id", "kind", "question", "answer"),
    "own_tab": ("tab_id", "url"),
    "download": ("files",),
    "tool_progress": ("name", "progress", "total", "message"),
    "tool_app": ("name", "server_id", "server", "uri", "arguments", "result"),
    "server_log": ("server", "level", "logger", "message"),
    "error": ("message", "kind", "reason", "retry_in", "attempt", "cause", "status", "max_attempts", "withdraw"),
    "final_answer": ("answer",),
    "done": ("status", "steps", "usage", "error"),
    "model_call": ("url", "request", "status", "response", "started", "ended", "usage"),
    "compaction": ("reason", "message", "window", "window_source", "before", "after", "dropped",
                   "summarised"),
}

# How a run ends: the `done` event's status (a turn that never finished is "interrupted" in
# the extension's storage, which is not the agent's to say).
STATUSES = ("ok", "error", "cancelled", "max_steps")


@dataclass(slots=True)
class Event:
    kind: str
    conversation_id: str
    agent: str
    depth: int  # 0 for the agent the user talks to, +1 per managed agent down
    step: int   # 1-based step of the run that emitted it; 0 before the first step
    seq: int    # increases by one per event the listener sees: a total order
    time: float  # seconds since the Unix epoch
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        # What asdict gives (the data copied, so a listener cannot change the agent's), without
        # its general machinery: a turn emits a few events per step, each copied here.
        return {"kind": self.kind, "conversation_id": self.conversation_id, "agent": self.agent,
                "depth": self.depth, "step": self.step, "seq": self.seq, "time": self.time,
                "data": _copied(self.data)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        return cls(**d)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Event:
        return cls.from_dict(json.loads(text))


def _copied(value: Any) -> Any:
    """`value` copied as dataclasses.asdict copies a field's value."""
    if isinstance(value, dict):
        return {_copied(k): _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    return copy.deepcopy(value)


# A listener is any callable taking an Event; it may be async (it is awaited).
Listener = Callable[[Event], Union[None, Awaitable[None]]]

log = logging.getLogger("tabagent")


async def deliver(event: Event, listeners: list[Listener]) -> None:
    """Call each listener. A failing listener is logged, not fatal: a broken
    display must not kill the agent's work."""
    for listener in listeners:
        try:
            result = listener(event)
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("event listener %r failed on %s", listener, event.kind)


def jsonable(value: Any) -> Any:
    """`value` if it survives JSON unchanged, else its str(): events must
    round-trip through JSON losslessly."""
    try:
        if json.loads(json.dumps(value)) == value:
            return value
    except (TypeError, ValueError):
        pass
    return str(value)
