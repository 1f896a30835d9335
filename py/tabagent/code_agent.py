"""CodeAgent: the model acts by writing Python, which an executor runs.

Tools are plain functions inside the code, each under a Python name (code_names.py: a tool
named `srv__get-sum` is called as `srv__get_sum`); `final_answer(...)` ends the run; what
the code prints (or its error) is what the model observes next. A reply that makes its
calls the tool-calling way instead (JSON, `<tool_call>`, any shape text_calls.py reads; by
either name) is run as the code that makes those calls, never taken as the answer.
"""

from __future__ import annotations

import ast
import keyword
import re
from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from . import prompts
from .code_names import code_names
from .agent import NOT_AN_ANSWER, Agent
from .asked_again import told_back
from .call_log import BOOKKEEPING, SAME_IN_CODE, TOLD_IN_CODE, Earlier, told_again
from .code_repeats import (CodeRepeats, Failure, Ways, cannot_work_here, failed_again, failure_in, settled_block,
                           settled_failure, tool_as_method, way_for)
from .page_quotes import COPIED, COPIED_CODE, copied_code
from .events import jsonable
from .executor import Executor, LocalExecutor
from .memory import ActionStep, cut
from .replies import ModelReply, ToolCall, new_call_id
from .parsing import find_code, parse_arguments
from .reply_checks import CODE_NOTES, reading_call
from .text_calls import nexus_raven_code, split_text_calls
from .tools import Failed, Tool, ToolInputError, format_result
from .our_notes import our_note

if TYPE_CHECKING:
    from .models import Model

MORE = our_note("To see the rest, keep the value in a variable and print a slice of it, e.g. text[2000:4000].")
ANSWER_WAITS = our_note("Your final answer was not taken: you wrote it out in the same code that called {tools}, "
                        "before seeing what they returned. Print what you need from them (they are in your "
                        "variables); then give the answer you find there with final_answer.")

# After code that called no tool, in a turn about a page nothing has read: each time, how to read
# it. The 0.5B ran Python eight times without a tool, then answered a price no page showed.
NOT_READ_YET = our_note("Nothing has read the page yet: this code called no tool, so nothing it printed came "
                        "from the page. Read the page in your next code block: print({call}).")

# Qwen2.5-Coder-0.5B copied the prompt's tool listing as code: `def read_page(...): return "The
# blue enamel kettle costs $20."`, then `def note(text): ...` seven times (the real-model bench's
# kettle-price, a607363), and never read the page. A definition would hide the real tool.
REDEFINED = our_note("Your code defines {names}, which the tools already are: they are ready to call, and "
                     "code that defines one would hide the real one, so nothing ran. Call the tool instead of "
                     "defining it, e.g. print({example}).")
# Code that calls the tools and defines them too runs without those definitions (left_out says so).
LEFT_OUT = our_note("Your {definitions} of {names} {were} left out, not run: {they} your tools already, and the "
                    "rest of your code ran with the real {ones}. Call the tools; never define them.")


def redefined_tools(code: str, tools: Collection[str]) -> list[str]:
    """The tools (and final_answer) that `code` defines (def, class) at its top level, in order.
    A variable that takes a tool's name (`note = ...`) is the model's data, not a copy: it runs.
    Code that does not parse is read line by line: the 0.5B pasted stubs without bodies
    (`def read_page(...) -> str:` then `def list_controls(...`), the newsletter task at f4ff431."""
    try:
        ast.parse(code)
    except SyntaxError:
        found = re.findall(r"^(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)", code, re.M)
        return list(dict.fromkeys(name for name in found if name in tools))
    return list(dict.fromkeys(node.name for node in _tool_definitions(code, tools)))


def without_tool_definitions(code: str, tools: Collection[str]) -> str | None:
    """`code` without its top-level definitions of tools, every other line as the model wrote it;
    None when what is left calls nothing (it was only the copied listing: nothing to run)."""
    definitions = _tool_definitions(code, tools)
    left_out = {line for node in definitions
                for line in range(min([node.lineno, *(d.lineno for d in node.decorator_list)]), node.end_lineno + 1)}
    kept = "".join(line for number, line in enumerate(code.splitlines(keepends=True), 1) if number not in left_out)
    kept = re.sub(r"\n{3,}", "\n\n", kept).strip("\n")
    try:
        calls = any(isinstance(node, ast.Call) for node in ast.walk(ast.parse(kept)))
    except SyntaxError:
        return None
    return kept if calls else None


