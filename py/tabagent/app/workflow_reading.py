"""A saved workflow read as what it is, data: the `Workflow(...)` literal of its file, taken from
the file's syntax tree and never run. A workflow file may come from anyone (Import in the Tools
view, a file shared by mail), so reading one must not be running one: not when it is imported,
not when a turn starts.

    workflow, defaults, sites = read_workflow(source)      # or NotAWorkflow, said in words
    tool = workflow_tool("find_kettle", source)            # the agent's tool that replays it

What a file may hold, and nothing else:
- its docstring, and `from tabagent.app.workflows import ...` of Parameter, Place, Step, Workflow
  (and `from tabagent import tool`, which files saved by earlier versions have);
- `WORKFLOW = Workflow(goal=..., steps=[Step(...), ...], parameters={...}, sites=[...])`, whose
  values are literals (text, numbers, True/False/None, lists, dicts) and calls of Step, Place
  and Parameter with literals;
- in files saved by earlier versions, the `@tool async def name(search: str = "...") -> str:`
  that returned `await WORKFLOW.replay(search=search)`, read for its parameters' defaults only,
  and only in exactly that shape.
Anything else (a name, an attribute, an expression, another statement) is refused, saying
where and what. The values are then checked as the workflow's own classes check them (a step's
action is one of the page actions).
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from ..tools import Tool
from .workflow_source import field_of, words
from .workflows import Parameter, Place, Step, Workflow

MAX_SOURCE_CHARS = 200_000
MAX_STEPS = 500
IMPORTS = {"tabagent.app.workflows": {"Parameter", "Place", "Step", "Workflow"}, "tabagent": {"tool"}}
CALLS = {"Workflow": Workflow, "Step": Step, "Place": Place, "Parameter": Parameter}


class NotAWorkflow(ValueError):
    """A file that is not a workflow's data; `line` is where (None: the whole file). The message
    may be given as a function that writes it, called when it is read: quoting the code found
    (`_what`) imports ast.unparse's module, half a second in Pyodide, and every turn asks of each
    user tool file whether it is a workflow without reading why not (user_tools.py)."""

    def __init__(self, message: str | Callable[[], str], line: int | None = None):
        super().__init__(message)
        self.line = line

    def __str__(self) -> str:
        message = self.args[0]
        return message() if callable(message) else message

    def __repr__(self) -> str:
        return f"NotAWorkflow({str(self)!r})"


@dataclass
class ReadWorkflow:
    workflow: Workflow
    defaults: dict          # each parameter's value when none is given
    sites: list[str]        # where it acted when it was saved: boxes the user may tick, never ticked here


def read_workflow(source: str) -> ReadWorkflow:
    """The workflow a file holds, read from its syntax tree; NotAWorkflow says why not."""
    try:
        return _read(source)
    except RecursionError:
        raise NotAWorkflow("it is nested too deeply to be a workflow") from None


def _read(source: str) -> ReadWorkflow:
    if len(source) > MAX_SOURCE_CHARS:
        raise NotAWorkflow(f"the file is {len(source):,} characters long; a workflow is at most {MAX_SOURCE_CHARS:,}")
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise NotAWorkflow(f"it is not Python TabAgent can read ({error.msg})", error.lineno) from None
    except (MemoryError, ValueError):  # (ValueError: a NUL character in it)
        raise NotAWorkflow("it is not text TabAgent can read as Python") from None
    found, legacy_defaults = None, None
    for number, node in enumerate(tree.body):
        if number == 0 and _is_text(node):
            continue
        if isinstance(node, ast.ImportFrom) and _allowed_import(node):
            continue
        if _is_workflow_assignment(node) and found is None:
            found = _value(node.value)
        elif isinstance(node, ast.AsyncFunctionDef) and legacy_defaults is None:
            legacy_defaults = _legacy_defaults(node)
        else:
            raise NotAWorkflow(lambda node=node: f"{_what(node)} is code, and a workflow file holds only its steps "
                               f"(WORKFLOW = Workflow(...)): TabAgent does not run code from a workflow", node.lineno)
    if not isinstance(found, Workflow):
        raise NotAWorkflow("it has no WORKFLOW = Workflow(goal=..., steps=[...]) to read")
    return _checked(found, legacy_defaults)


def _checked(workflow: Workflow, legacy_defaults: dict | None) -> ReadWorkflow:
    if not isinstance(workflow.goal, str) or not all(isinstance(s, Step) for s in workflow.steps):
        raise NotAWorkflow("its goal must be text and its steps a list of Step(...)")
    if not workflow.steps or len(workflow.steps) > MAX_STEPS:
        raise NotAWorkflow(f"a workflow has 1 to {MAX_STEPS} steps, not {len(workflow.steps)}")
    defaults = {**(legacy_defaults or {}), **workflow.defaults}
    for name, value in defaults.items():
        if not name.isidentifier() or not (isinstance(value, str) or _texts(value)):
            raise NotAWorkflow(f"the parameter {name!r} must be a Python name with a text (or a list of texts) as its value")
    missing = sorted(workflow.parameters() - set(defaults))
    if missing:
        raise NotAWorkflow(f"its steps use {', '.join(missing)}, which its parameters do not give a value")
    sites = workflow.sites
    if not _texts(sites):
        raise NotAWorkflow("its sites must be a list of addresses")
    return ReadWorkflow(workflow, defaults, list(sites))


def _texts(value) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _is_text(node) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _allowed_import(node: ast.ImportFrom) -> bool:
    wanted = IMPORTS.get(node.module or "")
    return node.level == 0 and wanted is not None and all(a.name in wanted and a.asname is None for a in node.names)


def _is_workflow_assignment(node) -> bool:
    return (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "WORKFLOW")


def _value(node):
    """A literal, or a call of one of CALLS with literals: made with our own classes."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float, bool, type(None))):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return -node.operand.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(item) for item in node.elts]
    if isinstance(node, ast.Dict) and all(key is not None for key in node.keys):
        keys = [_value(key) for key in node.keys]
        if not all(isinstance(key, str) for key in keys):
            raise NotAWorkflow("a dict's keys must be text", node.lineno)
        return dict(zip(keys, map(_value, node.values)))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS \
            and all(k.arg is not None for k in node.keywords) and not any(isinstance(a, ast.Starred) for a in node.args):
        args, kwargs = [_value(a) for a in node.args], {k.arg: _value(k.value) for k in node.keywords}
        try:
            return CALLS[node.func.id](*args, **kwargs)
        except (TypeError, ValueError) as error:
            raise NotAWorkflow(f"{node.func.id}(...) is not as TabAgent writes it: {error}", node.lineno) from None
    raise NotAWorkflow(lambda: f"{_what(node)} is not a value a workflow holds (text, numbers, lists, "
                       f"Step, Place, Parameter)", getattr(node, "lineno", None))


