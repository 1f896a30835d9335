"""TabAgent's entry points for a host that speaks JSON: the extension's offscreen document.

Everything crosses as JSON text, so the JavaScript side has no Python proxies to manage:
a turn (`run_turn_json`, `stop_turn`), one tool called by hand (`call_tool_json`), the list
of tools with their schemas (`list_tools_json`) and the MCP servers' tools, prompts and Test
connection. Each is declared in wire.py's ENTRY_POINTS (what it takes, is lent, answers, and
who asks for it), which the JavaScript side follows. What the host lends comes by keyword:
`emit` (the turn's events), `page_bridge` (the user's tabs, see page_bridge.py), `sandbox_for` (a
sandbox per agent, for the code a CodeAgent writes) and `browser_model` (Chrome's built-in
model).
"""

from __future__ import annotations

import json
import time

from .attachments import message_given
from .consent import CalledByHand
from .page_bridge import JsonBridge
from .page_tools import page_tools
from .sandbox_executor import SandboxExecutor
from .turns import turns
from ..images import image_url, is_image
from ..tools import FinalAnswerTool, ToolInputError, format_result
from .user_tool_page import with_page
from .user_tools import describe_problem, load_user_tools
from .wire import settings_from_wire
from .workflow_files import saved_workflow_tools
from .workflow_reading import NotAWorkflow, read_workflow
from .workflow_source import tool_name, workflow_source
from .workflow_steps import sites_of_turn, steps_from_turn


async def run_turn_json(request_json: str, *, emit, page_bridge=None, browser_model=None, device_model=None,
                        sandbox_for=None, **build) -> str:
    """Runs one turn (`turns.Turns.run`) with JSON in and out; `build` is for tests
    (a model of their own)."""
    build["page"] = JsonBridge(page_bridge) if page_bridge is not None else None
    build["browser_model"], build["device_model"] = browser_model, device_model
    # The code a CodeAgent writes runs in the extension's sandbox: one per agent of the team.
    if sandbox_for is not None:
        timeout = settings_from_wire(json.loads(request_json).get("settings"))["code_timeout"]
        build["executor_factory"] = lambda name: SandboxExecutor(sandbox_for(name), timeout=timeout)
    # The developer's own tools (py/user_tools/), loaded afresh when their files changed, and
    # the workflows the user saved (workflow_files.py).
    user_tools, build["problems"] = load_user_tools()
    workflows, problems = saved_workflow_tools(json.loads(request_json).get("workflows"))
    build["problems"] += problems
    build["tools"] = [*build.get("tools", ()), *with_page([*user_tools, *workflows], build.get("page"))]
    result = await turns.run(json.loads(request_json), lambda event: emit(json.dumps(event)), **build)
    return json.dumps(result)


async def call_tool_json(name: str, args_json: str, *, page_bridge) -> str:
    """One page tool called by a person, with no model and no turn (a developer trying a
    tool). Returns {"ok": true, "result": the exact text a model would get, "ms": the time
    from the call to the result in Python, "images"?: the pictures it shows after that text},
    or {"ok": false, "error"} for a wrong call."""
    tools = {t.name: t for t in _all_tools(JsonBridge(page_bridge))[0]}
    if name not in tools:
        return json.dumps({"ok": False, "error": f"There is no tool named {name!r}; there are: "
                                                 f"{', '.join(tools)}."})
    started = time.perf_counter()
    try:
        value = await tools[name](**json.loads(args_json or "{}"))
    except ToolInputError as error:
        return json.dumps({"ok": False, "error": str(error)})
    ms = (time.perf_counter() - started) * 1000
    reply = {"ok": True, "result": format_result(value), "ms": round(ms, 2)}
    # What a model is shown after the text (a screenshot): the person sees it too, as pictures.
    pictures = [image_url(part) for part in getattr(value, "parts", []) if is_image(part)]
    return json.dumps({**reply, "images": pictures} if pictures else reply)


def _all_tools(bridge):
    """The tools a turn gets, as a developer sees them: page tools, then their own."""
    user_tools, problems = load_user_tools()
    return [*page_tools(bridge, CalledByHand()), *with_page(user_tools, bridge)], problems