def _tool_definitions(code: str, tools: Collection[str]) -> list[ast.stmt]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    return [node for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in tools]


class CodeAgent(Agent):
    notes = CODE_NOTES

    def __init__(self, model: Model, tools: Iterable[Tool | Callable[..., Any]] = (), *,
                 executor: Executor | None = None, **kwargs: Any) -> None:
        super().__init__(model, tools, **kwargs)
        self.executor = executor or LocalExecutor()
        self.shown_parts: list[dict] = []  # what the code's tool calls showed, this step
        self.step_notes: list[str] = []  # calls not run again (call_log.py), this step
        self.unseen: list[str] = []  # tools the code called this step, whose results it has not printed
        self.acted = False  # whether the code called a tool that acts, this step
        self.repeats = CodeRepeats()  # the blocks this run ran, and their errors (code_repeats.py)
        self.code_errors: list[str] = []  # what the code raised, this run (said_back.py)
        self.code_written: list[str] = []  # the code this run ran, in order (unfounded.py)

    async def run(self, task: str, reset: bool = True) -> Any:
        self.repeats, self.code_errors, self.code_written = CodeRepeats(), [], []  # each run its own, as its CallLog
        return await super().run(task, reset)

    def code_tools(self) -> dict[str, Tool]:
        """{the Python name the code calls a tool by: the tool}: the prompt, the executor
        and the reading of a reply all use these names (code_names.py)."""
        return code_names(self.tools)

    def system_prompt(self) -> str:
        code_name = {id(tool): name for name, tool in self.code_tools().items()}
        listed = {code_name[id(tool)]: tool for tool in self.listed_tools()}  # in the agent's order
        return prompts.code_system(self.name, listed, brief=self.brief_prompt,
                                   environment=self.executor.environment)

    def extract_action(self, reply: ModelReply) -> str | WrittenCalls | None:
        tools = self.code_tools()
        code = find_code(reply.content, tools)
        if code is not None:
            return without_default_api(code, tools)
        own_names = {tool.name: tool for tool in tools.values()}  # a call written as text may use either
        said, calls = split_text_calls(reply.content, {**own_names, **tools})
        code = code_for_calls(calls, {tool.name: code_name for code_name, tool in tools.items()})
        if code is None and (raven := nexus_raven_code(reply.content)) is not None:
            return WrittenCalls(raven, "")  # NexusRaven's call line is Python: nested calls run
        return WrittenCalls(code, said) if code is not None else None

    def final_answer_in(self, code: str | WrittenCalls) -> object:
        """A last reply's code is not run: only a final_answer(...) written out in it answers."""
        written = literal_answers(code.code if isinstance(code, WrittenCalls) else code)
        return written[-1] if written else NOT_AN_ANSWER

    async def execute_action(self, code: str | WrittenCalls, step: ActionStep) -> tuple[bool, Any]:
        if isinstance(code, WrittenCalls):  # streamed as text: the panel shows what was said
            await self.emit("text_call", {"said": code.said})
            code = code.code
        names = redefined_tools(code, self.code_tools())
        # A model's own definition of a tool never replaces it: code that also calls something runs
        # without those definitions, and the panel shows the code that ran (the rest, as written).
        kept = without_tool_definitions(code, self.code_tools()) if names else code
        step.code = kept or code
        await self.emit("code", {"code": step.code})
        if page := copied_code(self.memory, code):  # a page's sample code, repeated (page_quotes.py)
            return await self._not_run(step, self.saying(COPIED_CODE.format(source=page)))
        if kept is None:
            return await self._not_run(step, self.saying(self._redefined(names)))
        code = kept
        if (settled := self.repeats.settled(code, self.step)) is not None:  # code_repeats.py
            return await self._not_run(step, *self._settled(settled))
        tools = {code_name: TracedTool(tool, self) for code_name, tool in self.code_tools().items()
                 if tool.name != "final_answer"}  # the executor provides final_answer itself
        self.shown_parts, self.step_notes, self.unseen, self.acted = [], [], [], False  # filled by TracedTool
        if names:
            self.step_notes.append(self.saying(left_out(names)))
        self.code_written.append(code)
        result = await self.executor.run(code, tools)
        self.repeats.ran(code, result.output, result.is_error, self.acted)
        output = cut(result.output, self.max_observation_chars, MORE)
        shown = "\n".join([left_out(names), output]) if names else output  # what was left out, said
        await self.emit("code_output", {"output": shown, "is_error": result.is_error})
        # An answer written out as a literal in code that also called tools was written before
        # their results were seen (a guessed "10.23 kg"): it waits. One computed from them is taken.
        is_final = result.is_final and not (self.unseen and answers_a_literal(code))
        # nothing read the page asked about, or a note of ours said back as the answer
        unread = self.answered_unread() or self.echoed_note(result.final_value) if is_final else None
        is_final = is_final and unread is None
        step.observations = [{"content": self._observed(result, output, is_final, unread), "is_error": result.is_error}]
        if self.shown_parts:  # the code's variables hold the text; the model sees the pictures
            step.observations[0]["parts"] = self.shown_parts
        return is_final, result.final_value if is_final else None

    async def _not_run(self, step: ActionStep, why: str, is_error: bool = True) -> tuple[bool, Any]:
        await self.emit("code_output", {"output": why, "is_error": is_error})
        step.observations = [{"content": f"Error:\n{why}" if is_error else why, "is_error": is_error}]
        return False, None

    def _observed(self, result, output: str, is_final: bool, unread: str | None = None) -> str:
        """What the model reads of a run: its output, what was not run again, and the answer, or
        why it was not taken (it came in the same code as calls whose results it had not seen)."""
        text = self._error(result, output) if result.is_error else f"Output:\n{output or '(nothing printed)'}"
        text = "\n".join([*self.step_notes, text])
        if not result.is_final and self.nothing_read():
            text += "\n" + self.saying(NOT_READ_YET.format(call=reading_call(*self.reading_tool())))
        if is_final:
            text += f"\nFinal answer: {format_result(result.final_value)}"
        elif result.is_final:
            text += "\n" + (unread or self.saying(ANSWER_WAITS.format(tools=", ".join(dict.fromkeys(self.unseen)))))
        return text

    def _error(self, result, output: str) -> str:
        """What the model reads of code that failed: the traceback and, for an error no code fixes
        here, what works instead; or, failing as a block before it did, that (code_repeats.py)."""
        failure, ways = failure_in(result.output) or Failure("", ""), self._ways()
        if failure.error:  # its own words: not the model's line, nor what the code printed (said_back.py)
            self.code_errors.append(failure.error)
        if (earlier := self.repeats.failed_before(failure, self.step)) is not None:
            return "Error:\n" + self._told(failed_again(failure, earlier, ways), failed_again(failure, earlier, ways, False))
        told = f"Error:\n{output}\nFix the code and try again."
        if not cannot_work_here(failure, ways.names) and tool_as_method(failure, ways.names) is None:
            return told
        return f"{told}\n{self._told(way_for(failure, ways), way_for(failure, ways, line=False))}"

    def _settled(self, earlier: Earlier) -> tuple[str, bool]:
        """(what the model reads of a settled block, not run again; whether it failed)."""
        is_error, _, output = earlier.text.partition("\n")
        if is_error == "True":
            failure, ways = failure_in(output) or Failure("", ""), self._ways()
            return self._told(settled_failure(failure, earlier, ways), settled_failure(failure, earlier, ways, False)), True
        not_called = self._listing([t for t in self.task_tools() if t.name not in self.calls.history], 8)
        return self._told(settled_block(earlier, self.turn_message(), not_called),
                          settled_block(earlier, "", not_called)), False

    def _ways(self) -> Ways:
        reader, tools, names = self.reading_tool(), self.task_tools(), self.code_tools()
        return Ways(self.executor.environment, reading_call(*reader) if reader else "...",
                    self._listing([t for t in tools if not t.acts], 6), self._listing(tools, 8), names,
                    {name: tool.python_call(name)[0] for name, tool in names.items()})

    def _listing(self, tools: list[Tool], most: int) -> str:
        """`tools` (at most `most`) as the prompt lists them: the call that uses each, one a line."""
        names = {id(tool): name for name, tool in self.code_tools().items()}
        return "\n".join(f"- {tool.python_call(names.get(id(tool)))[0]}" for tool in tools[:most])

    def _told(self, note: str, ours: str) -> str:
        """`note`, kept among what this turn told the model as `ours`: without what the model or
        the user wrote in it (its line of code, the user's question), which an answer may say again."""
        self.saying(ours)
        return note

    def errors(self) -> list[tuple[str, str]]:
        """The calls' errors, and the errors the code raised ("" for its tool)."""
        return [*super().errors(), *(("", error) for error in self.code_errors)]

    def tools_to_call(self) -> str:
        """The tools that work on the task, as the prompt lists them."""
        return self._listing(self.task_tools(), 8)

    def ours(self) -> list[str]:
        """The agent's, and the prompt's own sentences: its rules and its example, not the tools'
        descriptions (an answer about what the tools do may quote them)."""
        return [*super().ours(), prompts.code_system(self.name, {}, environment=self.executor.environment)]

    def tool_names(self) -> Collection[str]:
        """A call written as text may name a tool either way (extract_action)."""
        return {**self.tools, **self.code_tools()}

    def written_call(self, call: ToolCall) -> tuple[str, str]:
        """(the Python name, `call` as the Python that makes it and prints what it returns)."""
        names = {tool.name: code_name for code_name, tool in self.code_tools().items()}
        name = names.get(call.name, call.name)
        return name, code_for_calls([call], names) or f"print({name}())"

    def _redefined(self, names: list[str]) -> str:
        reader = self.reading_tool()
        # Nothing read yet in a turn about a page, or the reader redefined: the call that reads.
        reads = reader is not None and (reader[1] in names or self.nothing_read())
        example = reading_call(*reader) if reads else f"{names[0]}(...)"
        return REDEFINED.format(names=", ".join(names), example=example)

    def reading_tool(self) -> tuple[Tool, str] | None:
        """As the agent's, under the Python name the code calls it by (code_names.py)."""
        found = super().reading_tool()
        if found is None:
            return None
        names = {id(tool): name for name, tool in self.code_tools().items()}
        return found[0], names.get(id(found[0]), found[1])

    async def reset(self) -> None:
        await super().reset()
        await self.executor.reset()


