"""SandboxExecutor: the CodeAgent's executor in the extension.

The code runs in a sandboxed extension page with a Pyodide of its own, never in this
interpreter: it has no network, no extension APIs, no cookies and no way to reach the
agent. `sandbox` is the offscreen document's CodeSandbox (extension/offscreen/
code-sandbox.js), which Python sees as a JsProxy. The tools stay here: inside the sandbox
each is an async stub with the tool's name and signature, and a call to it comes back to
`answer_tool_call`, which runs the real tool. What the sandbox sends is untrusted, so a
call is checked before any tool runs, and a malformed one is answered with an error.

    executor = SandboxExecutor(sandbox_for(agent_name), timeout=30)   # see json_entry_points.py
    agent = CodeAgent(model, tools, executor=executor)
"""

from __future__ import annotations

import asyncio
import json

from ..code_names import is_python_name
from ..executor import ExecutionResult, Executor
from ..tools import Tool
from .wire import SANDBOX


class SandboxExecutor(Executor):
    environment = ("Your Python runs in a sandbox with the standard library and BeautifulSoup (bs4): "
                   "no network, no installing (requests, urllib and pip fail); the tools listed are "
                   "how you reach the page and the web.")

    def __init__(self, sandbox, *, timeout: float | None = None, memory_limit_mb: int | None = None,
                 max_output_chars: int = SANDBOX["max_output_chars"]):
        self.sandbox = sandbox
        self.limits = {"max_output_chars": max_output_chars}  # wire.SANDBOX's names
        if timeout is not None:
            self.limits["timeout_ms"] = round(timeout * 1000)
        if memory_limit_mb is not None:
            self.limits["memory_limit_mb"] = memory_limit_mb
        if hasattr(sandbox, "warm"):
            sandbox.warm()  # start it now: it boots while the model writes the first code

    async def run(self, code: str, tools: dict) -> ExecutionResult:
        async def on_tool_call(name, args_json):
            return await answer_tool_call(tools, name, args_json)

        # `tools` is keyed by the Python names the code calls them by (code_names.py): each
        # stub is made under that name, and its calls come back under it.
        options = {"tools": [tool_spec(t, name) for name, t in tools.items() if is_python_name(name)], **self.limits}
        handler, release = _lent_to_javascript(on_tool_call)
        try:
            result = json.loads(await self.sandbox.runJson(code, json.dumps(options), handler))
        except asyncio.CancelledError:
            self.sandbox.stop()  # the turn was stopped: so is the code it was running
            raise
        finally:
            release()
        return ExecutionResult(output=result["output"], is_error=bool(result["is_error"]),
                               is_final=bool(result["is_final"]), final_value=json.loads(result["final_value"]))

    async def reset(self) -> None:
        await self.sandbox.reset()


async def answer_tool_call(tools: dict, name, args_json) -> str:
    """Runs the tool the sandboxed code called; returns the answer as JSON text:
    {"ok": true, "value": ...} or {"ok": false, "error": {"type", "module", "base", "args"}}."""
    try:
        tool = tools.get(name) if isinstance(name, str) else None
        if tool is None:
            raise NameError(f"name {name!r} is not defined: it is not a tool")
        args, kwargs = unpack_tool_call(args_json)
        value = await tool(*args, **kwargs)
    except Exception as error:  # the tool's error is the sandboxed code's to handle
        return json.dumps({"ok": False, "error": describe_error(error)}, ensure_ascii=False)
    try:
        return json.dumps({"ok": True, "value": value}, default=str, ensure_ascii=False)
    except (ValueError, RecursionError):
        return json.dumps({"ok": True, "value": str(value)}, ensure_ascii=False)


class MalformedToolCall(ValueError):
    """A tool call from the sandbox that is not {"args": [...], "kwargs": {...}}."""


def unpack_tool_call(args_json) -> tuple[list, dict]:
    try:
        call = json.loads(args_json) if isinstance(args_json, str) else None
    except ValueError:
        call = None
    if not (isinstance(call, dict) and set(call) == {"args", "kwargs"} and isinstance(call["args"], list)
            and isinstance(call["kwargs"], dict)):
        raise MalformedToolCall('a tool call must be JSON {"args": [...], "kwargs": {...}}')
    return call["args"], call["kwargs"]


def describe_error(error: BaseException) -> dict:
    """An exception as data the sandbox can raise again: its type, and the nearest built-in
    type it derives from, so that `except ValueError:` catches a ToolInputError there too."""
    base = next(c for c in type(error).__mro__ if c.__module__ == "builtins")
    if not issubclass(base, Exception):
        base = RuntimeError
    args = [a if isinstance(a, (str, int, float, bool, type(None))) else str(a) for a in error.args]
    return {"type": type(error).__qualname__, "module": type(error).__module__, "base": base.__name__,
            "args": args}


def tool_spec(tool: Tool, name: str | None = None) -> dict:
    """What the sandbox needs to make the tool's stub: the name the code calls it by (by
    default its own), docstring, parameters."""
    schema = tool.parameters
    required = set(schema.get("required", []))
    params, docs = [], []
    for arg, prop in schema["properties"].items():
        if not is_python_name(arg):
            continue  # code can still pass it as **{"odd-name": value}
        param = {"name": arg, "required": arg in required}
        if arg not in required:
            param["default"] = json.dumps(prop.get("default"), default=str)
        params.append(param)
        if prop.get("description"):
            docs.append(f"    {arg}: {prop['description']}")
    doc = tool.description + ("\n\nArgs:\n" + "\n".join(docs) if docs else "")
    return {"name": name or tool.name, "doc": doc, "params": params}


def _lent_to_javascript(function):
    """`function` as JavaScript may keep calling it for the whole run, and how to free it."""
    try:
        from pyodide.ffi import create_proxy
    except ImportError:  # CPython: the tests' stand-in for CodeSandbox is Python
        return function, lambda: None
    handler = create_proxy(function)
    return handler, handler.destroy
