"""Code the model writes again: an error it made before is told in other words, and a block that
printed the same thing twice is not run again until something acts.

Qwen2.5-Coder-0.5B as the CodeAgent on the real-model bench (bench/results/real-models-rows.jsonl,
the rows at 4528ad4, which keep each step's code):
- flour-kg: eight blocks, each `from bs4 import BeautifulSoup` then `response = requests.get(url)`
  (NameError: name 'requests' is not defined), the same traceback told back each time;
- newsletter: `found = read_page()` then `print(found)` eight times, the page printed again each
  time, the form never filled;
- kettle-price: six blocks that were our own error told back as code (`TypeError: 'NoneType' object
  is not callable` then `Fix the code and try again.`), the same SyntaxError six times.

So, over whole blocks, as call_log.py does over calls:
- an error nothing in the code can fix (a module that is not there, the network, pip, a process)
  says, the first time, what works instead: the tools, as the prompt lists them;
- a block that fails as a block before it did (the same line raising the same error, since the
  last act) is told so in a few words, not with the traceback again;
- a block the same as one that printed the same thing twice, nothing having acted since, is settled
  (call_log.py's rule for calls, kept by a CallLog of its own whose calls are blocks): asked again,
  it is not run, and the model is told how many times it asked, where what it printed is, and the
  user's question. A block's first repeat runs: its variables may have changed since. (That
  CallLog's end_step is never called: the "told once" rule for a call of the last step is a call's.)
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Mapping
from types import SimpleNamespace
from typing import NamedTuple

from .call_log import QUESTION_CHARS, CallLog, Earlier
from .our_notes import our_note

BLOCK = "python"  # what a block is called in its CallLog
ACTED = SimpleNamespace(acts=True, parameters={})  # a block whose code called a tool that acts
_FRAME = re.compile(r'^\s*File "<agent code>", line \d+.*$', re.M)  # code_runner.FILENAME
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]+\b")
LINE_CHARS, ERROR_CHARS = 160, 240  # of the failing line and the error, said back in a note

# What the sandbox says when code reaches for what is not there, read by the error's type (and
# emscripten's errno), not its words: Chromium's sandbox and Firefox's say the same, to the
# character (the same Pyodide; tests/helpers/sandbox_said.py holds each, recorded from both, and
# tests/both/test_code_reaching_out.py asks both): `import requests` -> ModuleNotFoundError;
# urlopen -> urllib.error.URLError: <urlopen error [Errno 23] Host is unreachable>; a socket ->
# OSError: [Errno 23] (EHOSTUNREACH); subprocess -> OSError: [Errno 138] (ENOTSUP) emscripten does
# not support processes. Those whose error says nothing of it are known by their line (_REACHING,
# _COMMAND): `pip install x` -> SyntaxError; `await pyfetch(url)` and `await js.fetch(url)` ->
# TypeError: 'NoneType' object is not callable; open_url(url) -> AttributeError: 'NoneType' object
# has no attribute 'new' (the sandbox has no fetch and no XMLHttpRequest, in either browser).
_NOT_HERE = re.compile(r"(?:ModuleNotFoundError:|(?:\w+\.)*(?:URLError|\w*Connection\w*Error|RemoteDisconnected|"
                       r"gaierror)\b|OSError: \[Errno (?:23|138)\])")
_COMMAND = re.compile(r"[!%]?\s*(?:pip3?|python3? -m pip|conda|apt(?:-get)?|npm|curl|wget|brew)\s")
_REACHING = re.compile(r"\b(requests|urllib\d?|httpx|aiohttp|socket|subprocess|selenium|webdriver|playwright|micropip|"
                       r"pip)\s*\.|\b(urlopen|urlretrieve|pyfetch|open_url|fetch)\s*\(")

FIXED_HERE = our_note("`{line}` cannot work here. {environment}")
WAY = our_note("Call the tools instead, e.g. print({example}); as the prompt lists them:\n{calls}")
CHANGE_IT = our_note("Change that line, or get what you need another way; the tools, as the prompt lists them:\n{calls}")
FAILED_AGAIN = our_note("This code failed as your code in step {step} did: `{line}` raised {error}. The same code fails "
                        "the same way each time, so do not write it again. {why}")
SETTLED_FAILURE = our_note("You have written this same code {times} times, and it failed the same way each time (first in "
                           "step {step}): `{line}` raised {error}. Nothing has acted since, so it was not run again. {why}")
SETTLED_BLOCK = our_note("You have written this same code {times} times, and it printed the same each time (first in step "
                         "{step}); nothing has acted since, so it was not run again: what it printed is in step {step}, "
                         "and your variables keep what it got.{question}\nWrite other code: use what it printed, call a "
                         "tool you have not called yet, or give your final answer with final_answer(...).{calls}")
# kettle-price at 0964a2e: `found.find_in_page(...)` on the text read_page returned, then the same block
# 7 times, the model saying the "method" must be "called on a string object". Read by the error's type
# and the attribute Python names, a tool's name: no value has the tools as its attributes.
TOOL_AS_METHOD = our_note("`{name}` is one of your tools, a function of its own, not a method or an attribute of a "
                          "value{written}: call it by itself{example}, as the prompt lists it:\n- {call}\nWhat a tool returns "
                          "is plain data (text, a number, a list): no tool is in it.")
_NO_ATTRIBUTE = re.compile(r"AttributeError: .* has no attribute '(\w+)'")
NOT_CALLED = our_note("\nTools you have not called yet:\n{calls}")


class Failure(NamedTuple):
    line: str  # the line of the model's code that raised it, as written ("" when not known)
    error: str  # what it raised, as Python says it: "NameError: name 'requests' is not defined"

    def key(self) -> tuple[str, str]:
        return " ".join(self.line.split()), _ADDRESS.sub("0x", " ".join(self.error.split()))

    def said(self) -> tuple[str, str]:
        """(the line, the error's first line), cut short enough for a note."""
        line, error = self.line, self.error.splitlines()[0] if self.error else ""
        return _short(line, LINE_CHARS), _short(error, ERROR_CHARS)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def failure_in(output: str) -> Failure | None:
    """The line and the error of the traceback that ends `output` (code_runner.format_error)."""
    frames = list(_FRAME.finditer(output))
    rest = output[frames[-1].end():].splitlines()[1:] if frames else output.strip().splitlines()[-1:]
    if not rest:
        return None
    line = rest.pop(0).strip() if frames and rest[0].startswith("    ") else ""
    said = [text.rstrip() for text in rest if text.strip() and not set(text.strip()) <= set("^~")]
    return Failure(line, "\n".join(said))


def cannot_work_here(failure: Failure, tools: Collection[str]) -> bool:
    """Whether the error is one no code can fix here: the sandbox has no such module, no network,
    no pip and no processes (a tool of the agent's named like one of them is a tool: it works)."""
    if _NOT_HERE.match(failure.error) or _COMMAND.match(failure.line):
        return True
    return any((found[1] or found[2]) not in tools for found in _REACHING.finditer(failure.line))


def tool_as_method(failure: Failure, tools: Collection[str]) -> tuple[str, str, str] | None:
    """(the value the code asked for it, as written, or ""; the tool's name; the model's call made
    the way that works, or "") when the code failed asking a value for one of the tools as its
    attribute (`found.find_in_page('kettle')`: `find_in_page('kettle')`); else None."""
    found = _NO_ATTRIBUTE.match(failure.error)
    if found is None or found[1] not in tools:
        return None
    try:
        nodes = list(ast.walk(ast.parse(failure.line.strip())))
    except SyntaxError:
        nodes = []
    asked = next((node for node in nodes if isinstance(node, ast.Attribute) and node.attr == found[1]), None)
    if asked is None:
        return "", found[1], ""
    call = next((node for node in nodes if isinstance(node, ast.Call) and node.func is asked), None)
    fixed = ast.unparse(ast.Call(ast.Name(found[1]), call.args, call.keywords)) if call is not None else ""
    return ast.unparse(asked.value), found[1], fixed


def block_key(code: str) -> str:
    """One text for a block however it is spaced or commented (its syntax tree, when it parses)."""
    try:
        return ast.dump(ast.parse(code))
    except SyntaxError:
        return "\n".join(" ".join(line.split()) for line in code.splitlines() if line.strip())


class Ways(NamedTuple):
    """What works here, as the agent knows it, for the notes below to say."""
    environment: str  # what the code can and cannot do where it runs (the executor's, as the prompt says it)
    example: str  # the call that reads the page: read_page()
    reading: str  # the tools that reach the page and the web, as the prompt lists them, one a line
    tools: str  # the tools that work on the task, the same way
    names: Collection[str]  # the names the code calls the tools by
    calls: Mapping[str, str] = {}  # {a tool's name in the code: the call that uses it, as the prompt lists it}


def way_for(failure: Failure, ways: Ways, line: bool = True) -> str:
    """What works instead of code that failed so: for an error no code fixes here, that it cannot
    work, and the tools that reach the page and the web; else the tools, to do it another way.
    `line`: with the model's line in it (the note kept as ours goes without: said_back.py). A tool
    asked of a value as its attribute: how to call it."""
    if (method := tool_as_method(failure, ways.names)) is not None:
        value, name, fixed = method
        written = f" (`{_short(value, LINE_CHARS)}.{name}`)" if line and value else ""
        example = f", e.g. `{_short(fixed, LINE_CHARS)}`" if line and fixed else ""
        return TOOL_AS_METHOD.format(name=name, written=written, example=example,
                                     call=ways.calls.get(name, f"{name}(...)"))
    if not cannot_work_here(failure, ways.names):
        return CHANGE_IT.format(calls=ways.tools)
    way = WAY.format(example=ways.example, calls=ways.reading)
    if not failure.line:
        return way
    return f"{FIXED_HERE.format(line=failure.said()[0] if line else '', environment=ways.environment)} {way}"


def failed_again(failure: Failure, step: int, ways: Ways, line: bool = True) -> str:
    said, error = failure.said() if line else ("", "")
    return FAILED_AGAIN.format(step=step, line=said, error=error, why=way_for(failure, ways, line))


def settled_failure(failure: Failure, earlier: Earlier, ways: Ways, line: bool = True) -> str:
    said, error = failure.said() if line else ("", "")
    return SETTLED_FAILURE.format(times=earlier.times, step=earlier.step, line=said, error=error,
                                  why=way_for(failure, ways, line))


def settled_block(earlier: Earlier, question: str, not_called: str) -> str:
    """`question`: the user's, which the note ends on (as call_log.py's SETTLED does); `not_called`:
    the tools the run has not called, as the prompt lists them."""
    if len(question) > QUESTION_CHARS:
        question = question[:QUESTION_CHARS] + "…"
    return SETTLED_BLOCK.format(times=earlier.times, step=earlier.step,
                                question=f" The user asked: {question}" if question else "",
                                calls=NOT_CALLED.format(calls=not_called) if not_called else "")


class CodeRepeats:
    """The blocks one run ran, and the errors they raised, since the last act."""

    def __init__(self) -> None:
        self.blocks = CallLog()
        self.failed: dict[tuple[str, str], int] = {}  # a failure's key: the step it first came in

    def settled(self, code: str, step: int) -> Earlier | None:
        """The first run of a settled block (its `times`: how many times it was asked), or None."""
        self.blocks.start_step(step)
        return self.blocks.repeat_of(BLOCK, {"code": block_key(code)})

    def ran(self, code: str, output: str, is_error: bool, acted: bool) -> None:
        if acted:
            self.failed = {}
        self.blocks.ran(BLOCK, {"code": block_key(code)}, f"{is_error}\n{output}", tool=ACTED if acted else None)

    def failed_before(self, failure: Failure, step: int) -> int | None:
        """The step a block failed in as this one did, since the last act; None the first time."""
        earlier = self.failed.setdefault(failure.key(), step)
        return earlier if earlier != step else None
