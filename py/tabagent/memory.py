"""Memory: the steps of a conversation, as plain data that round-trips through JSON.

A saved memory, handed to a new agent, lets the conversation continue
(`agent.run(task, reset=False)`). The messages sent to the model are rebuilt from
the steps each time, as they were stored but for two things: a run of replies each the same as the
one before it is sent once (SENT_AGAIN below), and a reply that said back a text it was given is not
sent back (ActionStep.echo). The trace keeps each request as it was sent.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Union

from .events import jsonable
from .images import NOT_SHOWN, replace_images, text_part
from .our_notes import our_note

# A run of replies each the same as the one before it is sent once (Memory.to_messages): Qwen2.5-Coder
# 0.5B as the CodeAgent (the real-model bench, 0964a2e) wrote one block 7 and 8 times word for word,
# each request holding every copy, and copied its own reply from there, even sampled at temperature
# 1.0 with penalties (repeated_reply.py). The notes that say it repeated stay, at the end.
SENT_AGAIN = our_note("You have sent this same reply {times} times in a row. What the last one got:")

FORMAT_VERSION = 1


@dataclass
class TaskStep:
    task: str
    type: str = "task"
    parts: list[dict] = field(default_factory=list)  # pictures the user attached (images.py)

    def to_messages(self, sees_images: bool = True) -> list[dict]:
        if not self.parts:
            return [{"role": "user", "content": self.task}]
        parts = self.parts if sees_images else replace_images(self.parts, NOT_SHOWN)
        return [{"role": "user", "content": [text_part(self.task), *parts]}]


@dataclass
class ActionStep:
    step: int
    model_output: str = ""
    # Calls that ran, {"id", "name", "arguments" (JSON text)}. `native` says whether the
    # model sent them as real tool calls, or as JSON text we recovered from its reply.
    tool_calls: list[dict] = field(default_factory=list)
    native: bool = True
    code: str | None = None
    # What the model thought first, kept for the record and never sent back as content;
    # `reasoning_field` is where it came ("reasoning_content", ...; None: a <think> block).
    reasoning: str = ""
    reasoning_field: str | None = None
    # {"id"?, "content", "is_error", "parts"?}: parts are the pictures a tool showed (images.py)
    observations: list[dict] = field(default_factory=list)
    error: str | None = None  # a problem with the reply itself, told to the model
    usage: dict | None = None
    start_time: float = 0.0
    end_time: float = 0.0
    type: str = "action"
    # The reply said back a text it was given (said_back.py): kept, but not sent back to the model as
    # its own, where it was what the model copied next (returns-days, 0964a2e: the same sentence twice).
    echo: bool = False

    def to_messages(self, with_reasoning: bool = True, sees_images: bool = True) -> list[dict]:
        messages, notes = [], []
        native = self.native and self.tool_calls
        if (self.model_output and not self.echo) or native:
            assistant = {"role": "assistant", "content": self.model_output or None}
            if native:
                assistant["tool_calls"] = [{"id": c["id"], "type": "function", "function": {
                    "name": c["name"], "arguments": c["arguments"]}} for c in self.tool_calls]
                # DeepSeek's thinking mode wants the reasoning of a tool call back, in the field it
                # came in, until the task is answered (else: 400).
                if with_reasoning and self.reasoning and self.reasoning_field == "reasoning_content":
                    assistant["reasoning_content"] = self.reasoning
            messages.append(assistant)
        for observation in self.observations:
            if native:  # every tool call must be answered by a tool message with its id
                messages.append({"role": "tool", "tool_call_id": observation["id"],
                                 "content": observation["content"]})
            elif observation.get("name"):
                notes.append(f"{observation['name']} returned:\n{observation['content']}")
            else:
                notes.append(observation["content"])
        if self.error:
            notes.append(self.error)
        pictures = self._pictures(sees_images)
        if notes:
            text = "Observation:\n" + "\n\n".join(notes)
            messages.append({"role": "user", "content": [text_part(text), *pictures] if pictures else text})
        elif pictures:  # tool messages take text only: the pictures they showed follow them
            messages.append({"role": "user", "content": [text_part("What the tools above showed:"), *pictures]})
        return messages

    def _pictures(self, sees_images: bool) -> list[dict]:
        parts = [part for observation in self.observations for part in observation.get("parts") or ()]
        return parts if sees_images else replace_images(parts, NOT_SHOWN)


@dataclass
class FinalAnswerStep:
    answer: Any
    type: str = "final_answer"

    def to_messages(self) -> list[dict]:
        return []  # the answer is already in the step that gave it


@dataclass
class SummaryStep:
    """Older steps, summarised to fit the model's context window (compaction.py)."""
    summary: str
    steps: int = 0  # how many steps it stands for
    type: str = "summary"

    def to_messages(self) -> list[dict]:
        return [{"role": "user", "content": self.summary}]


