"""ToolCallingAgent: the model acts through OpenAI-style tool calls.

Several calls in one reply run in the order the model made them: a call that acts (on the
page, on which tab is read) waits for the calls before it and the calls after it wait for it,
so each action is described, confirmed and done on the page the earlier ones left, and a read
after a click reads what the click did. Calls between two actions run at the same time. The
results are kept in the order the model made them. A tool call the model wrote in its text (text_calls.py) is read and run.
"""

from __future__ import annotations

import asyncio
from typing import Any, Union

from . import prompts
from .agent import NOT_AN_ANSWER, Agent
from .asked_again import told_back
from .call_log import BOOKKEEPING, told_again, told_same
from .page_quotes import COPIED
from .memory import ActionStep, cut
from .replies import ModelReply, ToolCall
from .parsing import parse_arguments
from .text_calls import split_text_calls
from .tools import Failed, Tool, ToolInputError, format_result
from .our_notes import our_note

# The calls of a reply, whether the endpoint sent them natively, and (for calls written in the
# text) what the model said before them.
Calls = Union[tuple[list[ToolCall], bool], tuple[list[ToolCall], bool, str]]
MORE = our_note("To see the rest, call the tool again for a smaller part (a section, a page, an offset).")
LEFT_OUT = our_note("Note: {name} has no argument {names}, so it ran without it. It takes: {takes}.")
ANSWER_WAITS = our_note("Your final answer was not taken: you gave it in the same reply as {tools}, before "
                        "seeing what they returned. Read their results; then, if your answer still holds, "
                        "call final_answer again, on its own.")


def observation(call: ToolCall, text: str, is_error: bool, value: Any) -> dict:
    """What one call gave the model; a tool that showed pictures (images.py) adds their parts."""
    seen = {"id": call.id, "name": call.name, "content": str(text), "is_error": is_error}
    if not is_error and getattr(value, "parts", None):
        seen["parts"] = list(value.parts)
    return seen