def left_out(names: list[str]) -> str:
    one = len(names) == 1
    return LEFT_OUT.format(definitions="definition" if one else "definitions", names=", ".join(names),
                           were="was" if one else "were", they=f"{names[0]} is one of" if one else "they are",
                           ones="one" if one else "ones")


def without_default_api(code: str, tools: Collection[str]) -> str:
    """Gemini writes the functions it was given as `default_api.name(...)` (Google's Gemini
    cookbook): those are our tools, called by their names."""
    if "default_api." not in code:
        return code
    names = "|".join(re.escape(name) for name in tools)
    return re.sub(rf"\bdefault_api\.(?=(?:{names})\s*\()", "", code) if names else code


def answers_a_literal(code: str) -> bool:
    """Whether `code` calls final_answer with a value written out (a string, a number, a list
    of them), not one computed from what the code got."""
    return bool(literal_answers(code))


def literal_answers(code: str | None) -> list:
    """The values `code` passes to final_answer written out (literals), in order."""
    try:
        tree = ast.parse(code or "")
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "final_answer":
            given = [*node.args, *(k.value for k in node.keywords)]
            try:
                values = [ast.literal_eval(argument) for argument in given]
            except ValueError:
                continue
            if values:
                found.append(values[0])
    return found


class WrittenCalls(NamedTuple):
    """Calls the model wrote the tool-calling way, as the code that makes them."""
    code: str
    said: str  # what the model wrote before them


