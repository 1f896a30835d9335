"""What a run has called, step by step: so that a call the model repeats is told, not run again,
and the tools that keep the run's books (`note`, `more_tools`) cannot be all it does.

Real small models loop (issue 48): Qwen2.5-Coder 0.5B fetched the same page six times in a row;
the 1.5B went fetch, note, more_tools, and round again. Two rules, in both agents:

- A call with the same name and arguments as one the last working step made (a step with a call
  other than `note` and `more_tools`) is not run again: the model is told, once, what it returned
  then. Asked a second time, it runs (the model insists; a page may have changed). A tool that
  acts (`acts = True`: a click, a key, typing, each asked of the user) is exempt: a second click
  is a second act, and whether it happens is the user's to say; so is a call the user refused
  (`tools.Refused`): asked again, the user may say yes. One act is not: the same `ask_user`
  question the user has answered this turn is told back with their answer (asked_again.py).
- A call that has returned the same text twice with the same arguments, nothing having acted since,
  is settled: asked again, it is not run, and the model is told so each time, with how many times
  it asked and the user's question, not the text again. The 0.5B read the shop page with
  read_page(page=1, max_tokens=200) seven times in flour-kg (rows f4ff431): told once, told once
  more that the text was the same, it then read five times more with nothing new said, the
  page whole in view each time (it fits one part of 200 tokens): at temperature 0 the same
  context gave the same call. A note that changes, ending on the question, breaks that.
- A call that failed twice with the same error and the same arguments, nothing having acted since,
  is not run again either: the model is told each time, in words that change, with the error and
  what to do instead (the ToolCallingAgent's call gets it as its result; a call the CodeAgent's
  code makes raises it into the code). The 0.5B called list_controls(page=3, within="div#controls")
  eight times in flour-kg (rows 4528ad4), each failing the same way ("There is no page 3 of
  controls"), each run, since an error was always worth trying again. A call of a tool that acts,
  refused for its arguments before it ran, acted on nothing: it falls under this rule too, and
  wipes nothing the rules know (navigate four times with tab_id and title copied in from its
  result, kettle-price, rows 0964a2e).
- After two steps in a row that only kept notes or listed tools, `note` and `more_tools` refuse,
  saying why, until another tool runs.
- A call that succeeded, asked again after the model was told it repeated it (or asked again once
  settled), nothing having acted since, is `pressed`: where the endpoint can hold a reply, the
  ToolCallingAgent's next request is held to a call of the other listed tools (reply_grammar.py).
  Told in words, the 0.5B still made the same read_page call seven times in a row in
  kettle-price (run twice, told five times), and the same list_controls call eight in flour-kg
  (rows e5a29d2): words alone did not stop it. The held reply keeps away from every tool told a
  repeat (or with a call settled) since the last act, not only the one pressed: held from one of
  two reads it went between, the 0.5B took the other (flour-kg, rows 0964a2e, held three times,
  out of steps).

- A run that goes round in a circle is told so, once per circle: its last two to four calls the
  same, in the same order and with the same results, as the ones just before them, a read among
  them (what it returned shows the acts between changed nothing it reads; an act alone repeated
  may be meant: "add two to the basket"). Acts are exempt from the rules above, and a read after
  an act is never a repeat of the one before it: every reply held, the 1.5B went find_in_page, a
  click on the match, find_in_page, the same click, for all its steps (kettle-price, rows
  fda372d), each click wiping what the rules above knew. Told, and going round again all the
  same, the call that starts the circle again is `pressed`, held from every tool of the circle.

A call is known by what it asks, not how it is spelled: its arguments with the tool's defaults
filled in (`read_page()` is `read_page(page=1)`). And a call that returns, word for word, what a
call made since the last act returned (the 0.5B read the same short page eight times in the
real-model bench, at `max_tokens` 200 and after `list_controls`: the whole page each time) is
told so, once for that text: reading again shows nothing new.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from .excerpt import cut_inside
from .our_notes import our_note, our_notes
from .conversions import convert
from .tools import Refused, blank

# TabAgent's own tools that change nothing the task is about: they keep the run's books.
BOOKKEEPING = ("note", "more_tools")
SHOWN_AGAIN = 2000  # characters of the earlier result said again: the whole is in that step

TOLD = our_note("You called {name} with these same arguments in step {step}, and nothing ran since, so it "
                "was not run again. It returned:\n{result}\nUse that result, call another tool, or give your "
                "final answer.")
TOLD_IN_CODE = our_note("Note: {name}(...) was called with the same arguments as in step {step} and nothing "
                        "ran since, so it was not run again: the code got what it returned then.")
SAME = our_note("{name} returned the same text, word for word, as a call in step {step} did:\n{result}\n"
                "Nothing in it is new. Use it: answer from it, or do something else.")
SETTLED = our_note("You have called {name} with these same arguments {times} times, and it returned the same text "
                   "each time (first in step {step}); nothing has acted since, so it was not run again. Read its "
                   "result in step {step}.{question}\nAnswer from what it returned, call another tool, or give "
                   "your final answer.")
QUESTION_CHARS = 400  # of the user's message, said again in SETTLED
# A call that failed the same way twice, asked again: said each time in other words (the 0.5B, at
# temperature 0, asks again whatever stays the same), with the error and what to do instead.
FAILED = our_notes(
    "You have called {name} with these same arguments {times} times, and it failed each time with the "
    "same error (first in step {step}); nothing has acted since, so it was not run again. The error:\n{error}",
    "{name} was not run: these arguments failed twice with the same error, and this is time {times} you "
    "ask for them. What it said in step {step}:\n{error}",
    "Not run again: asked {times} times with these arguments, {name} gives only this error (step "
    "{step}):\n{error}",
)
INSTEAD = our_note("\nDo what the error says, or call {name} with other arguments, or call another tool, or give your "
                   "final answer.{question}")
SAME_IN_CODE = our_note("Note: {name}(...) returned the same text, word for word, as a call in step {step} did: "
                        "nothing in it is new. Use it.")
CIRCLE = our_note("Your last {n} calls ({calls}) were the same calls, in the same order and with the same results, "
                  "as the {n} just before them: going round again gives the same. Answer from what they returned, "
                  "or do something else.")
ROUND = 4  # calls in a circle, at most, for it to be told
BOOKS_ONLY = our_note("{name}: the last two steps only kept notes or listed tools, which does not move the "
                      "task on. Call a tool that works on the task, or give your final answer.")


def call_key(name: str, arguments: Any, tool: Any = None) -> str:
    """One text for a call and its arguments, however the model spaced or ordered them, with the
    defaults of `tool` (its schema's) filled in."""
    arguments = with_defaults(tool, arguments)
    try:
        return name + json.dumps(arguments, sort_keys=True, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return name + repr(arguments)


def with_defaults(tool: Any, arguments: Any) -> Any:
    """`arguments` as `tool` reads them: what its schema gives by default for those left out (a
    None, or "" where no text goes, counts as left out: weak models send them for "not given"),
    values converted to its types ("1" for 1), and names it does not take left out (TabAgent's own
    tools that only read run without them: tool_calling_agent.known_arguments)."""
    properties = ((getattr(tool, "parameters", None) or {}) if tool is not None else {}).get("properties") or {}
    if not isinstance(arguments, dict) or not properties:
        return arguments
    takes_any = bool(tool.parameters.get("additionalProperties"))
    given = {name: convert(value, properties[name]) if isinstance(properties.get(name), dict) else value
             for name, value in arguments.items()
             if value is not None and not blank(value, properties.get(name)) and (takes_any or name in properties)}
    return {**{name: p["default"] for name, p in properties.items() if isinstance(p, dict) and "default" in p}, **given}


@dataclass
class Earlier:
    step: int
    text: str  # what the model read
    value: Any = None  # what the code got
    times: int = 0  # for a settled call (module doc), how many times it has been asked for
    failed: bool = False  # `text` is the error it returned twice


@dataclass
class CallLog:
    step: int = 0
    working: dict[str, Earlier] = field(default_factory=dict)  # the last working step's calls
    this_step: dict[str, Earlier] = field(default_factory=dict)
    names_this_step: list[str] = field(default_factory=list)
    told: set[str] = field(default_factory=set)  # repeats told once already: run when asked again
    told_now: set[str] = field(default_factory=set)  # those told since the last act
    pressed: str | None = None  # a tool whose call was asked again after told, this step (module doc)
    repeated_tools: set[str] = field(default_factory=set)  # tools told a repeat, or settled, since the last act
    said_back: bool = False  # `pressed` because its call said back a text the model was given (`press`)
    books_only_steps: int = 0  # steps in a row that only kept notes or listed tools
    made: int = 0  # the calls this run has run (any tool, any outcome)
    history: list[str] = field(default_factory=list)  # the names of the calls this run ran, in order
    returned: dict[str, int] = field(default_factory=dict)  # name + text returned since the last act: step
    same_told: set[str] = field(default_factory=set)  # those told as the same once already
    texts: dict[str, str] = field(default_factory=dict)  # call key: the text it last returned, since the last act
    settled: dict[str, Earlier] = field(default_factory=dict)  # calls that returned the same text twice: not run again
    asked: dict[str, int] = field(default_factory=dict)  # call key: times asked for, since the last act
    failed: dict[str, Earlier] = field(default_factory=dict)  # call key: its last error, since the last act
    failing: dict[str, Earlier] = field(default_factory=dict)  # calls that failed the same way twice: not run again
    # (tool, what it returned, whether an error) for each call this run ran: an answer that
    # only says one back is no answer (said_back.py)
    results: list[tuple[str, str, bool]] = field(default_factory=list)
    # what the tools that keep the run's books returned this run: ours (said_back.py)
    books: list[str] = field(default_factory=list)
    # (tool, call key, what it returned, whether it acts) of each call this run ran, books aside:
    # circles (module doc)
    trail: list[tuple[str, str, str, bool]] = field(default_factory=list)
    circles: dict[str, list[str]] = field(default_factory=dict)  # a circle told: its first call key, its tools
    circle_said: str | None = None  # a circle the last call closed, for the agent to tell

    def start_step(self, step: int) -> None:
        self.step, self.this_step, self.names_this_step, self.pressed = step, {}, [], None
        self.said_back = False

    def end_step(self) -> None:
        if not self.names_this_step:
            return
        if all(name in BOOKKEEPING for name in self.names_this_step):
            self.books_only_steps += 1
            return
        self.books_only_steps = 0
        self.working = {key: earlier for key, earlier in self.this_step.items()}

    def repeat_of(self, name: str, arguments: Any, acts: bool = False, tool: Any = None) -> Earlier | None:
        """What the same call returned in the last working step, if the model is to be told so
        (once), or a settled call's first result (each time, with `times`), or a call's error when
        it failed the same way twice (each time, `failed`); never for a tool that acts."""
        key = call_key(name, arguments, tool)
        if name in BOOKKEEPING:
            return None
        self.asked[key] = self.asked.get(key, 0) + 1
        if key in self.failing:  # an act refused twice for its arguments too: it never ran (`ran`)
            return replace(self.failing[key], times=self.asked[key])
        if acts:
            return None
        if key in self.settled:
            self.pressed = name
            self.repeated_tools.add(name)
            return replace(self.settled[key], times=self.asked[key])
        earlier = self.working.get(key)
        if earlier is None or key in self.told:
            return None
        self.told.add(key)
        self.told_now.add(key)
        self.repeated_tools.add(name)
        return earlier

    def ran(self, name: str, arguments: Any, text: str, value: Any = None, is_error: bool = False,
            tool: Any = None, unrun: bool = False) -> int | None:
        """Record a call that ran (or, `unrun`, was refused for its arguments before the tool ran);
        the step an earlier call returned this very text in, since the last act, when the model is
        to be told so (once for that text), else None."""
        self.names_this_step.append(name)
        self.made += 1
        self.history.append(name)
        if name not in BOOKKEEPING:
            self.results.append((name, text, is_error))
        elif not is_error:
            self.books.append(text)
        around = self._round(call_key(name, arguments, tool), name, text, getattr(tool, "acts", False)) \
            if name not in BOOKKEEPING else set()
        # The page may show something else now; not after an act refused before it ran: the 0.5B
        # called navigate four times with arguments navigate does not take (bench rows 0964a2e,
        # kettle-price), and each, taken for an act, wiped what the rules below knew.
        if getattr(tool, "acts", False) and not (is_error and unrun):
            self.returned.clear()
            self.texts, self.settled, self.asked, self.failed, self.failing = {}, {}, {}, {}, {}
            self.told_now, self.repeated_tools = set(), around
            return None
        self.repeated_tools |= around
        if is_error and name not in BOOKKEEPING:
            self.failed_again(call_key(name, arguments, tool), text)
        # An error is worth trying again (once), and a refusal asks again (the user may say yes).
        if is_error or isinstance(value, Refused) or name in BOOKKEEPING:
            return None
        key = call_key(name, arguments, tool)
        if key in self.told_now:  # told it repeated, asked again, and it ran: the model insists
            self.pressed = name
        self.this_step[key] = Earlier(self.step, text, value)
        if self.texts.get(key) == text:  # settled: what the holds keep away from, as a repeat told
            self.settled.setdefault(key, Earlier(self.returned.get(name + "\0" + text, self.step), text, value))
            self.repeated_tools.add(name)
        self.texts[key] = text
        said = name + "\0" + text
        earlier = self.returned.setdefault(said, self.step)
        if earlier == self.step or said in self.same_told:
            return None
        self.same_told.add(said)
        return earlier

    def _round(self, key: str, name: str, text: str, acts: bool) -> set[str]:
        """Keep the call on the trail; say a circle it closes (`circle_said`, once per circle);
        when it starts a circle told before again, press it (module doc): the circle's tools,
        held from."""
        self.trail.append((name, key, text, acts))
        self.circle_said = None
        if key in self.circles:
            self.pressed = name
            return set(self.circles[key])
        for n in range(2, ROUND + 1):
            last, before = self.trail[-n:], self.trail[-2 * n:-n]
            if len(before) == n and last == before and not all(acting for *_, acting in last):
                names = [tool for tool, *_ in last]
                self.circles[last[0][1]] = names
                self.circle_said = CIRCLE.format(n=n, calls=", ".join(names))
                break
        return set()

    def told_circle(self) -> str | None:
        """The note of a circle the last call closed, once (module doc); None else."""
        said, self.circle_said = self.circle_said, None
        return said

    def failed_again(self, key: str, error: str) -> None:
        """Keep a call's error; the second time the same call fails with the same error, nothing
        having acted since, it is not run again (module doc)."""
        earlier = self.failed.get(key)
        if earlier is not None and earlier.text == error:
            self.failing.setdefault(key, replace(earlier, failed=True))
        else:
            self.failed[key] = Earlier(self.step, error)

    def press(self, name: str) -> None:
        """A call refused because it said back a text the model was given (a question for the user
        that is our note: said_back.py): the next reply is held from that tool, where the endpoint
        can. Told so in words, the 0.5B asked the user our refusal five times over (newsletter,
        rows 0964a2e), each question copying the note before."""
        self.pressed, self.said_back = name, True

    def held_from(self) -> set[str]:
        """The tools a held reply keeps away from (reply_grammar.py): when a call was pressed this
        step, every tool told a repeat, or with a call settled, since the last act. Held from the pressed one only, the
        0.5B took the other of two reads it went between (flour-kg, rows 0964a2e: read_page,
        list_controls, read_page, list_controls, held three times, out of steps)."""
        return {self.pressed, *self.repeated_tools} if self.pressed else set()

    def repeated(self, name: str) -> None:
        """A repeat was told: for what follows, the step used that call."""
        self.names_this_step.append(name)

    def books_refusal(self, name: str) -> str | None:
        return BOOKS_ONLY.format(name=name) if self.books_only_steps >= 2 else None


def told_again(name: str, earlier: Earlier, question: str = "") -> str:
    """What the model reads of a call not run again: what it returned then; for a settled call,
    where that is, and the user's question."""
    asked = question if len(question) <= QUESTION_CHARS else question[:QUESTION_CHARS] + "…"
    asked = f" The user asked: {asked}" if asked else ""
    if earlier.failed:
        said = FAILED[(earlier.times - 3) % len(FAILED)]  # other words each time (run twice, asked a third)
        return (said.format(name=name, times=earlier.times, step=earlier.step, error=shown(earlier))
                + INSTEAD.format(name=name, question=asked))
    if earlier.times:
        return SETTLED.format(name=name, times=earlier.times, step=earlier.step, question=asked)
    return TOLD.format(name=name, step=earlier.step, result=shown(earlier))


def shown(earlier: Earlier) -> str:
    """What a call returned, said again: at most SHOWN_AGAIN characters of it."""
    result = earlier.text
    if len(result) > SHOWN_AGAIN:  # page text keeps its marking whole (excerpt.py)
        rest = f"[… the rest is in step {earlier.step}'s result]"
        result = cut_inside(result, SHOWN_AGAIN, rest) or f"{result[:SHOWN_AGAIN]}\n{rest}"
    return result


def told_same(name: str, step: int, text: str) -> str:
    return SAME.format(name=name, step=step, result=text)