def _legacy_defaults(node: ast.AsyncFunctionDef) -> dict:
    """The defaults of `@tool async def name(p: str = "v", ...) -> str: return await
    WORKFLOW.replay(p=p, ...)`, as earlier versions wrote a workflow; any other function is code."""
    args = node.args
    params = [a.arg for a in args.args]
    body = node.body[1:] if node.body and _is_text(node.body[0]) else node.body
    shaped = (len(node.decorator_list) == 1 and isinstance(node.decorator_list[0], ast.Name)
              and node.decorator_list[0].id == "tool" and not args.posonlyargs and not args.kwonlyargs
              and args.vararg is None and args.kwarg is None and len(args.defaults) == len(params)
              and all(_is_text_type(a.annotation) for a in args.args) and len(body) == 1
              and _replays_with(body[0], params))
    if not shaped:
        raise NotAWorkflow(f"the function {node.name}() is code, not the one line a workflow file of "
                           f"an earlier version had (return await WORKFLOW.replay(...))", node.lineno)
    return dict(zip(params, (_value(d) for d in args.defaults)))


def _is_text_type(annotation) -> bool:
    if isinstance(annotation, ast.Name):
        return annotation.id == "str"
    return (isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name)
            and annotation.value.id == "list" and isinstance(annotation.slice, ast.Name) and annotation.slice.id == "str")


def _replays_with(node, params: list[str]) -> bool:
    call = node.value.value if isinstance(node, ast.Return) and isinstance(node.value, ast.Await) else None
    return (isinstance(call, ast.Call) and not call.args and isinstance(call.func, ast.Attribute)
            and call.func.attr == "replay" and isinstance(call.func.value, ast.Name) and call.func.value.id == "WORKFLOW"
            and [(k.arg, getattr(k.value, "id", None)) for k in call.keywords] == [(p, p) for p in params]
            and all(isinstance(k.value, ast.Name) for k in call.keywords))


def _what(node) -> str:
    """What a piece of code is, in a few words, quoting it briefly."""
    text = " ".join(ast.unparse(node).split())
    return f"“{text[:60]}{'…' if len(text) > 60 else ''}”"


class WorkflowTool(Tool):
    """The agent's tool for a saved workflow: its parameters, each with its saved value as the
    default; calling it replays the steps (workflows.Workflow.replay)."""

    def __init__(self, name: str, read: ReadWorkflow, source: str):
        self.name, self.workflow, self.defaults = name, read.workflow, read.defaults
        self.digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
        self.description = f"{words(read.workflow.goal) or 'A saved workflow'} (a saved workflow)."
        properties = {p: {**({"type": "string"} if isinstance(v, str) else {"type": "array", "items": {"type": "string"}}),
                          "description": words(field_of(p, read.workflow.steps)), "default": v}
                      for p, v in read.defaults.items()}
        self.inputs = {"type": "object", "properties": properties}

    async def forward(self, **values) -> str:
        return await self.workflow.replay(**{**self.defaults, **values})


def workflow_tool(name: str, source: str) -> WorkflowTool:
    return WorkflowTool(name, read_workflow(source), source)