class ToolCallingAgent(Agent):
    holds_repeats = True  # a call made again after told it repeated: the next reply, held from it

    def system_prompt(self) -> str:
        return prompts.tool_calling_system(self.name, self.listed_tools(), brief=self.brief_prompt,
                                           native=self.native_tools)

    def tool_schemas(self) -> list[dict] | None:
        """The listed tools' schemas, once per request; None when the model takes text calls
        (tool_refusals.py)."""
        if not self.native_tools:
            return None
        # A small window: TabAgent's own tools in one sentence each (tool_set.py). The user's
        # and MCP servers' go as they are, as the user was shown them.
        return [prompts.brief_schema(tool) if self.brief_prompt and getattr(tool, "built_in", False)
                else tool.to_openai() for tool in self.listed_tools()]

    def extract_action(self, reply: ModelReply) -> Calls | None:
        if reply.tool_calls:
            return reply.tool_calls, True
        said, calls = split_text_calls(reply.content, self.tools)
        return (calls, False, said) if calls else None

    def final_answer_in(self, action: Calls) -> object:
        """A last reply's final_answer call (made or written), if it has one that reads."""
        for call in reversed(action[0]):
            if call.name == "final_answer":
                try:
                    given = parse_arguments(call.arguments)
                except ValueError:
                    continue
                if "answer" in given or len(given) == 1:  # a model may name it otherwise
                    return given.get("answer", next(iter(given.values())))
        return NOT_AN_ANSWER

    async def execute_action(self, action: Calls, step: ActionStep) -> tuple[bool, Any]:
        calls, step.native, *said = action
        if said:  # the calls were streamed as text: the panel shows what was said around them
            await self.emit("text_call", {"said": said[0]})
        step.tool_calls = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in calls]
        # A final answer sent with other calls waits for what they return (a guessed "10.23 kg"
        # once ended a task before the page it needed was read): they run first, in order.
        working = [c for c in calls if c.name != "final_answer"]
        results = dict(zip((c.id for c in working), await self._run_in_order(working)))
        unseen = [c.name for c in working if results[c.id][3]]
        for call in calls:
            if call.name == "final_answer":
                results[call.id] = await self._answer(call, unseen)
        seen = [results[c.id] for c in calls]
        step.observations = [observation(c, text, is_error, value) for c, (text, is_error, value, _) in zip(calls, seen)]
        answers = [value for c, (_, is_error, value, _) in zip(calls, seen) if c.name == "final_answer" and not is_error]
        return (True, answers[-1]) if answers else (False, None)

    async def _run_in_order(self, calls: list[ToolCall]) -> list[tuple]:
        """Each call that acts after all before it; the calls between two actions together."""
        results, together = [], []
        for call in calls:
            if getattr(self.tools.get(call.name), "acts", False):
                results += await self._together(together)
                together = []
                results.append(await self._call(call))
            else:
                together.append(call)
        return results + await self._together(together)

    async def _together(self, calls: list[ToolCall]) -> list[tuple]:
        if len(calls) <= 1:  # skip gather's task per call in the common case
            return [await self._call(call) for call in calls]
        return list(await asyncio.gather(*(self._call(call) for call in calls)))

    async def _answer(self, call: ToolCall, unseen: list[str]) -> tuple:
        """The final answer, unless it came with calls whose results the model has not seen, or
        (once a turn) before anything read the page the message is about (Agent.answered_unread),
        or when it says back a note the model was sent (Agent.echoed_note), or (once a turn) gives
        numbers nothing read holds nor could give (Agent.unfounded)."""
        given = _answer_of(call)
        unread = None if unseen else self.answered_unread() or self.echoed_note(given) or self.unfounded(given)
        if not unseen and unread is None:
            return await self._call(call)
        await self.emit("tool_call", {"id": call.id, "name": call.name, "arguments": _shown_arguments(call)})
        text = unread or ANSWER_WAITS.format(tools=", ".join(dict.fromkeys(unseen)))
        await self.emit("tool_result", {"id": call.id, "name": call.name, "result": text, "is_error": True})
        return text, True, None, False

    async def _call(self, call) -> tuple[str, bool, object, bool]:
        """Run one call: (what the model reads, whether it is an error, the value, whether it
        ran and gave something the model has not seen). Every problem becomes an observation
        the model can act on."""
        tool, value, problem, earlier, unrun = self.tools.get(call.name), None, None, None, True
        try:
            arguments = parse_arguments(call.arguments)
        except ValueError as e:
            arguments, problem = call.arguments, f"Error: {e}. Send the arguments as a JSON object."
        arguments, left_out = known_arguments(tool, arguments) if problem is None else (arguments, [])
        await self.emit("tool_call", {"id": call.id, "name": call.name, "arguments": arguments})
        if problem is None and tool is None:
            problem = (f"Error: there is no tool named '{call.name}'. "
                       f"Available tools: {', '.join(t.name for t in self.listed_tools())}.")
        self.misread += problem is not None  # a call that could not be read (reply_grammar.py)
        if problem is None and (page := self.page_quotes.copied(self.memory, self.tools, call.name, arguments)):
            problem = COPIED.format(source=page)  # a page's sample call, repeated (page_quotes.py)
        if problem is None and (said := self.question_said_back(call.name, arguments)):
            problem = said  # a question for the user that says back what the model was told (said_back.py)
            self.calls.press(call.name)  # the next reply, held from asking (call_log.py)
        if problem is None:  # an act whose text is ours: nothing reaches the page (said_back.py)
            problem = self.act_said_back(call.name, arguments, tool)
        if problem is None:  # a locator no tool gave: a guess (unissued_locator.py)
            problem = self.act_on_unissued_locator(arguments, tool)
        if problem is None and (answered := self.asked_again(call.name, arguments, tool)) is not None:
            earlier, problem = answered, told_back(answered)  # answered by the user already (asked_again.py)
        if problem is None:  # the same call again, or again after failing the same way twice (call_log.py)
            earlier = self.calls.repeat_of(call.name, arguments, tool.acts, tool)
            if earlier is not None:
                problem = told_again(call.name, earlier, self.turn_message())
                self.calls.repeated(call.name)
        if problem is None:
            value, problem, unrun = await self._run_tool(tool, call.name, arguments)
            if problem is None:
                self.asked.keep(call.name, arguments, tool, self.calls.step, format_result(value), value)
        text = problem or cut(format_result(value), self.max_observation_chars, MORE)
        if left_out and earlier is None:
            text += "\n" + LEFT_OUT.format(name=call.name, names=", ".join(f"'{n}'" for n in left_out),
                                           takes=", ".join(tool.parameters["properties"]) or "nothing")
        if earlier is None and (same := self.calls.ran(call.name, arguments, text, value, is_error=problem is not None,
                                                       tool=tool, unrun=unrun)) is not None:
            text = told_same(call.name, same, text)  # word for word what it had: said so (call_log.py)
        if earlier is None and (circle := self.calls.told_circle()):
            text += "\n\n" + self.saying(circle)  # round in a circle: said so, once (call_log.py)
        is_error = problem is not None and earlier is None  # a repeat told is no error
        await self.emit("tool_result", {"id": call.id, "name": call.name, "result": text, "is_error": is_error})
        return text, is_error, value, earlier is None and problem is None and call.name not in BOOKKEEPING

    @staticmethod
    async def _run_tool(tool, name: str, arguments) -> tuple[object, str | None, bool]:
        """(the value, the error, whether the tool never ran: its arguments did not check out, so a
        tool that acts did nothing)."""
        try:
            tool.validate(tool.bind((), dict(arguments)))
        except ToolInputError as e:
            return None, f"Error: {e}", True
        try:
            value = await tool(**arguments)
        except ToolInputError as e:
            return None, f"Error: {e}", False
        except Exception as e:
            return None, f"Error: {name} failed: {type(e).__name__}: {e}", False
        # A failure the tool said in words (tools.Failed): read as written, an error all the same.
        return (value, str(value), False) if isinstance(value, Failed) else (value, None, False)