def list_tools_json(*, page_bridge=None) -> str:
    """Every tool with the schema the model sees (and, for a CodeAgent, the Python signature),
    plus the user tools that did not load: for the panel's tools view."""
    tools, problems = _all_tools(JsonBridge(page_bridge))
    listed = [{**t.shown(), "signature": t.python_signature()} for t in [*tools, FinalAnswerTool()]]
    return json.dumps({"tools": listed, "problems": [{**p, "text": describe_problem(p)} for p in problems]})


def workflow_from_turn_json(events_json: str, task: str, name: str) -> str:
    """Save as workflow: {"ok": true, "name", "source" (the workflow's file), "sites" (where it
    acts), "parameters" ({name: default})} from a finished turn's events and the user's message,
    or {"ok": false, "error"} in words (a turn that did nothing on a page)."""
    events = json.loads(events_json)
    try:
        steps, defaults = steps_from_turn(events, task)
    except ValueError as error:
        return json.dumps({"ok": False, "error": str(error)})
    sites = sites_of_turn(events)
    return json.dumps({"ok": True, "name": tool_name(name or task), "source": workflow_source(task, steps, defaults, sites),
                       "sites": sites, "parameters": defaults})


def read_workflow_json(source: str) -> str:
    """A workflow file checked before it is kept (Import, or the code edited in the Tools view):
    {"ok": true, "parameters" ({name: default}), "sites", "steps" (how many)}, or {"ok":
    false, "error"} saying why it is not a workflow's data. Read from its syntax tree, never run."""
    try:
        read = read_workflow(source)
    except NotAWorkflow as refused:
        where = f"line {refused.line}: " if refused.line else ""
        return json.dumps({"ok": False, "error": f"This is not a workflow TabAgent can keep: {where}{refused}."})
    return json.dumps({"ok": True, "parameters": read.defaults, "sites": read.sites,
                       "steps": len(read.workflow.steps)})


def messages_given_json(turns_json: str) -> str:
    """For an import (background/imports.js): the message each turn's agent was given, made again
    from what the turn shows (attachments.message_given), so the check can hold an imported memory
    to it: {"messages": [{"task", "parts"} | null, ...]}, one per turn, in order."""
    turns = json.loads(turns_json)
    return json.dumps({"messages": [message_given(turn) if isinstance(turn, dict) else None
                                    for turn in (turns if isinstance(turns, list) else [])]})


async def client_call_json(session_json: str, call_json: str, *, emit, page_bridge) -> str:
    """One call of an MCP client (TabAgent as an MCP server), run as a step of its session
    (client_calls.py) with the page tools and consent of a turn: {"ok": true, "result",
    "images"?} or {"ok": false, "error"}."""
    from .client_calls import sessions

    session, call = json.loads(session_json), json.loads(call_json)
    running = sessions.session(session["conversation_id"], session.get("site_rules") or "", int(session.get("seq") or 0),
                               str(session.get("client") or ""))
    args = call.get("args") if isinstance(call.get("args"), dict) else {}
    reply = await running.run_client_call(str(call.get("name")), args, JsonBridge(page_bridge), lambda event: emit(json.dumps(event)))
    return json.dumps(reply)


def end_client_session(conversation_id: str) -> bool:
    """Ends an MCP client's session (the panel's Stop); False when none was running."""
    from .client_calls import sessions

    return sessions.end(conversation_id)


def stop_turn(conversation_id: str) -> bool:
    """Stops the conversation's running turn; False when none is running."""
    return turns.stop(conversation_id)


async def list_mcp_tools_json(servers_json: str, headers_json: str) -> str:
    """The Tools view's MCP part: {"tools": [{"name", "description", "parameters", "signature",
    "server", "policy"}], "problems": [{"text"}]}: the enabled tools of the enabled servers."""
    from .mcp_servers import servers_from_wire
    from .mcp_settings import listed_tools

    tools, problems = await listed_tools(servers_from_wire(json.loads(servers_json)), json.loads(headers_json or "{}"))
    listed = [{"name": t.name, "description": t.description, "parameters": t.parameters,
               "signature": t.python_signature(), "server": t.server["name"], "policy": t.policy} for t in tools]
    return json.dumps({"tools": listed, "problems": [{"text": p} for p in problems]})


async def list_mcp_prompts_json(servers_json: str, headers_json: str) -> str:
    """The composer's / commands from MCP servers: {"prompts": [...]} (mcp_servers.listed_prompts)."""
    from .mcp_servers import servers_from_wire
    from .mcp_settings import listed_prompts

    found = await listed_prompts(servers_from_wire(json.loads(servers_json)), json.loads(headers_json or "{}"))
    return json.dumps({"prompts": found})


