"""One turn of a conversation, described as plain data: what a surface hands the agent.

The offscreen document (and any other surface) sends a request as a dict and receives
events through `emit`; nothing here knows about the browser. A request:

    {"conversation_id": str, "task": str, "memory": str | None (Memory JSON),
     "settings": {"base_url", "model", "agent": "code" | "tool_calling", "max_steps", ...},
     "api_key": str}

`Turns` keeps the running turns so that a stop request can cancel the right one. A surface
that can reach the user's tabs also hands in a `page` bridge (page_bridge.py): the agent
then gets the page tools, and its page actions ask the user through `confirmation` events.
"""

from __future__ import annotations

import json
import time

from .browser_model import BrowserModel
from .code_agent import CodeAgent
from .events import Event
from .memory import Memory
from .models import OpenAIModel
from .page_actions import AskTheUser, CalledByHand
from .page_bridge import JsonBridge
from .page_tools import page_tools
from .sandbox_executor import SandboxExecutor
from .tool_calling_agent import ToolCallingAgent
from .tools import FinalAnswerTool, ToolInputError, format_result
from .user_tools import load_user_tools, with_page

AGENT_KINDS = {"code": CodeAgent, "tool_calling": ToolCallingAgent}


def build_model(settings: dict, api_key: str | None, host=None, browser_model=None):
    if settings.get("provider") == "builtin":
        if browser_model is None:
            raise ValueError("Chrome's built-in model can only be used inside the browser.")
        return BrowserModel(browser_model)
    if not settings.get("base_url"):
        raise ValueError("No model is configured: open TabAgent's settings and choose one.")
    return OpenAIModel(
        settings["base_url"],
        api_key or None,
        settings.get("model", ""),
        host=host,
        timeout=float(settings.get("timeout", 120)),
        max_retries=int(settings.get("max_retries", 3)),
    )


def build_agent(request: dict, listener, *, tools=(), executor_factory=None, host=None, model=None,
                page=None, browser_model=None):
    """The agent the user talks to, with its team of managed agents from the settings.

    settings["team"] lists managed agents: {"name", "description", "agent", "max_steps",
    "team"} (a team member may have its own team). All share the model and the tools.
    """
    settings = request.get("settings") or {}
    model = model or build_model(settings, request.get("api_key"), host, browser_model)
    memory = Memory.from_json(request["memory"]) if request.get("memory") else None
    top = {"name": "TabAgent", "description": "The agent the user talks to.", **settings}
    consent = AskTheUser(page, emit=None) if page is not None else None
    if consent:
        tools = [*tools, *page_tools(page, consent)]
    agent = _agent(top, model, list(tools), executor_factory, conversation_id=request["conversation_id"],
                   memory=memory, listeners=[listener])
    if consent:
        consent.emit = agent.emit  # confirmations are the turn's events, in its sequence
    return agent


def _agent(spec: dict, model, tools: list, executor_factory, **options):
    kind = spec.get("agent", "code")
    if kind not in AGENT_KINDS:
        raise ValueError(f"Unknown agent kind {kind!r}: choose one of {', '.join(AGENT_KINDS)}.")
    team = [_agent(member, model, tools, executor_factory) for member in spec.get("team") or []]
    if kind == "code" and executor_factory is not None:
        # Keyed by the agent's name, so an agent's variables outlive its turn (in the extension
        # each name gets its own sandbox, for the conversation).
        options["executor"] = executor_factory(spec.get("name") or "agent")
    return AGENT_KINDS[kind](model, tools, name=spec.get("name") or "agent", description=spec.get("description", ""),
                             max_steps=int(spec.get("max_steps", 10)), managed_agents=team, **options)


