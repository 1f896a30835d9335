"""CodeAgent: the model acts by writing Python, which an executor runs.

Tools are plain functions inside the code, each under a Python name (code_names.py: a tool
named `srv__get-sum` is called as `srv__get_sum`); `final_answer(...)` ends the run; what
the code prints (or its error) is what the model observes next. A reply that makes its
calls the tool-calling way instead (JSON, `<tool_call>`, any shape text_calls.py reads; by
either name) is run as the code that makes those calls, never taken as the answer.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from . import prompts
from .code_names import code_names
from .agent import Agent
from .events import jsonable
from .executor import Executor, LocalExecutor
from .memory import ActionStep, cut
from .replies import ModelReply, ToolCall, new_call_id
from .parsing import find_code, parse_arguments
from .reply_checks import CODE_NOTES
from .text_calls import split_text_calls
from .tools import Tool, format_result

if TYPE_CHECKING:
    from .models import Model

MORE = "To see the rest, keep the value in a variable and print a slice of it, e.g. text[2000:4000]."


class CodeAgent(Agent):
    notes = CODE_NOTES

    def __init__(self, model: Model, tools: Iterable[Tool | Callable[..., Any]] = (), *,
                 executor: Executor | None = None, **kwargs: Any) -> None:
        super().__init__(model, tools, **kwargs)
        self.executor = executor or LocalExecutor()
        self.shown_parts: list[dict] = []

    def code_tools(self) -> dict[str, Tool]:
        """{the Python name the code calls a tool by: the tool}: the prompt, the executor
        and the reading of a reply all use these names (code_names.py)."""
        return code_names(self.tools)

    def system_prompt(self) -> str:
        code_name = {id(tool): name for name, tool in self.code_tools().items()}
        listed = {code_name[id(tool)]: tool for tool in self.listed_tools()}  # in the agent's order
        return prompts.code_system(self.name, listed, brief=self.brief_prompt)

    def extract_action(self, reply: ModelReply) -> str | WrittenCalls | None:
        tools = self.code_tools()
        code = find_code(reply.content, tools)
        if code is not None:
            return code
        own_names = {tool.name: tool for tool in tools.values()}  # a call written as text may use either
        said, calls = split_text_calls(reply.content, {**own_names, **tools})
        code = code_for_calls(calls, {tool.name: code_name for code_name, tool in tools.items()})
        return WrittenCalls(code, said) if code is not None else None

    async def execute_action(self, code: str | WrittenCalls, step: ActionStep) -> tuple[bool, Any]:
        if isinstance(code, WrittenCalls):  # streamed as text: the panel shows what was said
            await self.emit("text_call", {"said": code.said})
            code = code.code
        step.code = code
        await self.emit("code", {"code": code})
        tools = {code_name: TracedTool(tool, self) for code_name, tool in self.code_tools().items()
                 if tool.name != "final_answer"}  # the executor provides final_answer itself
        self.shown_parts = []  # the pictures the code's tool calls showed (TracedTool)
        result = await self.executor.run(code, tools)
        output = cut(result.output, self.max_observation_chars, MORE)
        await self.emit("code_output", {"output": output, "is_error": result.is_error})
        if result.is_error:
            text = f"Error:\n{output}\nFix the code and try again."
        else:
            text = f"Output:\n{output or '(nothing printed)'}"
            if result.is_final:
                text += f"\nFinal answer: {format_result(result.final_value)}"
        step.observations = [{"content": text, "is_error": result.is_error}]
        if self.shown_parts:  # the code's variables hold the text; the model sees the pictures
            step.observations[0]["parts"] = self.shown_parts
        return result.is_final, result.final_value

    async def reset(self) -> None:
        await super().reset()
        await self.executor.reset()


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
        call_id = new_call_id()
        arguments = self.tool.bind(args, kwargs)
        await self.agent.emit("tool_call", {"id": call_id, "name": self.name,
                                            "arguments": jsonable(arguments)})
        try:
            value = await self.tool(**arguments)
        except Exception as e:
            await self._result(call_id, f"{type(e).__name__}: {e}", is_error=True)
            raise  # into the model's code, where its traceback becomes the observation
        await self._result(call_id, cut(format_result(value), self.agent.max_observation_chars, MORE))
        if getattr(value, "parts", None):
            self.agent.shown_parts.extend(value.parts)
        return value

    async def _result(self, call_id: str, text: str, is_error: bool = False) -> None:
        await self.agent.emit("tool_result", {"id": call_id, "name": self.name, "result": text,
                                              "is_error": is_error})
