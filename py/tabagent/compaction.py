"""Compacting a conversation's memory so that the next request fits the model's window.

In this order, oldest first, until it fits:
0. pictures (screenshots) are replaced by a note: each is hundreds to thousands of tokens, and
   an old view of a page is the first thing the model can do without;
1. page reads are shortened to an excerpt: the paragraphs that share words with the task (and
   the model's notes and later calls), inside the same page-content marking, with a note
   saying how to read it whole (excerpt.py); then other long observations, and at last the
   excerpts, are replaced by a note saying what was dropped and how to get it back;
2. older steps are folded into one summary of what was asked, done and found;
3. the same with only the last step kept whole, whose observation is at last cut.
The current task and the latest step stay. Memory is changed in place, so what is stored is
what the model saw; the full record stays in the trace (the turn's events).
`DoesNotFit` says which single message is too long when nothing more can go.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .excerpt import cut_inside, excerpt, words_of
from .images import DROPPED, is_image, replace_images
from .memory import ActionStep, FinalAnswerStep, Memory, Step, SummaryStep, TaskStep
from .tokens import count_message, count_text
from .our_notes import our_note

KEEP_WHOLE = 2           # the latest steps kept whole as long as possible
EXCERPT_SHARE = 8        # an old page read's excerpt takes at most this share of the budget
WORTH_DROPPING = 60      # tokens (of about 4 characters): a shorter observation costs about what its note would
SUMMARY_LINE_CHARS = 240
SUMMARY_HEADER = our_note("Earlier in this conversation (summarised to fit the model's context window; "
                          "the full record is in the trace):")


class DoesNotFit(Exception):
    """Nothing more can go, and the request is still longer than the window."""


@dataclass
class Compaction:
    """What one compaction did, for the trace."""
    before: int          # estimated tokens of the request before ...
    after: int = 0       # ... and after
    dropped: list[str] = field(default_factory=list)  # one line per observation dropped or cut
    summarised: int = 0  # steps folded into the summary

    def to_data(self) -> dict:
        return {"before": self.before, "after": self.after, "dropped": self.dropped,
                "summarised": self.summarised}


def step_tokens(step: Step) -> int:
    return sum(count_message(m) for m in step.to_messages())


def compact(memory: Memory, fixed_tokens: int, budget: int) -> Compaction:
    """Shrink `memory` until `fixed_tokens` (system prompt, tools, anything sent after the
    memory) plus the memory's messages fit in `budget` tokens."""
    costs = [step_tokens(s) for s in memory.steps]
    work = _Work(memory, costs, fixed_tokens, budget, Compaction(fixed_tokens + sum(costs)))
    for keep in (KEEP_WHOLE, 1):
        for phase in (work.drop_images, work.drop_page_reads, work.drop_observations, work.summarise):
            if work.fits():
                break
            phase(keep)
    if not work.fits():
        work.cut_last_observation()
    work.report.after = work.total()
    if not work.fits():
        raise DoesNotFit(work.too_long())
    return work.report