class Turns:
    """The turns running in this interpreter, by conversation id."""

    def __init__(self) -> None:
        self._agents: dict[str, object] = {}

    async def run(self, request: dict, emit, *, problems=(), **build) -> dict:
        """Runs one turn; returns {"status", "memory"} once the agent is done. `problems` are
        the user tools that did not load: told as the turn's first events, not fatal."""
        conversation = request["conversation_id"]
        if conversation in self._agents:
            raise RuntimeError("This conversation already has a turn running: stop it first.")
        try:
            agent = build_agent(request, lambda event: emit(event.to_dict()), **build)
        except ValueError as error:  # a setting the user must fix: say so as the turn's events
            return _refused(request, str(error), emit)
        self._agents[conversation] = agent
        for problem in problems:
            await agent.emit("error", {"kind": "user_tools", "message": describe_problem(problem)})
        try:
            await agent.run(request["task"], reset=not request.get("memory"))
        except Exception:
            pass  # the agent has already emitted the error and a `done` event
        finally:
            self._agents.pop(conversation, None)
        return {"status": agent.status, "memory": agent.memory.to_json()}

    def stop(self, conversation_id: str) -> bool:
        agent = self._agents.get(conversation_id)
        if agent is None:
            return False
        agent.cancel()
        return True

    def running(self) -> list[str]:
        return list(self._agents)


turns = Turns()


async def run_turn_json(request_json: str, emit_json, **build) -> str:
    """`turns.run` with JSON in and out: what a JavaScript host calls, no proxies to manage."""
    if build.get("page") is not None:
        build["page"] = JsonBridge(build["page"])
    # The code a CodeAgent writes runs in the extension's sandbox: one per agent of the team.
    sandbox_for = build.pop("sandbox_for", None)
    if sandbox_for is not None:
        timeout = float((json.loads(request_json).get("settings") or {}).get("code_timeout", 30))
        build["executor_factory"] = lambda name: SandboxExecutor(sandbox_for(name), timeout=timeout)
    # The developer's own tools (py/user_tools/), loaded afresh when their files changed.
    user_tools, build["problems"] = load_user_tools()
    build["tools"] = [*build.get("tools", ()), *with_page(user_tools, build.get("page"))]
    result = await turns.run(json.loads(request_json), lambda event: emit_json(json.dumps(event)), **build)
    return json.dumps(result)


async def call_tool_json(name: str, args_json: str, page) -> str:
    """One page tool called by a person, with no model and no turn (a developer trying a
    tool). Returns {"ok": true, "result": the exact text a model would get, "ms": the time
    from the call to the result in Python}, or {"ok": false, "error"} for a wrong call."""
    tools = {t.name: t for t in _all_tools(JsonBridge(page))[0]}
    if name not in tools:
        return json.dumps({"ok": False, "error": f"There is no tool named {name!r}; there are: "
                                                 f"{', '.join(tools)}."})
    started = time.perf_counter()
    try:
        value = await tools[name](**json.loads(args_json or "{}"))
    except ToolInputError as error:
        return json.dumps({"ok": False, "error": str(error)})
    ms = (time.perf_counter() - started) * 1000
    return json.dumps({"ok": True, "result": format_result(value), "ms": round(ms, 2)})


def describe_problem(problem: dict) -> str:
    where = problem["file"] + (f", line {problem['line']}" if problem.get("line") else "")
    return f"{where}: {problem['message']} (its tools are not loaded; the others are)"


def _all_tools(bridge):
    """The tools a turn gets, as a developer sees them: page tools, then their own."""
    user_tools, problems = load_user_tools()
    return [*page_tools(bridge, CalledByHand()), *with_page(user_tools, bridge)], problems


def list_tools_json(page) -> str:
    """Every tool with the schema the model sees (and, for a CodeAgent, the Python signature),
    plus the user tools that did not load: for the panel's tools view."""
    tools, problems = _all_tools(JsonBridge(page))
    listed = [{"name": t.name, "description": t.description, "parameters": t.parameters,
               "signature": t.python_signature()} for t in [*tools, FinalAnswerTool()]]
    return json.dumps({"tools": listed, "problems": [{**p, "text": describe_problem(p)} for p in problems]})


def _refused(request: dict, message: str, emit) -> dict:
    memory = Memory.from_json(request["memory"]) if request.get("memory") else Memory()
    for kind, data in (("error", {"message": message, "kind": "settings"}),
                       ("done", {"status": "error", "steps": 0, "usage": {}, "error": message})):
        memory.seq += 1
        emit(Event(kind, request["conversation_id"], "TabAgent", 0, 0, memory.seq, time.time(), data).to_dict())
    return {"status": "error", "memory": request.get("memory")}
