"""The sandbox's Python: runs the code a model wrote, with the agent's tools as stubs.

worker.js imports this module in the sandbox's own Pyodide. It talks to the parent (the
offscreen document) only in JSON text: messages in through `start_run` and `receive`,
messages out through `post`, a function the worker hands in. Running code, capturing
output, capping it and cleaning tracebacks is tabagent.code_runner's job, the same code
the local executor runs; this file adds what only a sandbox needs:

- a stub per tool: an async function with the tool's name, signature and docstring that
  posts a tool call to the parent and awaits its answer;
- the namespace, kept between the runs of one conversation (a fresh sandbox is a fresh
  conversation);
- a check of every message, since a message's shape is all this side can trust;
- a count of what could still run after a run (tasks, callbacks), by which worker.js tells
  whether anything the last run started ignored its end.

Wire format (JSON text; the types and their fields are wire.py's SANDBOX_MESSAGES, which
extension/shared/protocol/sandbox-protocol.js checks too):
  in   {"type": "run", "run_id", "code", "tools": [spec], "max_output_chars", "memory_limit_bytes"}
       {"type": "tool-result", "run_id", "call_id", "reply"}   reply is the JSON text of
       {"ok": true, "value": ...} or {"ok": false, "error": {"type", "module", "base", "args"}}
  out  {"type": "tool-call", "run_id", "call_id", "name", "args"}  args is the JSON text of
       {"args": [...], "kwargs": {...}}
       {"type": "result", "run_id", "output", "is_error", "is_final", "final_value"}  finalValue: JSON text
"""

from __future__ import annotations

import asyncio
import builtins
import contextvars
import inspect
import json

from tabagent import code_runner
from tabagent.memory import cut
from tabagent.app.wire import SANDBOX, SANDBOX_MESSAGES

MAX_TEXT_CHARS = SANDBOX["max_text_chars"]  # larger arguments or answers are refused


class ProtocolError(ValueError):
    """A message that does not have the shape its type requires."""


def _is_id(value) -> bool:
    return type(value) is int and 0 < value < 2**53


def _is_count(value) -> bool:
    return type(value) is int and value >= 0


RUN, TOOL_RESULT, TOOL_CALL, RESULT = SANDBOX_MESSAGES  # the types, in wire.py's order
# How each field of a message coming in is checked; which fields a type has is wire.py's.
_CHECKS = {"run_id": _is_id, "call_id": _is_id, "code": lambda v: isinstance(v, str),
           "tools": lambda v: isinstance(v, list), "max_output_chars": _is_count,
           "memory_limit_bytes": _is_count, "reply": lambda v: isinstance(v, str)}
_FIELDS = {kind: {name: _CHECKS[name] for name in SANDBOX_MESSAGES[kind]} for kind in (RUN, TOOL_RESULT)}


def outgoing(kind: str, **fields) -> str:
    """The JSON text of a message to the parent, with exactly the fields its type declares."""
    if set(fields) != set(SANDBOX_MESSAGES[kind]):
        raise ProtocolError(f"{kind}: fields {sorted(fields)} are not {list(SANDBOX_MESSAGES[kind])}")
    return json.dumps({"type": kind, **fields})


def parse(text: str, expected: str) -> dict:
    """The message in `text` if it is a well-formed `expected` message; else ProtocolError."""
    try:
        message = json.loads(text)
    except (TypeError, ValueError):
        raise ProtocolError("not JSON") from None
    if not isinstance(message, dict) or message.get("type") != expected:
        raise ProtocolError(f"expected a {expected} message")
    fields = _FIELDS[expected]
    if set(message) != {"type", *fields}:
        raise ProtocolError(f"{expected}: fields {sorted(message)} are not {sorted(fields)}")
    for name, valid in fields.items():
        if not valid(message[name]):
            raise ProtocolError(f"{expected}: bad {name}")
    return message


def to_json(value) -> str:
    """JSON text for a value going to the parent; what JSON cannot hold goes as str()."""
    try:
        return json.dumps(value, default=str, ensure_ascii=False)
    except (ValueError, RecursionError):  # circular, or nested too deep
        return json.dumps(str(value), ensure_ascii=False)