def known_arguments(tool: Tool | None, arguments: object) -> tuple[object, list[str]]:
    """(`arguments` without those `tool` does not take, the names left out), for one of TabAgent's
    own tools that only reads. The 0.5B copied a schema's own "required" key in beside
    find_in_page's query (bench rows 0964a2e, cheaper-kettle): refused, it asked again with other
    spellings for steps on end. An act runs exactly as asked or not at all, and so does a tool
    of the user's or an MCP server's (whose hints may lie, docs/security.md): an argument it does
    not take might have said "only look"; their check refuses the call. Only the schema's own
    words copied in whole (`schema_copied`) are left out of our acts too."""
    if tool is None or not getattr(tool, "built_in", False) or not isinstance(arguments, dict):
        return arguments, []
    schema = tool.parameters
    if tool.acts:  # only the schema's own words, copied
        left_out = [name for name, value in arguments.items() if schema_copied(schema, name, value)]
    else:
        left_out = [name for name in arguments if name not in schema["properties"]]
    return {k: v for k, v in arguments.items() if k not in left_out}, left_out


def schema_copied(schema: dict, name: str, value: object) -> bool:
    """Whether an argument is a word of the tool's schema copied in whole, not a name it takes:
    "required" with the schema's own list (in any order). It says nothing the call could mean, so
    TabAgent's own acts run without it too. The 0.5B wrote it beside type_text's, find_in_page's
    arguments in 10 replies of 3 rows of 9 (bench rows 0964a2e); each was refused."""
    if name in schema["properties"] or name not in schema:
        return False
    own = schema[name]
    if isinstance(own, list) and isinstance(value, list):
        return sorted(map(str, own)) == sorted(map(str, value))
    return own == value


def _shown_arguments(call: ToolCall) -> object:
    """A call's arguments as the panel shows a call that ran (_call): read, or as written when
    they cannot be read. Shown as the text, a refused answer looked unlike the call it was, to the
    user and to the import check that holds the memory to the screen (imported-memory.js)."""
    try:
        return parse_arguments(call.arguments)
    except ValueError:
        return call.arguments


def _answer_of(call: ToolCall) -> object:
    """final_answer's `answer`, or its arguments as written when they cannot be read."""
    try:
        return parse_arguments(call.arguments).get("answer", "")
    except (ValueError, AttributeError):
        return call.arguments