_STEP_TYPES = {"task": TaskStep, "action": ActionStep, "final_answer": FinalAnswerStep,
               "summary": SummaryStep}


class UnreadableMemory(ValueError):
    """A stored memory this version cannot read (an edited file, or a newer version's)."""


def _step_from_dict(data, number: int):
    """One stored step. What this version does not know is said in words, so the turn that
    meets it tells the user why, instead of failing on a TypeError."""
    kind = _STEP_TYPES.get(data.get("type")) if isinstance(data, dict) else None
    where = f"Step {number} of this conversation's memory"
    if kind is None:
        raise UnreadableMemory(f"{where} is of a kind this version of TabAgent does not know.")
    unknown = sorted(set(data) - {f.name for f in fields(kind)})
    if unknown:
        raise UnreadableMemory(f"{where} has fields this version of TabAgent does not know "
                               f"({', '.join(unknown)[:200]}): was it made by a newer version?")
    try:
        return kind(**data)
    except TypeError:
        raise UnreadableMemory(f"{where} lacks a field its kind needs.") from None


Step = Union[TaskStep, ActionStep, FinalAnswerStep, SummaryStep]


class Memory:
    def __init__(self, steps: list[Step] | None = None, seq: int = 0, notes: list[str] | None = None) -> None:
        self.steps = steps or []
        self.seq = seq  # the last event sequence number, so a restored conversation continues it
        self.notes = notes or []  # the model's notes (notes.py): no compaction removes them

    def append(self, step: Step) -> None:
        self.steps.append(step)

    def reset(self) -> None:
        self.steps, self.notes = [], []

    def to_messages(self, system_prompt: str, sees_images: bool = True) -> list[dict]:
        """`sees_images`: false for a model that takes no images (each picture becomes a note)."""
        messages = [{"role": "system", "content": system_prompt}]
        current = max((i for i, s in enumerate(self.steps) if isinstance(s, TaskStep)), default=0)
        run: list[dict] = []  # the messages of the first step of a run of the same reply
        times = 0
        for i, step in enumerate(self.steps):  # reasoning goes back only within the current task
            if isinstance(step, ActionStep):
                sent = step.to_messages(i > current, sees_images)
                if times and _same_reply(self.steps[i - 1], step) and (got := _observation(sent)) is not None:
                    times += 1  # the first is sent, with how often it came and what the last one got
                    first = run[-1]["content"]
                    messages[-1] = {"role": "user", "content": f"{first}\n\n{SENT_AGAIN.format(times=times)}\n{got}"}
                    continue
                run, times = sent, 1 if _observation(sent) is not None else 0
                messages.extend(sent)
            else:
                times = 0
                messages.extend(step.to_messages(sees_images) if isinstance(step, TaskStep) else step.to_messages())
        return messages

    def to_dict(self) -> dict:
        steps = [asdict(s) for s in self.steps]
        for step in steps:
            if step["type"] == "final_answer":
                step["answer"] = jsonable(step["answer"])
            if step["type"] == "task" and not step["parts"]:
                del step["parts"]  # a task without pictures is stored as before them
            if step["type"] == "action" and not step["echo"]:
                del step["echo"]  # stored as before it
        notes = {"notes": list(self.notes)} if self.notes else {}  # stored as before them when none
        return {"version": FORMAT_VERSION, "seq": self.seq, "steps": steps, **notes}

    @classmethod
    def from_dict(cls, data: dict) -> Memory:
        steps = [_step_from_dict(s, n) for n, s in enumerate(data.get("steps", []), 1)]
        notes = data.get("notes") if isinstance(data.get("notes"), list) else []
        return cls(steps, data.get("seq", 0), [str(n) for n in notes])

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Memory:
        return cls.from_dict(json.loads(text))


def _same_reply(before: Step, step: ActionStep) -> bool:
    """Whether `step`'s reply is `before`'s, but for white space: text, no call made natively."""
    return (isinstance(before, ActionStep) and not (before.native and before.tool_calls)
            and not (step.native and step.tool_calls)
            and "".join(before.model_output.split()) == "".join(step.model_output.split()))


def _observation(sent: list[dict]) -> str | None:
    """What a step's reply got, as sent (without "Observation:"), when it is one text after the
    reply; None else (pictures, or nothing after it)."""
    last = sent[-1] if sent else None
    if last is None or last["role"] != "user" or not isinstance(last["content"], str):
        return None
    return last["content"].removeprefix("Observation:\n")


def cut(text: str, limit: int, how_to_get_more: str) -> str:
    """Keep an observation within `limit` characters, saying what was cut and how
    to get the rest: a long page must not crowd the model's context out."""
    if len(text) <= limit:
        return text
    return (f"{text[:limit]}\n[... cut {len(text) - limit:,} of {len(text):,} characters. "
            f"{how_to_get_more}]")
