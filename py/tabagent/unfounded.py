"""An answer whose numbers nothing read holds, and nothing read could give: told once.

Qwen2.5-Coder-0.5B, ToolCallingAgent, flour-kg (the real-model rows at 4528ad4): list_controls(
page=3, within="div#controls") failed eight times with TabAgent's error, and asked for its best
answer the model said "The weight of the flour sack is 10 kilograms." Nothing it had been sent
held a 10, nor any number a 10 could be worked out from: its calls had returned errors only, and
the question no number (the page, never read, says 5 pounds).

The agent cannot know how an answer was worked out: a conversion shares no digit with what it
converts (2.2 lb is 1 kg), nor a sum with its terms, nor a rate's result with the rate. So any
number the turn read may be an operand, and an answer is held only when it has none:

- the turn ran a tool, and every call it made failed (an answer from what the model knows, with
  no tool run, is not checked; one given before a page asked about was read is
  Agent.answered_unread's). After a call that returned anything, the answer is taken: a count
  ("3 stanzas"), a sum or a fact the model knows needs no digit in what it read, and the end-to-end
  turn of a selection read and answered with a table, a formula and code was held once (its
  numbers in nothing the selection held) before this was so;
- a number of the answer (a run of digits, not inside a word or a web address) appears in
  nothing the model was sent: the user's messages, the tools' results and errors, TabAgent's
  notes, the model's notes, the date and time and the user's instructions in the system text;
- and nothing it was sent holds a number to work one out from: none in a tool's result that
  was not an error, in the user's messages (outside web addresses), in the model's notes.
  TabAgent's own words are no operand: its errors and notes count parts and steps, and the
  date and time are in every request (an operand there would let every answer through).

A CodeAgent's code may also write the answer's number itself, as data: the 1.5B read the first
of two shops' pages, then wrote `{"tab1": {"price": 5.99}, "tab2": {"price": 6.49}}` in its code,
printed the cheaper and answered "cheaper on tab1 at $5.99" (bench rows aa3e3ff, cheaper-kettle);
the read page held numbers, so the check above let it through. So a number of the answer that a
number literal of the code this turn ran holds (as data: not one a call is given, such as
final_answer's own answer), and that nothing the model was sent besides that code's own output
holds (the tools' results, the user's messages, the notes, earlier turns), is held too: the code
wrote it rather than worked it out.

Held, the model is told once a turn which numbers it read nowhere and what its calls returned;
its next answer is taken, whatever it says. Out of steps, the best answer is asked once more
with the same words, and no tool may run: the model can only give it again or say it did not
find it.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, Protocol

from .call_log import CallLog
from .clock import Clock
from .excerpt import OPENING
from .memory import ActionStep, Memory, SummaryStep, TaskStep
from .our_notes import our_note


# Digits not inside a word (h2, mp3, ta-12, utf-8), with their decimal and thousands separators.
_NUMBER = re.compile(r"(?<![^\W\d_])(?<![^\W\d_]-)(?<![\d.,])\d+(?:[.,]\d+)*")
_ADDRESS = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+|\bwww\.\S+", re.IGNORECASE)
LAST_ERROR_CHARS = 300

TOLD = our_note("Your answer gives {numbers}, but nothing you read in this turn holds {it}, nor any number "
                "{it} could be worked out from: {returned} {what}")
TO_DO = our_note("Read what the question needs first and answer from what it says; if you know {it} from "
                 "elsewhere, give your answer again and say where {it_comes} from.")
TO_DO_LAST = our_note("You cannot call tools now: if nothing you read gives {it}, say that you did not find "
                      "it; if you know {it} from elsewhere, give your answer again and say where {it_comes} from.")


class Answering(Protocol):
    """What the check reads of its agent (agent.Agent): its memory, the run's calls, the notes
    TabAgent sent this turn, the clock and the user's instructions of the system text."""
    memory: Memory
    calls: CallLog
    said: list[str]
    clock: Clock
    instructions: str


def values(text: object) -> set[float]:
    """The numbers in `text` outside web addresses, each as every value it may be written for
    ("1,250" is 1250 or 1.25; "24.50" is 24.5)."""
    found: set[float] = set()
    for written in _NUMBER.findall(_ADDRESS.sub(" ", str(text))):
        found |= readings(written)
    return found


def readings(written: str) -> set[float]:
    dotted = {written.replace(",", ""), written.replace(".", "").replace(",", ".")}
    found = set()
    for text in dotted:
        try:
            found.add(round(float(text), 9))
        except ValueError:  # "1.2.3": no one number
            continue
    return found


def unfounded(answer: object, read: Iterable[str], operands: Iterable[str]) -> list[str]:
    """The numbers of `answer`, as written, that appear in none of `read`, when none of `operands`
    holds a number; else []."""
    if any(values(text) for text in operands):
        return []
    seen = set().union(*(values(text) for text in read))
    written = _NUMBER.findall(_ADDRESS.sub(" ", str(answer)))
    return list(dict.fromkeys(number for number in written if not readings(number) & seen))