async def get_mcp_prompt_json(server_json: str, headers_json: str, name: str, arguments_json: str) -> str:
    """{"ok": true, "text"} of one server prompt filled in, or {"ok": false, "error"} in words."""
    from ..mcp import MCPError
    from .mcp_servers import servers_from_wire
    from .mcp_settings import prompt_text

    [server] = servers_from_wire([json.loads(server_json)]) or [None]
    if server is None:
        return json.dumps({"ok": False, "error": "That MCP server is off or its address is not usable."})
    try:
        text = await prompt_text(server, json.loads(headers_json or "{}"), name, json.loads(arguments_json or "{}"))
    except MCPError as error:
        return json.dumps({"ok": False, "error": str(error)})
    return json.dumps({"ok": True, "text": text})


async def read_mcp_app_json(server_json: str, headers_json: str, uri: str) -> str:
    """An MCP App's page, to show in its step: {"ok", "html", "csp", "prefers_border"} or {"ok": false, "error"}."""
    from .mcp_apps import read_app
    from .mcp_servers import servers_from_wire

    [server] = servers_from_wire([json.loads(server_json)]) or [None]
    if server is None:
        return json.dumps({"ok": False, "error": "That MCP server is off or its address is not usable."})
    return json.dumps(await read_app(server, json.loads(headers_json or "{}"), uri))


async def mcp_app_call_json(server_json: str, headers_json: str, call_json: str, *, emit, page_bridge) -> str:
    """A call an MCP App makes to a tool of its own server, under the model's consent for that
    tool: {"ok": true, "result"} or {"ok": false, "error"} (mcp_apps.AppCall)."""
    from .mcp_apps import AppCall
    from .mcp_servers import servers_from_wire

    call = json.loads(call_json)
    [server] = servers_from_wire([json.loads(server_json)]) or [None]
    if server is None:
        return json.dumps({"ok": False, "error": "That MCP server is off or its address is not usable."})
    arguments = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
    running = AppCall(server, json.loads(headers_json or "{}"), str(call.get("conversation_id") or ""),
                      str(call.get("app_id") or ""), emit)
    return json.dumps(await running.run(str(call.get("tool") or ""), arguments, JsonBridge(page_bridge)))


async def check_mcp_server_json(server_json: str, headers_json: str) -> str:
    """Settings' Test connection: {"ok", "server", "version", "protocol", "transport",
    "tools": [{"name", "description", "fingerprint", "parameters"}]} or {"ok": false, "error"}."""
    from .mcp_settings import check_server

    return json.dumps(await check_server(json.loads(server_json), json.loads(headers_json or "{}")))


async def mcp_sign_in_plan_json(server_json: str, redirect_uri: str, client_id: str, how_json: str = "{}") -> str:
    """Sign-in, first half: {"ok", "plan": {"authorize_url", ...}} (mcp_sign_in.plan). `how_json`:
    {"client_secret", "known", "header"}, the secret the user typed with the client id, the
    server's earlier sign-in and the challenge of the request that asked (a turn's)."""
    from .mcp_sign_in import plan

    how = json.loads(how_json or "{}")
    how = how if isinstance(how, dict) else {}
    known = how.get("known") if isinstance(how.get("known"), dict) else None
    header = how.get("header") if isinstance(how.get("header"), str) else None
    return json.dumps(await plan(json.loads(server_json), redirect_uri, client_id or "",
                                 client_secret=str(how.get("client_secret") or ""), known=known, header=header))


async def mcp_sign_in_finish_json(plan_json: str, ended_at: str) -> str:
    """Sign-in, second half: {"ok", "record"}, the tokens to keep (mcp_sign_in.finish)."""
    from .mcp_sign_in import finish

    return json.dumps(await finish(json.loads(plan_json), ended_at))


async def mcp_refresh_json(record_json: str) -> str:
    """{"ok", "record"} with new tokens, before the access token expires."""
    from .mcp_sign_in import refresh

    return json.dumps(await refresh(json.loads(record_json)))


async def mcp_sign_out_json(record_json: str) -> str:
    """{"ok": true}: the refresh token revoked where the authorization server offers it."""
    from .mcp_sign_in import sign_out

    return json.dumps(await sign_out(json.loads(record_json)))