class _Work:
    def __init__(self, memory, costs, fixed, budget, report):
        self.memory, self.costs, self.fixed, self.budget = memory, costs, fixed, budget
        self.report = report
        self._total = fixed + sum(costs)

    def total(self) -> int:
        return self._total

    def fits(self) -> bool:
        return self._total <= self.budget

    def _recount(self, index: int) -> None:
        cost = step_tokens(self.memory.steps[index])
        self._total += cost - self.costs[index]
        self.costs[index] = cost

    def _old_steps(self, keep: int) -> list[int]:
        """Indices of the steps that may shrink: all but the current task and the last
        `keep` steps taken for it (a new task makes the steps of earlier ones old)."""
        steps = self.memory.steps
        task = max((i for i, s in enumerate(steps) if isinstance(s, TaskStep)), default=-1)
        actions = [i for i, s in enumerate(steps) if isinstance(s, ActionStep) and i > task]
        kept = set(actions[-keep:]) | {task}
        return [i for i in range(len(steps)) if i not in kept]

    # --- 0. pictures give way to notes ------------------------------------------------

    def drop_images(self, keep: int) -> None:
        for index in self._old_steps(keep):
            step = self.memory.steps[index]
            holders = [vars(step)] if isinstance(step, TaskStep) else getattr(step, "observations", ())
            pictured = [o for o in holders if any(map(is_image, o.get("parts") or ()))]
            for observation in pictured:
                count = sum(map(is_image, observation["parts"]))
                observation["parts"] = replace_images(observation["parts"], DROPPED)
                where = "the user's message" if isinstance(step, TaskStep) else f"step {step.step}"
                self.report.dropped.append(f"{where}: {count} picture{'s' * (count != 1)}")
            if pictured:
                self._recount(index)
                if self.fits():
                    return

    # --- 1. observations give way to notes --------------------------------------------

    def drop_page_reads(self, keep: int) -> None:
        """Each old page read shortened to the paragraphs the task needs."""
        wanted = self._wanted_words()
        allowance = max(300, self.budget // EXCERPT_SHARE) * 4  # characters: about four a token
        for index in self._old_steps(keep):
            step = self.memory.steps[index]
            shortened = False  # a step left as it was keeps its count
            for observation in getattr(step, "observations", ()) if isinstance(step, ActionStep) else ():
                text = observation["content"]
                if observation.get("dropped") or observation.get("excerpted") or "<page_content" not in text:
                    continue
                short = excerpt(text, wanted, allowance, _call_for(step, observation) if observation.get("name") else None)
                if short is None or len(short) >= len(text) * 0.8:
                    continue
                observation["content"], observation["excerpted"] = short, len(text)
                self.report.dropped.append(f"shortened {_what(step, observation, len(text))}")
                shortened = True
            if shortened:
                self._recount(index)
            if self.fits():
                return

    def drop_observations(self, keep: int) -> None:
        self._drop(keep, lambda text: True, spare_excerpts=True)
        if not self.fits():
            self._drop(keep, lambda text: True)

    def _wanted_words(self) -> set[str]:
        """What the task is about: the words of the current task, the notes, and what the model
        wrote and called since."""
        steps = self.memory.steps
        task = max((i for i, s in enumerate(steps) if isinstance(s, TaskStep)), default=-1)
        texts = [steps[task].task if task >= 0 else "", *getattr(self.memory, "notes", ())]
        for step in steps[task + 1:]:
            if isinstance(step, ActionStep):
                texts += [step.model_output or "", step.code or "", *(c.get("arguments") or "" for c in step.tool_calls)]
        return words_of(" ".join(texts))

    def _drop(self, keep: int, which, spare_excerpts: bool = False) -> None:
        for index in self._old_steps(keep):
            step = self.memory.steps[index]
            if not isinstance(step, ActionStep):
                continue
            dropped = False  # a step left as it was keeps its count
            for observation in step.observations:
                text = observation["content"]
                if observation.get("dropped") or not which(text) or len(text) < WORTH_DROPPING * 4:
                    continue
                if spare_excerpts and observation.get("excerpted"):
                    continue
                observation["content"] = _note(step, observation, len(text))
                observation["dropped"] = len(text)
                self.report.dropped.append(_what(step, observation, len(text)))
                dropped = True
            if dropped:
                self._recount(index)
            if self.fits():
                return

    # --- 2. older steps give way to a summary ----------------------------------------

    def summarise(self, keep: int) -> None:
        old = self._old_steps(keep)
        if not old:
            return
        lines, taken, freed = [], [], 0
        summary_cost = count_text(SUMMARY_HEADER) + 4
        for index in old:
            new_lines = _summary_lines(self.memory.steps[index])
            lines += new_lines
            taken.append(index)
            summary_cost += sum(count_text(line) + 1 for line in new_lines)
            freed += self.costs[index]
            if self._total - freed + summary_cost <= self.budget:
                break
        lines = self._within(lines)
        steps = self.memory.steps
        folded = sum(getattr(steps[i], "steps", 1) for i in taken)
        summary = SummaryStep("\n".join([SUMMARY_HEADER, *lines]), folded)
        taken_set = set(taken)
        self.memory.steps = [summary] + [s for i, s in enumerate(steps) if i not in taken_set]
        self.costs = [step_tokens(summary)] + [c for i, c in enumerate(self.costs) if i not in taken_set]
        self._total = self.fixed + sum(self.costs)
        self.report.summarised += sum(1 for i in taken if not isinstance(steps[i], SummaryStep))

    def _within(self, lines: list[str]) -> list[str]:
        """The newest summary lines that take at most a quarter of the budget."""
        allowance, kept = max(100, self.budget // 4), []
        for line in reversed(lines):
            allowance -= count_text(line) + 1
            if allowance < 0:
                return [f"- ({len(lines) - len(kept)} older entries left out)", *reversed(kept)]
            kept.append(line)
        return lines

    # --- 3. the last observation is cut ----------------------------------------------

    def cut_last_observation(self) -> None:
        steps = self.memory.steps
        index = next((i for i in range(len(steps) - 1, -1, -1) if isinstance(steps[i], ActionStep)), None)
        if index is None or not steps[index].observations:
            return
        step = steps[index]
        observation = max(step.observations, key=lambda o: len(o["content"]))
        text = observation["content"]
        room = self.budget - (self._total - count_text(text)) - 60  # 60: the note saying so
        if room <= 0:
            return
        keep_chars = int(len(text) * room * 0.9 / max(1, count_text(text)))  # 0.9: tokens are uneven
        note = (f"[... cut to fit the model's context window: {len(text) - keep_chars:,} of {len(text):,} "
                f"characters left out. Ask for a smaller part to see more.]")
        # A page read keeps its marking closed around what is left, so it can be shortened again.
        observation["content"] = cut_inside(text, keep_chars, note) or f"{text[:keep_chars]}\n{note}"
        self.report.dropped.append(f"cut {_what(step, observation, len(text))}")
        self._recount(index)

    def too_long(self) -> str:
        """Which message is too long, in words."""
        window = f"the {self.budget:,} tokens a request may use with this model"
        if self.fixed > self.budget:
            return (f"The agent's instructions and tool descriptions alone are about {self.fixed:,} "
                    f"tokens, more than {window}: choose a model with a longer context window.")
        steps = self.memory.steps
        biggest = max(range(len(steps)), key=lambda i: self.costs[i])
        if isinstance(steps[biggest], TaskStep):
            return (f"Your message alone is about {self.costs[biggest]:,} tokens, more than {window} "
                    f"(with the agent's instructions): shorten it, or choose a model with a longer "
                    f"context window.")
        return (f"The latest step alone is about {self.costs[biggest]:,} tokens, more than {window}: "
                f"choose a model with a longer context window.")


def _call_for(step: ActionStep, observation: dict) -> str:
    call = next((c for c in step.tool_calls if c.get("id") == observation.get("id")), None)
    if call is None:
        return f"{observation.get('name')}(...)"
    return f"{call['name']}({_one_line(call.get('arguments') or '', 120)})"


def _what(step: ActionStep, observation: dict, chars: int) -> str:
    source = _call_for(step, observation) if observation.get("name") else f"the output of step {step.step}'s code"
    return f"step {step.step}: {source}, {chars:,} characters"


def _note(step: ActionStep, observation: dict, chars: int) -> str:
    if observation.get("name"):
        call = _call_for(step, observation)
        return (f"[Dropped to fit the model's context window: what {call} returned here "
                f"({chars:,} characters). Call it again if you need it.]")
    return (f"[Dropped to fit the model's context window: the output of this step's code "
            f"({chars:,} characters). Run the code again, or print part of a variable that "
            f"holds it, if you need it.]")


def _summary_lines(step) -> list[str]:
    if isinstance(step, TaskStep):
        return [f"- The user asked: {_one_line(step.task, SUMMARY_LINE_CHARS)}"]
    if isinstance(step, FinalAnswerStep):
        return [f"- Answered: {_one_line(str(step.answer), SUMMARY_LINE_CHARS)}"]
    if isinstance(step, SummaryStep):
        return [line for line in step.summary.splitlines()[1:] if line]
    parts = []
    thought = _one_line(re.sub(r"```.*?(```|$)", " ", step.model_output or "", flags=re.S), 160)
    if thought:
        parts.append(thought)
    if step.code:
        parts.append(f"ran code `{_one_line(step.code, 100)}`")
    for observation in step.observations:
        if observation.get("name"):
            parts.append(f"called {_call_for(step, observation)}")
        parts.append(f"got {_result(observation)}")
    if step.error:
        parts.append(_one_line(step.error, 80))
    return [f"- Step {step.step}: " + "; ".join(parts or ["(nothing)"])]


def _result(observation: dict) -> str:
    if observation.get("dropped"):
        return "(dropped)"
    text = observation["content"]
    if "<page_content" in text:  # page text reaches the model only inside its marking
        return f"page content ({len(text):,} characters)"
    return _one_line(text, 120)


def _one_line(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"
