"""The agent loop: think (ask the model), act (run what it asked for), observe.

`Agent` owns the loop, memory and events. Its subclasses decide only how to read
an action from the model's reply (`extract_action`) and how to run it
(`execute_action`): `ToolCallingAgent` runs tool calls, `CodeAgent` runs code.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from . import prompts
from .asked_again import ASK_USER, AskedQuestions
from .call_log import BOOKKEEPING, CallLog, Earlier
from .clock import Clock
from .errors import ContextTooLongError, ModelError, ToolsRefusedError
from .events import Event, deliver, jsonable
from .images import without_image_data
from .managed import AgentTool
from .memory import ActionStep, FinalAnswerStep, Memory, TaskStep
from .notes import NoteTool, note_words, notes_text
from .page_quotes import COPIED, PageQuotes
from .parsing import parse_arguments
from .reply_checks import (TOOL_NOTES, Notes, announced_call, plans_calls, points_at_a_page, promises_an_action,
                           reading_call, shown_call, unread_call_note)
from .said_back import act_said_back, question_refused, ran_out, said_back, stopped, told
from .replies import ToolCall
from .repeated_reply import Replies
from .reply_grammar import AFTER_MISREADS, EVERY_REPLY, HOLDS, MISREADS, NEVER, forget, tool_call_schema
from .text_calls import quotes_a_call, split_text_calls
from .tool_refusals import remember_refusal
from .tool_set import MoreTools, ToolSet, compact_for
from .tools import FinalAnswerTool, FunctionTool, Tool
from .unfounded import unfounded_note
from .unissued_locator import locators_in, unissued

if TYPE_CHECKING:
    from .context_keeper import ContextKeeper
    from .events import Listener
    from .models import Model
    from .replies import ModelReply
    from .vision import Vision


NOT_AN_ANSWER = object()  # a last reply that asks for something to run: it is not the answer
OUT_OF_STEPS = ("I ran out of steps ({steps}) before I could answer: my last reply asked for another "
                "step instead of answering, and it was not run.")


def out_of_steps(steps: int, calls: Sequence[str], notes: Sequence[str], why: str = "") -> str:
    """What the user is told when the run ended with no answer: that (or `why`), what it did, and
    the notes the model kept (its own words; nothing is made up from what the tools returned)."""
    said = [why or OUT_OF_STEPS.format(steps=steps)]
    if calls:
        counted = Counter(calls)
        said.append("What I did: " + ", ".join(
            f"{name} ({n} times)" if n > 1 else name for name, n in counted.items()) + ".")
    else:
        said.append("I called no tool.")
    if notes:
        said.append("My notes:\n" + "\n".join(f"- {note_words(note)}" for note in notes))
    return " ".join(said[:2]) + ("\n\n" + said[2] if len(said) > 2 else "")


HELD = ("Two of the model's tool calls in this turn could not be read, so its next reply is held "
        "to a tool call of the listed tools (the endpoint's constrained decoding).")
HELD_FROM = ("The model called {name} again with the same arguments after being told it repeated that "
             "call, so its next reply is held to a call of the listed tools but {held} (the endpoint's "
             "constrained decoding).")
HELD_SAID_BACK = ("The model's {name} call said back a text it had been given, so its next reply is held to a call "
                  "of the listed tools but {held} (the endpoint's constrained decoding).")


class Agent:
    # mark(source, text): page text marked as untrusted, as the app's one marking function does
    # (app/untrusted_content.py); a note the model made of page text is kept so (notes.py).
    page_marker: Callable[[str, str], str] | None = None
    # A call made again after the model was told it repeated it: the next reply is held to a
    # call of the other tools (call_log.py `pressed`, reply_grammar.py). The ToolCallingAgent's.
    holds_repeats = False

    def __init__(self, model: Model, tools: Iterable[Tool | Callable[..., Any]] = (), *, name: str = "agent",
                 description: str = "", max_steps: int = 10, conversation_id: str | None = None,
                 memory: Memory | None = None, listeners: Iterable[Listener] = (),
                 managed_agents: Iterable[Agent | AgentTool] = (), max_observation_chars: int = 20_000,
                 instructions: str = "", context: ContextKeeper | None = None, vision: Vision | None = None,
                 tool_set: str = "auto", hold_replies: str = AFTER_MISREADS) -> None:
        self.model, self.name, self.description = model, name, description
        self.instructions = instructions  # added to system_prompt(), never replacing it
        self.max_steps, self.max_observation_chars = max_steps, max_observation_chars
        self.conversation_id = conversation_id or uuid.uuid4().hex
        self.memory = memory if memory is not None else Memory()
        self.context = context  # a context.ContextKeeper: requests fit the window; None: sent as is
        self.brief_prompt = False  # tools told in one line each: tell_tools_briefly() sets it
        self.vision = vision  # a vision.Vision, shared by the turn: whether the model takes images
        self.listeners = list(listeners)
        self.tool_set = ToolSet(tool_set)  # which tools a request lists (tool_set.py)
        self.tools: dict[str, Tool] = {}
        for item in [*tools, *managed_agents, NoteTool(self), MoreTools(self), FinalAnswerTool()]:
            self.tools.setdefault((t := self._as_tool(item)).name, t)
        self.step = 0
        # "running", then how the last run ended: "ok", "error", "cancelled" or "max_steps".
        self.status: str | None = None
        self.upstream: Agent | None = None  # the agent we work for: our events go up to it
        self._task: asyncio.Task | None = None
        self._cancel_requested = False
        self._usage: dict[str, int] = {}  # the tokens of this run's model calls, summed
        self._streamed = {"text": 0, "reasoning": 0}  # by the model call under way: withdrawn if it fails
        self._reminded = False  # this turn's one reminder to act (reply_checks.py) was given
        self._told_unread = False  # this turn's one "you have not read the page yet" was given
        self.said: list[str] = []  # the notes this turn sent the model: an answer that echoes one is not one
        self._said_back: tuple[str, str] | None = None  # this turn's one answer that said a text back (said_back.py)
        self._stopped: str | None = None  # the user's answer, when a second one ended the turn
        self._echoes = 0  # replies that said a text back, this agent's life (a step's `echo`)
        self._told_unfounded = False  # this turn's one answer with numbers nothing read was told (unfounded.py)
        self._users_words = True  # the turn's task is the user's message (not TabAgent's own words)
        self.clock = Clock(getattr(model, "host", None))  # today's date and time, in every request
        self.calls = CallLog()  # what this run called: repeats are told (call_log.py)
        self.asked = AskedQuestions()  # the questions the user answered this run (asked_again.py)
        self.page_quotes = PageQuotes()  # the calls pages wrote: copied, they do not run
        self.misread = 0  # replies whose calls could not be read since a reply was last held
        # When replies are held to a tool call, where the endpoint can (reply_grammar.HOLDS);
        # every reply: the ToolCallingAgent's only, whose every reply is a call.
        self.hold_replies = hold_replies if hold_replies in HOLDS else AFTER_MISREADS
        self._holding: dict | None = None  # the schema the request under way holds its reply to
        self.replies = Replies()  # a reply the same as the one before: the next request is varied

    async def run(self, task: str, reset: bool = True) -> Any:
        """Work on `task` until a final answer; returns it (None if cancelled).
        With reset=False the conversation in `memory` continues."""
        if reset:
            await self.reset()
        self.memory.append(TaskStep(str(task), parts=list(getattr(task, "parts", ()))))  # pictures the user attached
        self._users_words = getattr(task, "said_by_user", True)  # reply_checks.AgentsWords: TabAgent's
        self._task, self._cancel_requested, self.step = asyncio.current_task(), False, 0
        self.status = "running"
        self._usage, self._reminded, self.calls, self.misread = {}, False, CallLog(), 0
        self._told_unread, self.said, self._said_back, self._stopped = False, [], None, None
        self._told_unfounded, self.replies, self.asked = False, Replies(), AskedQuestions()
        try:
            answer, status = await self._loop()
        except asyncio.CancelledError:
            await self._finish("cancelled")
            if not self._cancel_requested:
                raise  # cancelled from above (e.g. our manager was stopped): keep unwinding
            self._task.uncancel()
            return None
        except Exception as error:
            kind = getattr(error, "kind", "agent")  # ModelErrors say what failed; others are bugs
            message = str(error) if kind != "agent" else f"{type(error).__name__}: {error}"
            await self.emit("error", {"message": message, "kind": kind})
            await self._finish("error", error=message)
            raise
        self.memory.append(FinalAnswerStep(answer))
        await self.emit("final_answer", {"answer": jsonable(answer)})
        await self._finish(status)
        return answer

    async def _loop(self):
        while self.step < self.max_steps:
            self.step += 1
            await self.emit("step_start", {})
            step = ActionStep(self.step, start_time=time.time())
            reply = await self._generate()
            step.model_output, step.usage = reply.content, reply.usage
            step.reasoning, step.reasoning_field = reply.reasoning, reply.reasoning_field
            action = self.extract_action(reply)
            is_final, answer, echoes = False, None, self._echoes
            if action is not None:
                self.calls.start_step(self.step)
                is_final, answer = await self.execute_action(action, step)
                self.calls.end_step()
            else:  # no action: the text is the answer, unless the model must be told otherwise
                step.error = self.not_an_answer(reply.content)
                is_final, answer = step.error is None, reply.content
            if is_final and (held := self.unfounded(answer) or await self.held_answer()):
                step.error, is_final = held, False
            step.end_time = time.time()
            step.echo = self._echoes > echoes  # not sent back as the model's own (memory.py)
            self.memory.append(step)
            if is_final:
                return answer, "ok"
            if self._stopped is not None:  # said a text back twice: no step more would answer
                return self._stopped, "max_steps"
        return await self._best_answer(), "max_steps"

    def not_an_answer(self, content: str) -> str | None:
        """What to tell the model when a reply with no action is not the answer either: it is
        empty, a call that could not be read, a note of ours said back, or (once per turn) a
        promise to act not kept. What it is told is kept, so that it is not taken back as an answer."""
        note = self._not_an_answer(content)
        if note and note not in self.said[-1:]:  # answered_unread and echoed_note keep their own
            self.said.append(note)
        return note

    def saying(self, note: str) -> str:
        """`note`, kept among what this turn told the model (echoed_note)."""
        self.said.append(note)
        return note

    async def held_answer(self, can_act: bool = True) -> str | None:
        """What the model must hear before its answer is taken, from the tools that keep watching
        after their results (`before_answer`: a download whose server answered after the last
        action, app/downloads.py UnnamedDownloads), or None. Each tells a thing once; `can_act`:
        the model may still call a tool (not out of steps)."""
        said = []
        for tool in list(self.tools.values()):
            if (hold := getattr(tool, "before_answer", None)) and (note := await hold(self, can_act)):
                said.append(note)
        return self.saying("\n\n".join(said)) if said else None

    def echoed_note(self, answer: object) -> str | None:
        """What to tell a model whose answer says back a text it was given this turn, not answering
        (said_back.py: the 0.5B answered with our note, with our error, with the page read): once a
        turn. A second time the turn ends (`_stopped`, status max_steps, what it did said), asking
        nothing more: told in so many words, the model said a text back again, and the text is in
        the panel already, as the tool's result or our note; taking it would pass a dump off as
        an answer."""
        found = self.says_back(answer)
        if found is None:
            return None
        self._echoes += 1
        if self._said_back is not None:
            self._stopped = out_of_steps(self.max_steps, self.calls.history, self.memory.notes, why=stopped(*found))
            return told(*found)
        self._said_back = found
        return self.saying(self.with_the_read(told(*found, instead=self.notes.instead.format(tools=self.tools_to_call()))))

    def unfounded(self, answer: object, can_act: bool = True) -> str | None:
        """What to tell a model whose answer gives numbers that nothing this turn read holds, nor
        could give (unfounded.py): once a turn; the next answer is taken."""
        if self._told_unfounded or (note := unfounded_note(self, answer, can_act)) is None:
            return None
        self._told_unfounded = True
        return self.saying(note)

    def question_said_back(self, name: str, arguments: object) -> str | None:
        """The error for a question to the user (ask_user) that says back a text the model was
        given (said_back.py): not asked, the user never saw that text; or None. Both agents ask it
        before the call runs."""
        if name != ASK_USER or not isinstance(arguments, dict):
            return None
        found = self.says_back(arguments.get("question", ""))
        if found is None:
            return None
        return question_refused(found, self.notes.instead.format(tools=self.tools_to_call()))

    def asked_again(self, name: str, arguments: object, tool: object) -> Earlier | None:
        """The earlier asking of a question the user answered this turn, asked again: not asked,
        told back (asked_again.py); asked yet again after that, the step is pressed (call_log.py:
        a held reply keeps away from ask_user). Else None. Both agents ask it before the call runs."""
        earlier = self.asked.again(name, arguments, tool)
        if earlier is not None:
            self.calls.repeated(name)
            self.calls.repeated_tools.add(name)
            if earlier.times > 1:
                self.calls.pressed = name
        return earlier

    def act_said_back(self, name: str, arguments: object, tool: object) -> str | None:
        """The error for an act whose text says back a text the model was given (said_back.py
        act_said_back: our words would reach the page), or None. Both agents ask it before the
        act runs; ask_user has its own (question_said_back)."""
        if name == ASK_USER or not getattr(tool, "acts", False):
            return None
        return act_said_back(name, arguments, self.says_back, [self.turn_message(), *self.asked.answers])

    def act_on_unissued_locator(self, arguments: object, tool: object) -> str | None:
        """The error for an act on a locator no tool gave (unissued_locator.py), or None. Both
        agents ask it before the act runs."""
        if not getattr(tool, "acts", False) or not locators_in(arguments):
            return None  # most acts name no locator of ours: nothing to look up
        # (an error gives no locator: ours, this one's among them, say which were not found)
        texts = [*(text for _, text, error in self.calls.results if not error), *self.asked.answers]
        pictures = False
        for step in self.memory.steps:
            texts += [str(getattr(step, "task", "")), str(getattr(step, "summary", ""))]
            observations = getattr(step, "observations", None) or []
            texts += [str(o.get("content") or "") for o in observations if not o.get("is_error")]
            pictures = pictures or bool(getattr(step, "parts", None)) or any(o.get("parts") for o in observations)
        # this step's own pictures are not in memory yet: the model has not seen them
        return unissued(arguments, texts, pictures)

    def says_back(self, answer: object) -> tuple[str, str] | None:
        """Whether `answer` says back an error, our note, or a tool's result (said_back.py)."""
        return said_back(answer, self.ours(), [(tool, text) for tool, text, is_error in self.calls.results if not is_error],
                         self.errors())

    def ours(self) -> list[str]:
        """TabAgent's own texts this turn (said_back.py): the notes it sent and what the tools that
        keep the run's books returned ("Noted (1 note kept)."); every note it writes is ours
        besides (our_notes.py)."""
        return [*self.said, *self.calls.books]

    def errors(self) -> list[tuple[str, str]]:
        """(the tool, the error) of each call this turn that failed (said_back.py)."""
        return [(tool, text) for tool, text, is_error in self.calls.results if is_error]

    def tools_to_call(self) -> str:
        """The tools that work on the task, as a note names them (what to call instead)."""
        return ", ".join(tool.name for tool in self.task_tools())

    def task_tools(self) -> list[Tool]:
        """The listed tools that work on the task (not final_answer, not the run's books)."""
        return [t for t in self.listed_tools() if t.name not in (*BOOKKEEPING, "final_answer")]

    def _not_an_answer(self, content: str) -> str | None:
        if not content.strip():
            return prompts.EMPTY_REPLY
        if note := self.echoed_note(content):
            return note
        if note := unread_call_note(content, self.tools, self.notes) or self.announced_note(content):
            self.misread = MISREADS if self.means_a_call(content) else self.misread + 1  # two, and the next is held
            return note
        if self.planned(content) and not (self.calls.made and self._reminded):
            self._reminded = True
            return self.with_the_read(self.notes.planned)
        if len(self.tools) > 1 and promises_an_action(content):  # no answer, ever: nor the unread note's
            self._reminded = True
            self.misread += 1  # said it would act, and did not: two, and the next reply is held to a call
            return self.with_the_read(self.notes.reminder)
        return self.answered_unread()

    def planned(self, content: str) -> bool:
        """Whether the reply is a plan of calls (reply_checks.plans_calls) of the tools it may name."""
        return plans_calls(content, self.tool_names())

    def announced_note(self, content: str) -> str | None:
        """What to tell a model whose reply shows a call in a code block and does not make it,
        saying it does (reply_checks.announced_call) or not (shown_call): the call, written the way
        that runs. Every time, never once a turn: the 0.5B, told once, said it again, and that was
        the answer the user got."""
        if (call := announced_call(content, self.tool_names())) is not None:
            if page := self.copied_from_a_page(call):  # never shown back to the model as the way to act
                return COPIED.format(source=page)
            note = self.notes.announced
        elif (call := shown_call(content, self.reading_tool_names())) is not None and not self.copied_from_a_page(call):
            note = self.notes.shown  # a page's sample call quoted in an answer ("which I ignored") stays an answer
        else:
            return None
        name, written = self.written_call(call)
        return note.format(name=name, call=written)

    def means_a_call(self, content: str) -> bool:
        """Whether the reply shows a call of one of the tools, whole and readable, only quoted (a
        plan of calls in code blocks): the model means to call, and only its form is wrong, so its
        next reply is held to a call at once (reply_grammar.py), not after two. The 1.5B's first
        reply to the ToolCallingAgent was such a plan in 6 of 7 tasks (rows aa3e3ff), in
        cheaper-kettle starting with the right call, list_tabs (rows 48409b2); told it back, it
        wrote "Please provide the call again" and read the one tab it was on."""
        _, written = split_text_calls(content, self.tool_names(), anywhere=True)
        return any(call.name != "final_answer" and not self.copied_from_a_page(call) for call in written)

    def reading_tool_names(self) -> dict[str, Tool]:
        """The names a call written in a reply may give a tool that only reads: not one that acts,
        keeps the run's books, answers, or is another agent. A call shown of one of these, unsaid,
        is the model's next step (shown_call); of any other, it may be the answer's subject."""
        return {name: tool for name, tool in dict(self.tool_names()).items()
                if not getattr(tool, "acts", False) and not isinstance(tool, AgentTool)
                and getattr(tool, "name", name) not in (*BOOKKEEPING, "final_answer", ASK_USER)}

    def copied_from_a_page(self, call: ToolCall) -> str | None:
        """Where the page is that wrote this very call (page_quotes.py), if one did."""
        try:
            arguments = parse_arguments(call.arguments)
        except ValueError:
            return None
        name = getattr(dict(self.tool_names()).get(call.name), "name", call.name)
        return self.page_quotes.copied(self.memory, self.tools, name, arguments)

    def tool_names(self) -> Collection[str]:
        """The names a call written in a reply may give a tool."""
        return self.tools

    def written_call(self, call: ToolCall) -> tuple[str, str]:
        """(the tool's name, `call` as the model makes it in text): a JSON object."""
        try:
            arguments = parse_arguments(call.arguments)
        except ValueError:
            arguments = {}
        return call.name, json.dumps({"name": call.name, "arguments": arguments}, ensure_ascii=False)

    def answered_unread(self) -> str | None:
        """What to tell a model that answers before any tool ran in a turn whose message points at
        a page ("What is the shop's address? (The page is http://...)"): once a turn, that it has not
        read the page yet. Qwen2.5-Coder-0.5B answered "127.0.0.1:44911" to that, unread (issue 48).
        A second answer is the answer: a question that needs no page loses one reply, once."""
        if self._told_unread or not self.nothing_read():
            return None
        self._told_unread = True
        return self.saying(self.with_the_read(self.notes.unread_page.format(call=reading_call(*self.reading_tool()))))

    def with_the_read(self, note: str) -> str:
        """`note`, ending with the call that reads the page written the way that runs, while nothing
        has been read in a turn about a page and that call needs no arguments. The 0.5B, told it had
        not read the page, answered with the note's last sentence, then with the next note's
        (bench rows, closed-day, 2026-12-07): a model that copies the end of what it is told then
        makes the call."""
        reader = self.reading_tool() if self.nothing_read() else None
        if reader is None or (reader[0].parameters or {}).get("required"):
            return note
        return f"{note}\n\n{self.notes.read_it.format(call=self.written_call(ToolCall('', reader[0].name, '{}'))[1])}"

    def nothing_read(self) -> bool:
        """Whether the user's message points at a page, a tool could read it, and no tool has run
        in this turn: then nothing on the page can be in what the model says."""
        return not self.calls.made and points_at_a_page(self.turn_message()) and self.reading_tool() is not None

    def reading_tool(self) -> tuple[Tool, str] | None:
        """(the first listed tool that may read, the name the model calls it by), or None: a tool
        of the task's (not one that keeps the run's books, acts, or is another agent)."""
        for tool in self.listed_tools():
            if tool.name not in (*BOOKKEEPING, "final_answer") and not tool.acts and not isinstance(tool, AgentTool):
                return tool, tool.name
        return None

    def turn_message(self) -> str:
        """The user's message this turn is about ("" when TabAgent wrote it, or with pictures:
        the page may be in them)."""
        task = next((s for s in reversed(self.memory.steps) if isinstance(s, TaskStep)), None)
        return "" if task is None or task.parts or not self._users_words else task.task

    # --- What subclasses define ----------------------------------------------------

    notes: Notes = TOOL_NOTES  # what the model is told about a reply that is not an answer

    def system_prompt(self) -> str:
        raise NotImplementedError

    def tool_schemas(self) -> list[dict] | None:
        """The tools sent to the endpoint's native tool calling (None: don't send)."""
        return None

    def extract_action(self, reply: ModelReply) -> object | None:
        """The action in a model reply, or None when it has none."""
        raise NotImplementedError

    async def execute_action(self, action: Any, step: ActionStep) -> tuple[bool, object]:
        """Run `action`, recording it in `step`; return (is_final, answer)."""
        raise NotImplementedError

    # --- Helpers ---------------------------------------------------------------------

    def write_messages(self) -> list[dict]:
        prompt = "\n\n".join(p for p in (self.system_prompt(), self.clock.line(), self.instructions,
                                          notes_text(self.memory.notes)) if p)
        return self.memory.to_messages(prompt, sees_images=self.sees_images)

    def listed_tools(self) -> list[Tool]:
        """The tools this request tells the model of (tool_set.py); all stay callable."""
        return self.tool_set.listed(self.tools, self.sees_images)

    @property
    def native_tools(self) -> bool:
        """Whether the tools go in the request's `tools` (else the prompt teaches text calls):
        a model that takes none says so with `takes_tools = False` (tool_refusals.py)."""
        return getattr(self.model, "takes_tools", True)

    @property
    def sees_images(self) -> bool:
        """False when the model is known to take no images: pictures are sent as a note."""
        return self.vision is None or self.vision.sees is not False

    async def reset(self) -> None:
        self.memory.reset()

    def tell_tools_briefly(self) -> bool:
        """From now on each tool is told in one line in the system prompt: for a window the
        full descriptions would crowd (context_keeper.py); and the compact set, unless the setting
        asks for the full one. False when they were told so already."""
        if self.brief_prompt:
            return False
        self.brief_prompt = True
        self.tool_set.compact = self.tool_set.setting != "full"
        return True

    def fit_tools_to(self, window_tokens: int) -> bool:
        """The compact tool set for a small window, unless the setting says otherwise
        (tool_set.py). True when this changed what the requests list."""
        if self.tool_set.compact or not compact_for(self.tool_set.setting, window_tokens):
            return False
        self.tool_set.compact = self.brief_prompt = True
        return True

    def cancel(self) -> None:
        """Stop the run, and every managed agent working under it."""
        if self.status == "running" and self._task is not None:
            self._cancel_requested = True
            self._task.cancel()

    async def emit(self, kind: str, data: dict) -> Event:
        self.memory.seq += 1
        event = Event(kind, self.conversation_id, self.name, 0, self.step, self.memory.seq,
                      time.time(), data)
        await self._publish(event)
        return event

    async def _publish(self, event: Event) -> None:
        await deliver(event, self.listeners)
        if self.upstream is not None:  # one level up: one deeper, in its sequence
            up = self.upstream
            up.memory.seq += 1
            await up._publish(replace(event, depth=event.depth + 1, seq=up.memory.seq,
                                      conversation_id=up.conversation_id))

    async def _generate(self, tail: Sequence[dict] = ()) -> ModelReply:
        """The model's reply to the memory's messages and `tail` (a last prompt). An endpoint
        that refuses tool definitions is asked once more with the tools in the prompt; after
        two replies whose calls could not be read, the next is held to a tool call where the
        endpoint can (reply_grammar.py), and after a call made again once told it repeated (the
        ToolCallingAgent's), to a call of the other tools."""
        sends_tools = self.tool_schemas() is not None
        pressed = self.calls.pressed if self.holds_repeats and self.hold_replies != NEVER else None
        without = self.calls.held_from() if pressed else set()
        try:
            if not tail and (pressed or self._holds_every_reply()
                             or self.misread >= MISREADS and self.hold_replies != NEVER):
                return await self._held_reply(pressed, without)
            return await self._fit_and_ask(self.write_messages() + list(tail))
        except ToolsRefusedError as refusal:
            if not sends_tools:
                raise
            remember_refusal(self.model)  # from now on tool_schemas() is None: text calls
            await self.emit("error", {"kind": "text_calls", "message": refusal.message})
            return await self._fit_and_ask(self.write_messages() + list(tail))

    def _holds_every_reply(self) -> bool:
        """Whether each reply is held to a call, as the user set it: only an agent whose every
        reply is a call (the ToolCallingAgent) has its replies held from the first."""
        return self.hold_replies == EVERY_REPLY and self.holds_repeats

    async def _held_reply(self, pressed: str | None = None, without: Collection[str] = ()) -> ModelReply:
        """The next reply held to a call of the listed tools, but `without` (never final_answer),
        where the endpoint can; else asked as ever. `pressed`: the tool called again after being
        told it repeated (call_log.py), said in the event."""
        self.calls.pressed = None
        if self.misread >= MISREADS:
            self.misread = 0
        way = await self.model.reply_constraint()
        if way is None:
            return await self._fit_and_ask(self.write_messages())
        self.misread = 0
        why = HELD_SAID_BACK if self.calls.said_back else HELD_FROM
        message = why.format(name=pressed, held=", ".join(sorted(without))) if pressed else HELD
        if pressed or not self._holds_every_reply():  # held as the user set it: nothing to say
            await self.emit("error", {"kind": "constrained", "message": message})
        self._holding = tool_call_schema([t for t in self.listed_tools() if t.name not in without or t.name == "final_answer"])
        try:
            return await self._fit_and_ask(self.write_messages())
        except ModelError as error:
            if error.retryable:
                raise
            forget(getattr(self.model, "url", ""))  # it said it could, and refused: ask as ever
            self._holding = None
            return await self._fit_and_ask(self.write_messages())
        finally:
            self._holding = None

    async def _fit_and_ask(self, messages: list[dict]) -> ModelReply:
        """`messages` fitted to the context window (context_keeper.py), then sent; if the server
        still refuses them as too long, compacted once more and sent once more."""
        if self.context is None:
            return await self.ask_model(messages)
        messages = await self.context.fit(self, messages)
        try:
            return await self.ask_model(messages)
        except ContextTooLongError as error:
            return await self.ask_model(await self.context.recover(self, messages, self.tool_schemas(), error))

    async def ask_model(self, messages: list[dict]) -> ModelReply:
        """Sends `messages` to the model as they are, streaming its reply out as events."""
        self._streamed = {"text": 0, "reasoning": 0}
        held = {"reply_schema": self._holding} if self._holding is not None else {}
        if self.replies.take() and getattr(self.model, "can_vary", False):  # repeated_reply.py
            held["varied"] = True
        try:
            reply = await self.model.generate(messages, self.tool_schemas(), on_token=self._on_token,
                                              on_retry=self._on_retry, on_reasoning=self._on_reasoning, **held)
        except Exception as error:  # what was sent and received is the best clue to a failure
            await self._trace(getattr(error, "exchanges", ()))
            raise
        await self._trace(reply.exchanges)
        self.replies.saw(reply)
        if reply.finish_reason == "length":
            await self.emit("error", {"kind": "truncated", "message": "The reply was cut off at the "
                                      "model's output limit; what it wrote so far is kept."})
        for key, value in (reply.usage or {}).items():
            self._usage[key] = self._usage.get(key, 0) + value
        return reply

    async def _trace(self, exchanges) -> None:
        for exchange in exchanges:  # a picture's bytes would fill the stored trace: its size is said
            await self.emit("model_call", {**exchange, "request": without_image_data(exchange.get("request") or "")})

    async def _on_token(self, text: str) -> None:
        self._streamed["text"] += len(text)
        await self.emit("token", {"text": text})

    async def _on_reasoning(self, text: str) -> None:
        self._streamed["reasoning"] += len(text)
        await self.emit("reasoning", {"text": text})

    async def _on_retry(self, error, attempt: int, delay: float) -> None:
        tries = max(getattr(error, "max_attempts", 1), attempt + 1)  # a model may not say
        withdraw, self._streamed = self._streamed, {"text": 0, "reasoning": 0}
        reason = error.message.rstrip()
        reason += "" if reason.endswith((".", "!", "?")) else "."  # the server's words may end bare
        # The numbers go as data (a surface counts down in its own words); `message` is the
        # same said once in English, for a log or a terminal.
        await self.emit("error", {"message": f"{reason} Attempt {attempt + 1} of {tries} in "
                                             f"{delay:.1f} s.", "kind": "retrying", "reason": reason,
                                  "cause": error.kind, "status": error.status, "retry_in": delay,
                                  "attempt": attempt, "max_attempts": tries, "withdraw": withdraw})

    async def _best_answer(self):
        """Out of steps: ask once for the best answer from what the run found. A reply that is
        a call (made, or written in any shape the agent reads) or code is not an answer, and
        nothing runs now: the user is told the run ran out of steps, and what it did. Nothing is
        asked when the message is about a page nothing read: the 0.5B's CodeAgent ran Python eight
        times without a tool and then answered "$20", a price no page showed (issue 48). An answer
        that says a text back (said_back.py: the page as we marked it) is told once, as in a step,
        unless the turn told one already, and is never taken: the user is told what it gave back."""
        if self.nothing_read():  # a page question, and nothing read it: any answer now is made up
            await self.emit("error", {"kind": "max_steps", "message": f"{self.name} ran out of steps "
                                      f"({self.max_steps}) before reading the page it was asked about."})
            answer = out_of_steps(self.max_steps, self.calls.history, self.memory.notes)
            self.memory.append(ActionStep(self.step, model_output=answer))
            return answer
        await self.emit("error", {"kind": "max_steps", "message": f"{self.name} ran out of steps "
                                  f"({self.max_steps}) before finishing; asking for its best answer."})
        held = await self.held_answer(can_act=False)
        asked = [{"role": "user", "content": prompts.MAX_STEPS + (f"\n\n{held}" if held else "")}]
        answer, reply, found = await self._last_answer(asked)
        if found is not None and self._said_back is None:  # said a text back: told once, as in a step
            self._said_back = found
            asked += [{"role": "assistant", "content": str(answer)}, {"role": "user", "content": told(*found)}]
            answer, reply, found = await self._last_answer(asked)
        if found is None and answer is not NOT_AN_ANSWER and (note := self.unfounded(answer, can_act=False)):
            asked += [{"role": "assistant", "content": str(answer)}, {"role": "user", "content": note}]
            answer, reply, found = await self._last_answer(asked)  # told once: this one is taken
        if found is not None or answer is NOT_AN_ANSWER:
            why = ran_out(self.max_steps, *found) if found else ""
            answer = out_of_steps(self.max_steps, self.calls.history, self.memory.notes, why=why)
        self.memory.append(ActionStep(self.step, model_output=str(answer), usage=reply.usage))
        return answer

    async def _last_answer(self, asked: list[dict]) -> tuple[object, ModelReply, tuple[str, str] | None]:
        """The answer the model gives to `asked` out of steps, or NOT_AN_ANSWER; its reply; and
        what the answer said back (said_back.py: our words, a tool's, page text as we marked it),
        if it did: then it is not the answer either."""
        reply = await self._generate(asked)
        answer = self.answer_in(reply)
        return answer, reply, (self.says_back(answer) if answer is not NOT_AN_ANSWER else None)

    def answer_in(self, reply: ModelReply) -> object:
        """The answer a last reply gives: its text, or what a final_answer call in it says;
        NOT_AN_ANSWER when it is empty, a call that could not be read, or any other action."""
        action = self.extract_action(reply)
        if action is None:
            unread = not reply.content.strip() or unread_call_note(reply.content, self.tools, self.notes) \
                or announced_call(reply.content, self.tool_names()) or (not self.calls.made and self.planned(reply.content)) \
                or quotes_a_call(reply.content, self.tools) \
                or (len(self.tools) > 1 and promises_an_action(reply.content))  # asked for no call: one shown, or
            # promised, is no answer either
            return NOT_AN_ANSWER if unread else reply.content
        return self.final_answer_in(action)

    def final_answer_in(self, action: Any) -> object:
        """The answer a final_answer in an action not run gives, or NOT_AN_ANSWER."""
        return NOT_AN_ANSWER

    async def _finish(self, status: str, **extra) -> None:
        self.status = status
        await self.emit("done", {"status": status, "steps": self.step, "usage": self._usage, **extra})

    def _as_tool(self, item) -> Tool:
        if isinstance(item, Agent):
            item = AgentTool(item)
        if isinstance(item, AgentTool):
            item.agent.upstream = self
        return item if isinstance(item, Tool) else FunctionTool(item)
