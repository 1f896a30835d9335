"""The prompts: short and concrete, because small models follow short prompts better."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .our_notes import our_note

if TYPE_CHECKING:
    from .tools import Tool

TOOL_CALLING_SYSTEM = """\
You are {name}, an assistant that solves tasks step by step using tools.

In each step, call one or more tools; you will then see their results. Calls in one
step run in order.
When you know the answer, or need no tool, call `final_answer` with it. Never invent a
tool or a result.
Without tool calling, write each call as one JSON object, not in a code block:
{{"name": "tool_name", "arguments": {{"argument": "value"}}}}
"""

# Only when the tools do not go in the request's `tools` (text calls): the prompt is the one
# place the model learns them. Sent natively, they are not told twice.
TOOL_LISTING = """
Tools (arguments as JSON schema):
{tools}
"""

CODE_SYSTEM = """\
You are {name}, an assistant that solves tasks step by step by writing Python code.

Your Python already has these tools as functions: call them, without `await`; never define them.
{tools}
- final_answer(answer): ends the task with this answer.

In each step, say in a sentence what you will do, then write one code block that calls them:
```python
{example}
```
You then see what it printed, or the error; variables are kept between steps. Print what you
need; never guess a value you have not printed. {environment}
Once your code has printed the answer, call `final_answer(answer)`.
"""

MANAGED_TASK = """\
You are '{name}', helping another agent (your manager) who gave you this task:

{task}
{context}
Do the task, then call final_answer with a complete answer: your manager sees only that,
so include every detail it asked for."""

MAX_STEPS = our_note("""\
You have used all your steps. Do not call any tool and do not write code. From what you
have found so far, give your best answer to the task now, and say what is still missing.""")

EMPTY_REPLY = our_note("Your reply was empty. Continue the task: call a tool, or give the final answer.")


def tool_calling_system(name: str, tools: Iterable[Tool], brief: bool = False, native: bool = True) -> str:
    """`native`: the tools' schemas go in the request's `tools`, so the prompt does not list
    them. Else (Chrome's built-in model, an endpoint that refused tools: tool_refusals.py) it
    lists them with their schemas, the one place the model learns them; `brief`: TabAgent's own
    in their first sentence, for a small context window."""
    prompt = TOOL_CALLING_SYSTEM.format(name=name)
    if native:
        return prompt
    if brief:
        shown = [brief_schema(t)["function"] if getattr(t, "built_in", False) else t.shown() for t in tools]
    else:
        shown = [t.shown() for t in tools]
    listing = "\n".join(f"- {f['name']}: {f['description']}\n  {json.dumps(f['parameters'], ensure_ascii=False)}"
                        for f in shown)
    return prompt + TOOL_LISTING.format(tools=listing)


def brief_schema(tool: Tool) -> dict:
    """The tool as the request's `tools` carries it in a compact set: its first sentence, and
    each argument's type, default and first sentence."""
    shown = tool.shown()
    schema = shown["parameters"]
    properties = {n: {**p, "description": first_sentence(p["description"])} if p.get("description") else p
                  for n, p in schema["properties"].items()}
    return {"type": "function", "function": {"name": tool.name, "description": first_sentence(shown["description"]),
                                             "parameters": {**schema, "properties": properties}}}


# What the code can and cannot do, as the executor says it (executor.py): by default, a sandbox's.
IN_A_SANDBOX = our_note("Your Python runs in a sandbox with the standard library only: no network, no "
                        "installing (requests, urllib and pip fail); the tools listed are how you reach the "
                        "page and the web.")


def code_system(name: str, tools: dict[str, Tool], brief: bool = False, environment: str = IN_A_SANDBOX) -> str:
    """`tools`: {the Python name the code calls it by: tool} (code_names.py). `brief`: each
    tool as its call and first sentence, for a small context window. `environment`: what
    the code can and cannot do where it runs."""
    listing = "\n".join(tool_line(code_name, t, brief) for code_name, t in tools.items() if t.name != "final_answer")
    return CODE_SYSTEM.format(name=name, tools=listing or "(none)", example=code_example(tools),
                              environment=environment)


def tool_line(code_name: str, tool: Tool, brief: bool = False) -> str:
    """The tool in the CodeAgent's listing: a list item with the call that uses it, never a
    Python definition. Qwen2.5-Coder 0.5B, shown `def read_page(...) -> str:  # Reads...`,
    pasted the listing as its code with bodies of its own (the real-model bench's rows)."""
    call, arguments = tool.python_call(code_name)
    if brief:
        return f"- {call}: {first_sentence(tool.description)}"
    said = "\n  ".join(tool.description.strip().splitlines())
    return "\n".join([f"- {call}: {said}", *(f"    {line}" for line in arguments)])


def code_example(tools: dict[str, Tool]) -> str:
    """The prompt's example step: a call of the first tool listed, its arguments left as `...`,
    and a print. No value in it a task could ask for: models copy examples (Qwen2.5-Coder 1.5B
    answered a conversion with the example's `prices = [12.5, 8.0, 3.25]`), and `...` copied
    as an argument is refused in words."""
    code_name, tool = next(((n, t) for n, t in tools.items() if t.name not in _NOT_AN_EXAMPLE), (None, None))
    if tool is None:
        return "found = sorted(words, key=len)\nprint(found)"
    required = tool.parameters.get("required") or []
    arguments = ", ".join(f"{arg}=..." for arg in required if arg.isidentifier())
    return f"found = {code_name}({arguments})\nprint(found)"


_NOT_AN_EXAMPLE = ("final_answer", "note", "more_tools", "ask_user")


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    end = text.find(". ")
    return text if end < 0 else text[:end + 1]


def managed_task(name: str, task: str, context: str | None) -> str:
    return MANAGED_TASK.format(name=name, task=task,
                               context=f"\nContext from your manager:\n{context}\n" if context else "")


# The language rule and the user's own instructions (settings: system prompt), added after
# the agent's instructions, never in their place.
ANSWER_IN_USERS_LANGUAGE = "Answer in the language the user writes in."


def user_instructions(text: str) -> str:
    return f"The user's own instructions for you (they do not replace the rules above):\n{text.strip()}"
