"""Runs model-written Python and reports what happened.

The sandbox's own Pyodide (tabagent.app.in_sandbox.runtime) runs code with this module too, so
code runs there exactly as it does in the tests and in the local executor.

Weak models call async tools without `await`, so calls to the given tool names
are rewritten into awaited calls before compiling with top-level await. Printed
output is captured per run, the value of a final bare expression is shown
(as in a REPL), and tracebacks keep only the frames of the model's code.
"""

from __future__ import annotations

import ast
import inspect
import linecache
import traceback
from collections.abc import Iterable
from typing import Any, NoReturn

from .memory import cut
from .our_notes import our_note

FILENAME = "<agent code>"
_LAST = "__tabagent_last_value__"


class FinalAnswer(BaseException):
    """Raised by `final_answer()`. A BaseException, so that model code's
    `except Exception:` cannot swallow the end of the run."""

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.value = value


def final_answer(answer: Any = None) -> NoReturn:
    raise FinalAnswer(answer)


async def run_code(code: str, namespace: dict, async_names: Iterable[str] = (),
                   max_output_chars: int = 20_000) -> dict:
    """Run `code` in `namespace` (kept between runs); return a plain dict
    {"output", "is_error", "is_final", "final_value"} that can cross postMessage."""
    printed: list[str] = []
    namespace.setdefault("__name__", "__agent__")
    namespace["print"] = _printer(printed)
    result = {"output": "", "is_error": False, "is_final": False, "final_value": None}
    try:
        tree = rewrite(code, set(async_names))
        linecache.cache[FILENAME] = (len(code), None, code.splitlines(True), FILENAME)
        compiled = compile(tree, FILENAME, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        coroutine = eval(compiled, namespace)  # a coroutine when the code awaits
        if inspect.iscoroutine(coroutine):
            await coroutine
        last = namespace.pop(_LAST, None)
        if last is not None:
            printed.append(f"Out: {last!r}\n")
    except FinalAnswer as final:
        result.update(is_final=True, final_value=final.value)
    except (Exception, SystemExit) as error:  # SystemExit too: exit() must not end the agent
        printed.append(format_error(error))
        result["is_error"] = True
    result["output"] = cut("".join(printed), max_output_chars, PRINT_LESS)
    return result


def _printer(printed: list[str]):
    # Only the model's code sees this print: the agent's own output is not captured.
    def print(*args, sep=None, end=None, file=None, flush=False):
        printed.append((" " if sep is None else sep).join(map(str, args))
                       + ("\n" if end is None else end))
    return print


def rewrite(code: str, async_names: set[str]) -> ast.Module:
    """Parse `code`, await calls to `async_names`, and keep the last expression's value."""
    tree = ast.parse(code, FILENAME)
    names = _make_callers_async(tree, set(async_names))
    tree = _AwaitCalls(names).visit(tree)
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body[-1]
        tree.body[-1] = ast.copy_location(
            ast.Assign([ast.Name(_LAST, ast.Store())], last.value), last)
    return ast.fix_missing_locations(tree)


def _make_callers_async(tree: ast.Module, names: set[str]) -> set[str]:
    """Turn plain functions that call tools into async ones (until nothing changes),
    so `def helper(q): return search(q)` works; their callers then await them too."""
    methods = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body}
    changed = True
    while changed:
        changed = False
        for node in ast.walk(tree):
            if (isinstance(node, ast.FunctionDef) and id(node) not in methods
                    and node.name not in names and not node.decorator_list
                    and _calls_any(node, names) and not _yields(node)):
                node.__class__ = ast.AsyncFunctionDef
                names.add(node.name)
                changed = True
    return names


def _own_nodes(function):
    """Nodes of a function's body, not descending into nested functions or lambdas."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def _calls_any(function, names) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names
               for n in _own_nodes(function))


def _yields(function) -> bool:
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(function))


class _AwaitCalls(ast.NodeTransformer):
    def __init__(self, names: set[str]):
        self.names = names
        self.sync_depth = 0  # inside a plain def, `await` is a syntax error: leave calls be

    def _is_async_call(self, node) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in self.names)

    def visit_Await(self, node):
        if self._is_async_call(node.value):  # already awaited: only rewrite its arguments
            self.generic_visit(node.value)
            return node
        return self.generic_visit(node)

    def visit_Call(self, node):
        self.generic_visit(node)
        if self._is_async_call(node) and not self.sync_depth:
            return ast.copy_location(ast.Await(node), node)
        return node

    def visit_FunctionDef(self, node):
        self.sync_depth += 1
        self.generic_visit(node)
        self.sync_depth -= 1
        return node

    visit_Lambda = visit_FunctionDef

    def visit_AsyncFunctionDef(self, node):
        saved, self.sync_depth = self.sync_depth, 0
        self.generic_visit(node)
        self.sync_depth = saved
        return node

    def visit_GeneratorExp(self, node):
        # `sum(f(x) for x in xs)` with an awaited f would be an async generator that
        # sum() cannot consume; a list comprehension gives the same values.
        self.generic_visit(node)
        if any(isinstance(n, ast.Await) for n in ast.walk(node.elt)):
            return ast.copy_location(ast.ListComp(node.elt, node.generators), node)
        return node


def format_error(error: BaseException) -> str:
    """The traceback of the model's own code, without the frames of the machinery."""
    if isinstance(error, SyntaxError):
        return "".join(traceback.format_exception_only(type(error), error))
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == FILENAME]
    head = ["Traceback (most recent call last):\n", *traceback.format_list(frames)] if frames else []
    return "".join(head + traceback.format_exception_only(type(error), error))


PRINT_LESS = our_note("Print less at a time, e.g. a slice such as text[:2000] or the first rows.")
