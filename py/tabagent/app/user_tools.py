"""Your own tools: each `.py` file in py/user_tools/ is imported, and every `Tool` in it
(a function decorated with `@tool` is one) goes to the agent, with no other registration.

A saved workflow's file (workflow_source.py) is read as data instead, never run
(workflow_reading.py). Other files are imported one by one, from their text: a file whose text changed is imported again
(a rebuilt extension, a file edited between two turns on the command line), an unchanged one
is not. A file that fails to import becomes a problem, {"file", "line", "message"}, and the
other files' tools still load. Nothing here runs at `import tabagent`: the build snapshots an
interpreter with tabagent imported, and a broken tool must not break that.

    tools, problems = load_user_tools()      # py/user_tools, or user_tools/ in the extension
    tools = with_page(tools, bridge)         # user_tool_page.py: for one turn that can reach a tab

A user tool reads the page through `page` (user_tool_page.py), imported from here as the
docs/extending.md shows: `from tabagent.app.user_tools import page`.
"""

from __future__ import annotations

import hashlib
import sys
import traceback
import types
from dataclasses import dataclass
from pathlib import Path

from .page_actions import ACTING, BY_POSITION
from .page_tools import CHOOSING_THE_TAB, DOWNLOADED, READING, SEEING
# The page a user tool reads, under the import path tool files use (docs/extending.md, "Adding a tool").
from .user_tool_page import PageError, PageUnavailable, page  # noqa: F401
from .workflow_reading import NotAWorkflow, workflow_tool
from ..tools import Tool

# py/user_tools in a checkout; user_tools/ next to tabagent/ in the extension's zip.
DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / "user_tools"
SHOWN_AS = "py/user_tools"  # the default folder as the developer knows it
# A user tool by one of these names would shadow TabAgent's own (the agent keeps the first).
RESERVED = frozenset({"final_answer", "ask_user", *READING, *DOWNLOADED, *SEEING, *ACTING, *BY_POSITION, *CHOOSING_THE_TAB})


@dataclass
class _File:
    digest: str               # sha256 of the text that was imported
    module: str | None        # its name in sys.modules, None when the import failed
    tools: list[Tool]
    problems: list[dict]


_imported: dict[Path, _File] = {}


def load_user_tools(folder: str | Path | types.ModuleType | None = None) -> tuple[list[Tool], list[dict]]:
    """(tools, problems) from the `.py` files of `folder` (a path or a package; default the
    user tools folder). Files starting with "_" are skipped. A problem is {"file": the path
    as the developer sees it, "line": int or None (the whole file), "message": str}."""
    folder, shown_as = _where(folder)
    files = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_")) if folder.is_dir() else []
    for gone in [p for p in _imported if p.parent == folder and p not in files]:
        sys.modules.pop(_imported.pop(gone).module or "", None)
    tools, problems, source_of = [], [], {}
    for path in files:
        shown = f"{shown_as}/{path.name}"
        loaded = _import(path, shown)
        problems += loaded.problems
        for found in loaded.tools:
            if not found.name:
                message = f"a {type(found).__name__} without a name: give it one"
            elif found.name in RESERVED:
                message = f"'{found.name}' is the name of one of TabAgent's own tools: rename this one"
            elif found.name in source_of:
                message = (f"a tool named '{found.name}' already comes from {source_of[found.name]}: "
                           f"rename one of them (this one is not loaded)")
            else:
                source_of[found.name] = shown
                tools.append(found)
                continue
            problems.append({"file": shown, "line": _line_of(found, path), "message": message})
    return tools, problems


def _where(folder) -> tuple[Path, str]:
    """The folder, and how to show it: as it was given, or as py/user_tools."""
    if isinstance(folder, types.ModuleType):
        folder = next(iter(folder.__path__))
    resolved = Path(folder).resolve() if folder is not None else DEFAULT_FOLDER
    return resolved, SHOWN_AS if resolved == DEFAULT_FOLDER else Path(folder).as_posix()


def _import(path: Path, shown: str) -> _File:
    try:
        source = path.read_bytes()
    except OSError as error:  # deleted or unreadable since the folder was listed
        return _File("", None, [], [{"file": shown, "line": None, "message": f"cannot read it: {error.strerror}"}])
    digest = hashlib.sha256(source).hexdigest()
    earlier = _imported.get(path)
    if earlier and earlier.digest == digest:
        return earlier
    if earlier and earlier.module:
        sys.modules.pop(earlier.module, None)
    workflow = _as_workflow(path, source)
    if workflow is not None:  # a saved workflow is data: read, never run (workflow_reading.py)
        _imported[path] = _File(digest, None, [workflow], [])
        return _imported[path]
    # A new name per text: an edited file never runs as, or finds, its old module.
    name = f"tabagent_user_tool_{path.stem}_{digest[:12]}"
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module  # dataclasses and typing look a module up there
    try:
        # Compiled from the bytes just hashed, not through the import system, whose cached
        # bytecode could be stale when a file is edited twice within its mtime resolution.
        exec(compile(source, str(path), "exec", dont_inherit=True), module.__dict__)
    except (Exception, SystemExit) as error:
        sys.modules.pop(name, None)
        loaded = _File(digest, None, [], [{"file": shown, "line": _line_of_error(error, path),
                                           "message": _describe(error)}])
    else:
        tools = list({id(v): v for v in vars(module).values() if isinstance(v, Tool)}.values())
        problems = [] if tools else [{"file": shown, "line": None, "message":
                                      "defines no tools: decorate a function with @tool "
                                      "(from tabagent import tool), or rename the file to start with _"}]
        loaded = _File(digest, name, tools, problems)
    _imported[path] = loaded
    return loaded


def _as_workflow(path: Path, source: bytes) -> Tool | None:
    """The workflow tool of a file that is a saved workflow's data; None for any other file."""
    try:
        return workflow_tool(path.stem, source.decode("utf-8"))
    except (NotAWorkflow, UnicodeDecodeError):
        return None


def _describe(error: BaseException) -> str:
    if isinstance(error, SyntaxError):
        return f"{type(error).__name__}: {error.msg}"
    if isinstance(error, SystemExit):
        return "the file called sys.exit() while being imported"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _line_of_error(error: BaseException, path: Path) -> int | None:
    if isinstance(error, SyntaxError) and error.filename == str(path):
        return error.lineno
    # The deepest line of the file itself: where it called what failed.
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == str(path)]
    return lines[-1] if lines else None


def _line_of(found: Tool, path: Path) -> int | None:
    forward = getattr(found, "forward", None)
    code = getattr(getattr(forward, "__func__", forward), "__code__", None)
    return code.co_firstlineno if code is not None and code.co_filename == str(path) else None


def describe_problem(problem: dict) -> str:
    where = problem["file"] + (f", line {problem['line']}" if problem.get("line") else "")
    return f"{where}: {problem['message']} (its tools are not loaded; the others are)"