def code_for_calls(calls: Iterable[ToolCall], code_names_of: dict[str, str] | None = None) -> str | None:
    """The Python that makes `calls` (ToolCalls read from the text), printing what each
    returns as a tool message would show it; None when there are none or their arguments
    cannot be read (the agent then says what is wrong). `code_names_of`: {a tool's own name:
    the Python name the code calls it by}, for a call written under the tool's own name."""
    names = code_names_of or {}
    try:
        lines = [_call_line(names.get(call.name, call.name), parse_arguments(call.arguments)) for call in calls]
    except ValueError:
        return None
    return "\n".join(lines) or None


def _call_line(name: str, arguments: dict) -> str:
    if all(key.isidentifier() and not keyword.iskeyword(key) for key in arguments):
        written = ", ".join(f"{key}={value!r}" for key, value in arguments.items())
    else:
        written = f"**{arguments!r}"
    return f"{name}({written})" if name == "final_answer" else f"print({name}({written}))"


class TracedTool(Tool):
    """A tool as the model's code sees it: each call shows in the event stream."""

    def __init__(self, tool: Tool, agent: CodeAgent) -> None:
        self.tool, self.agent = tool, agent
        self.name, self.description = tool.name, tool.description
        self.inputs, self.output_type = tool.inputs, tool.output_type

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        call_id, calls = new_call_id(), self.agent.calls
        arguments = self.tool.bind(args, kwargs)
        await self.agent.emit("tool_call", {"id": call_id, "name": self.name,
                                            "arguments": jsonable(arguments)})
        if page := self.agent.page_quotes.copied(self.agent.memory, self.agent.tools, self.name, arguments):
            await self._result(call_id, COPIED.format(source=page), is_error=True)
            raise ToolInputError(COPIED.format(source=page))  # page_quotes.py
        if said := self.agent.question_said_back(self.name, arguments):  # said_back.py: the user cannot answer it
            await self._result(call_id, said, is_error=True)
            raise ToolInputError(said)
        if said := self.agent.act_said_back(self.name, arguments, self.tool):  # said_back.py: our text, not the page's
            await self._result(call_id, said, is_error=True)
            raise ToolInputError(said)
        if said := self.agent.act_on_unissued_locator(arguments, self.tool):  # unissued_locator.py: a guess
            await self._result(call_id, said, is_error=True)
            raise ToolInputError(said)
        if (answered := self.agent.asked_again(self.name, arguments, self.tool)) is not None:  # asked_again.py
            self.agent.step_notes.append(told_back(answered))  # not `saying`: the user's words are no note of ours
            await self._result(call_id, told_back(answered))
            return answered.value  # the code goes on with the user's answer, as it had it then
        if (earlier := calls.repeat_of(self.name, arguments, self.tool.acts, self.tool)) is not None:  # call_log.py
            calls.repeated(self.name)
            if earlier.failed:  # failed the same way twice: not run, its error and what to do raised into the code
                said = told_again(self.name, earlier)  # without the question: the code's errors are ours (said_back.py)
                await self._result(call_id, said)
                raise ToolInputError(said)
            self.agent.step_notes.append(self.agent.saying(TOLD_IN_CODE.format(name=self.name, step=earlier.step)))
            await self._result(call_id, told_again(self.name, earlier))
            return earlier.value
        self.agent.acted = self.agent.acted or self.tool.acts  # the page may show something else now
        try:
            value = await self.tool(**arguments)
        except Exception as e:
            calls.ran(self.name, arguments, str(e), is_error=True, tool=self.tool)
            await self._result(call_id, f"{type(e).__name__}: {e}", is_error=True)
            raise  # into the model's code, where its traceback becomes the observation
        text = cut(format_result(value), self.agent.max_observation_chars, MORE)
        self.agent.asked.keep(self.name, arguments, self.tool, calls.step, format_result(value), value)
        failed = isinstance(value, Failed)  # said in words, an error all the same (tools.Failed)
        if (same := calls.ran(self.name, arguments, text, value, is_error=failed, tool=self.tool)) is not None:
            self.agent.step_notes.append(self.agent.saying(SAME_IN_CODE.format(name=self.name, step=same)))
        if circle := calls.told_circle():  # round in a circle: said so, once (call_log.py)
            self.agent.step_notes.append(self.agent.saying(circle))
        if self.name not in BOOKKEEPING:
            self.agent.unseen.append(self.name)
        await self._result(call_id, text, is_error=failed)
        if getattr(value, "parts", None):
            self.agent.shown_parts.extend(value.parts)
        return value

    async def _result(self, call_id: str, text: str, is_error: bool = False) -> None:
        await self.agent.emit("tool_result", {"id": call_id, "name": self.name, "result": text,
                                              "is_error": is_error})