def turn_texts(agent: Answering) -> tuple[list[str], list[str]]:
    """(what the model was sent, what of it may be an operand), from `agent`'s memory and calls."""
    steps = agent.memory.steps
    start = max((i for i, step in enumerate(steps) if isinstance(step, TaskStep)), default=0)
    tasks = [step.task for step in steps if isinstance(step, TaskStep)]
    summaries = [step.summary for step in steps if isinstance(step, SummaryStep)]
    results = [(name, text, error) for name, text, error in agent.calls.results if name != "final_answer"]
    seen = [(o.get("content") or "", o.get("is_error", False), i < start) for i, step in enumerate(steps)
            if isinstance(step, ActionStep) for o in step.observations if o.get("name") != "final_answer"]
    errors = [step.error for step in steps if isinstance(step, ActionStep) and step.error]
    notes = list(agent.memory.notes)
    read = [*tasks, *summaries, *notes, *agent.said, agent.clock.line(), agent.instructions,
            *(text for _, text, _ in results), *(text for text, _, _ in seen), *errors]
    operands = [*tasks, *summaries, *notes, *(text for _, text, error in results if not error),
                *(text for text, error, earlier in seen if earlier and not error)]
    return read, operands


def unfounded_note(agent: Answering, answer: Any, can_act: bool = True) -> str | None:
    """What to tell the model of an answer whose numbers nothing this turn read holds or could
    give, or only its own code wrote (module doc), or None. Not counted here: once a turn is the
    agent's to keep."""
    if answer is None:
        return None
    return nothing_read(agent, answer, can_act) or code_wrote(agent, answer, can_act)


def nothing_read(agent: Answering, answer: Any, can_act: bool = True) -> str | None:
    """The note for an answer with numbers when every call this turn failed (module doc)."""
    made = [error for name, _, error in agent.calls.results if name != "final_answer"]
    if not made or not all(made):  # no call, or one returned something
        return None
    numbers = unfounded(answer, *turn_texts(agent))
    if not numbers:
        return None
    one = len(numbers) == 1
    words = {"it": "it" if one else "them", "it_comes": "it comes" if one else "they come"}
    said = numbers[0] if one else ", ".join(numbers[:-1]) + " and " + numbers[-1]
    return TOLD.format(numbers=said, it=words["it"], returned=returned(agent),
                       what=(TO_DO if can_act else TO_DO_LAST).format(**words))


CODE_WROTE = our_note("Your answer gives {numbers}, which your own code wrote as {a_value}, not a value any tool "
                      "returned: nothing you read holds {it}. {what}")
CODE_TO_DO = our_note("Work {it} out in code from what the tools return, and print {it}; if nothing you read "
                      "gives {it}, say that you did not find it.")


def code_wrote(agent: Answering, answer: Any, can_act: bool = True) -> str | None:
    """What to tell the model of an answer whose numbers only its own code's literals hold (module
    doc), or None."""
    written = set().union(*(literal_values(code) for code in getattr(agent, "code_written", ())))
    if not written:
        return None
    read = set().union(*(values(text) for text in sources(agent)))
    numbers = [n for n in dict.fromkeys(_NUMBER.findall(_ADDRESS.sub(" ", str(answer))))
               if readings(n) & written and not readings(n) & read]
    if not numbers:
        return None
    one = len(numbers) == 1
    it = "it" if one else "them"
    said = numbers[0] if one else ", ".join(numbers[:-1]) + " and " + numbers[-1]
    what = CODE_TO_DO.format(it=it) if can_act else TO_DO_LAST.format(it=it, it_comes="it comes" if one else "they come")
    return CODE_WROTE.format(numbers=said, a_value="a value" if one else "values", it=it, what=what)


def literal_values(code: str) -> set[float]:
    """The numbers `code` writes as data: its number literals, but those a call is given (a
    tool's page=1, round's 2, final_answer's own answer: no data the code works on)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    given = {id(argument) for node in ast.walk(tree) if isinstance(node, ast.Call)
             for argument in [*node.args, *(keyword.value for keyword in node.keywords)]}
    given |= {id(inner) for node in ast.walk(tree) if isinstance(node, ast.Call)  # the answer, whole
              and isinstance(node.func, ast.Name) and node.func.id == "final_answer" for inner in ast.walk(node)}
    found: set[float] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) in (int, float) and id(node) not in given:
            found |= readings(repr(node.value))
    return found


def sources(agent: Answering) -> list[str]:
    """All the model was sent but this turn's code output: what its code printed may be the code's
    own literals."""
    steps = agent.memory.steps
    start = max((i for i, step in enumerate(steps) if isinstance(step, TaskStep)), default=0)
    earlier = [o.get("content") or "" for i, step in enumerate(steps[:start]) if isinstance(step, ActionStep)
               for o in step.observations]
    return [*(step.task for step in steps if isinstance(step, TaskStep)),
            *(step.summary for step in steps if isinstance(step, SummaryStep)), *agent.memory.notes,
            *agent.said, agent.clock.line(), agent.instructions, *earlier,
            *(text for name, text, _ in agent.calls.results if name != "final_answer")]


def returned(agent: Answering) -> str:
    """What this turn's calls returned, in a sentence: errors only, or text with no number; with
    the last error's words when they quote no page."""
    counted = Counter((name, error) for name, _, error in agent.calls.results if name != "final_answer")
    said = [f"{name}: {'an error' if error else 'text with no number in it'}" + (f" ({n} times)" if n > 1 else "")
            for (name, error), n in counted.items()]
    errors = [text for name, text, error in agent.calls.results if error and name != "final_answer"]
    last = errors[-1] if errors else ""
    quoted = f' The last error said: "{last[:LAST_ERROR_CHARS]}"' if last and not OPENING.search(last) else ""
    return "your calls returned " + "; ".join(said) + "." + quoted