class SandboxRuntime:
    def __init__(self, post):
        self._post = post  # post(json_text) -> None: to the parent, through the worker
        self.namespace: dict = {}
        self._stubs: dict = {}  # the stubs the last run installed, by name
        self._calls: dict[int, asyncio.Future] = {}  # call id -> the stub awaiting its answer
        self._last_call_id = 0
        self._run_id: int | None = None
        self._task: asyncio.Task | None = None

    @property
    def running(self) -> bool:
        return self._run_id is not None

    # --- Messages in ---------------------------------------------------------------------

    def start_run(self, text: str) -> None:
        """Starts running the code of a `run` message; posts its `result` when done."""
        message = parse(text, RUN)
        if self._run_id is not None:
            raise ProtocolError("run: a run is already going")  # the parent runs one at a time
        self._run_id = message["run_id"]  # taken now: a second run message is refused at once
        self._task = asyncio.ensure_future(self._run(message))  # held: a task nobody holds may vanish

    def receive(self, text: str) -> None:
        """A tool call's answer: wakes the stub waiting for it."""
        message = parse(text, TOOL_RESULT)
        future = self._calls.get(message["call_id"])
        if message["run_id"] != self._run_id or future is None or future.done():
            raise ProtocolError("tool-result: no call of this run is waiting for it")
        del self._calls[message["call_id"]]
        try:
            future.set_result(json.loads(message["reply"]))
        except ValueError:
            future.set_exception(ProtocolError("tool-result: the reply is not JSON"))

    # --- Running ---------------------------------------------------------------------------

    async def _run(self, message: dict) -> None:
        started_by_code = track_tasks()
        try:
            stubs = {spec["name"]: make_stub(spec, self._call) for spec in message["tools"]}
            for name, old in self._stubs.items():  # a tool of an earlier run that this run lacks
                if self.namespace.get(name) is old:
                    del self.namespace[name]
            self._stubs = stubs
            self.namespace.update(stubs)
            self.namespace["final_answer"] = code_runner.final_answer
            result = await code_runner.run_code(message["code"], self.namespace, stubs.keys(),
                                                message["max_output_chars"])
        except BaseException as error:  # KeyboardInterrupt, a bad tool spec...: still answer
            result = {"output": code_runner.format_error(error), "is_error": True,
                      "is_final": False, "final_value": None}
        finally:
            self._run_id = None
            for future in self._calls.values():  # calls left running by tasks the code started
                future.cancel()
            self._calls.clear()
            for task in tasks_started_by(started_by_code):
                task.cancel()  # does nothing to those already done
        final = to_json(result["final_value"])
        if len(final) > MAX_TEXT_CHARS:
            final = json.dumps(cut(str(result["final_value"]), MAX_TEXT_CHARS // 2, "The final answer was too long."))
        self._post(outgoing(RESULT, run_id=message["run_id"], output=result["output"],
                           is_error=result["is_error"], is_final=result["is_final"], final_value=final))

    async def _call(self, name: str, args: tuple, kwargs: dict):
        if self._run_id is None:
            raise RuntimeError(f"{name}() was called after the code finished running; "
                               f"tools work only while the code runs")
        try:
            payload = json.dumps({"args": list(args), "kwargs": kwargs}, ensure_ascii=False)
        except (TypeError, ValueError) as error:
            raise TypeError(f"{name}(): arguments must be str, int, float, bool, None, or lists "
                            f"and dicts of these ({error})") from None
        if len(payload) > MAX_TEXT_CHARS:
            raise ValueError(f"{name}(): the arguments are too large ({len(payload):,} characters)")
        self._last_call_id += 1
        call_id = self._last_call_id
        future = self._calls[call_id] = asyncio.get_running_loop().create_future()
        self._post(outgoing(TOOL_CALL, run_id=self._run_id, call_id=call_id, name=name, args=payload))
        reply = await future
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise ProtocolError(f"{name}(): the answer has no 'ok'")
        if reply["ok"]:
            return reply.get("value")
        raise tool_error(reply.get("error"))


# Marks the context the model's code runs in; the tasks it starts inherit the mark.
_run_mark: contextvars.ContextVar[set | None] = contextvars.ContextVar("sandbox_run", default=None)


def _task_factory(loop, coro, **options):  # Python before 3.12, which has no Task.get_context
    task = asyncio.Task(coro, loop=loop, **options)
    started = _run_mark.get()
    if started is not None:
        started.add(task)
    return task


def track_tasks() -> set:
    """Marks this context as the model code's, so that the tasks it starts can be found when
    it ends (tasks_started_by): nothing it started goes on after it. The worker clears the
    timers it left (worker.js)."""
    started: set = set()
    _run_mark.set(started)
    if not hasattr(asyncio.Task, "get_context"):
        loop = asyncio.get_running_loop()
        if loop.get_task_factory() is not _task_factory:
            loop.set_task_factory(_task_factory)
    return started


def tasks_started_by(started: set) -> set:
    if hasattr(asyncio.Task, "get_context"):
        started = {task for task in asyncio.all_tasks() if task.get_context().get(_run_mark) is started}
    return started - {asyncio.current_task()}


def watch_leftovers(running):
    """Counts what could still run code between runs and returns how to read the count:
    tasks not done, and callbacks scheduled while no run is going (`running()` is false) that
    have not run and were not cancelled. worker.js reads it when a run has ended, when nothing
    of it should be left: anything counted is code that ignored the run's end (a task that
    swallows its cancellation or sleeps through it, a callback that queues itself again).
    Callbacks scheduled during a run are not counted: those the worker's timers carry are
    cleared at the run's end and never run, and the others run at once, so a leftover among
    them schedules its next callback after the run, where it is counted."""
    loop = asyncio.get_event_loop()
    call_soon, call_later = loop.call_soon, loop.call_later  # Pyodide's call_soon calls call_later
    waiting: set = set()

    def scheduled(schedule, delay: tuple, callback, args, context):
        if running():
            return schedule(*delay, callback, *args, context=context)
        handle = None

        def counted(*given):
            waiting.discard(handle)
            return callback(*given)

        handle = schedule(*delay, counted, *args, context=context)
        waiting.add(handle)
        return handle

    loop.call_soon = lambda callback, *args, context=None: scheduled(call_soon, (), callback, args, context)
    loop.call_later = lambda delay, callback, *args, context=None: scheduled(call_later, (delay,), callback, args, context)

    def leftovers() -> int:
        waiting.difference_update([handle for handle in waiting if handle.cancelled()])
        return len(waiting) + len(asyncio.all_tasks(loop))

    return leftovers


def make_stub(spec: dict, call):
    """An async function standing in for a tool: same name, signature and docstring."""
    name = spec["name"]

    async def stub(*args, **kwargs):
        return await call(name, args, kwargs)

    stub.__name__ = stub.__qualname__ = name
    stub.__doc__ = spec.get("doc") or None
    stub.__signature__ = _signature(spec.get("params") or [])
    return stub


def _signature(params: list[dict]) -> inspect.Signature | None:
    parameters, kind = [], inspect.Parameter.POSITIONAL_OR_KEYWORD
    for param in params:
        default = inspect.Parameter.empty
        if not param["required"]:
            default = json.loads(param["default"])
        elif parameters and parameters[-1].default is not inspect.Parameter.empty:
            kind = inspect.Parameter.KEYWORD_ONLY  # a required one after an optional one
        try:
            parameters.append(inspect.Parameter(param["name"], kind, default=default))
        except ValueError:
            return None  # a name Python cannot spell (a keyword): the stub takes anything
    return inspect.Signature(parameters)


_error_classes: dict[tuple[str, str, str], type] = {}


def tool_error(error) -> Exception:
    """The exception a tool raised in the parent, raised again in the model's code: a
    built-in type as itself, another as a subclass of its nearest built-in base, so that
    `except KeyError:` works and the traceback names the tool's own exception."""
    if not isinstance(error, dict):
        return ProtocolError("a tool failed without saying how")
    name, module, base = (str(error.get(k) or "") for k in ("type", "module", "base"))
    args = error.get("args") if isinstance(error.get("args"), list) else []
    base_class = getattr(builtins, base, None)
    if not (isinstance(base_class, type) and issubclass(base_class, Exception)):
        base_class = RuntimeError
    if module == "builtins" and getattr(builtins, name, None) is base_class:
        return base_class(*args)
    if not name.isidentifier():
        name = "ToolError"
    key = (module, name, base_class.__name__)
    if key not in _error_classes:
        _error_classes[key] = type(name, (base_class,), {"__module__": module or "tools"})
    return _error_classes[key](*args)


def warm_up() -> None:
    """Imports what model code is likely to import, while the sandbox waits as a spare."""
    try:
        import bs4  # noqa: F401
    except ImportError:
        pass  # the build vendors it; a sandbox without it still runs code
