"""One turn of a conversation, described as plain data: what a surface hands the agent.

The offscreen document (and any other surface) sends a request as a dict and receives
events through `emit`; nothing here knows about the browser. A request:

    {"conversation_id": str, "task": str, "memory": str | None (Memory JSON),
     "context": {"selection", "title", "url"} | None (text the user selected on a page),
     "settings": wire.SETTINGS (base_url, model, agent: "code" | "tool_calling", max_steps, ...),
     "api_key": str, "attached_tabs": [{"tab_id", "url"}, ...], "attached_selection": {...},
     "workflow": {"name", "arguments", "allowed_sites"} | None (a saved workflow to replay: workflow_turn.py),
     "schedule": {"name", "sites"} | None (a scheduled run's: who acts, and where it may act unasked)}

(attached_tabs and attached_selection are what the user attached in the composer: attachments.py;
read_tab asks nothing for an attached tab while it shows the site it showed when attached.)

`Turns` keeps the running turns so that a stop request can cancel the right one. A surface
that can reach the user's tabs also hands in a `page` bridge (page_bridge.py): the agent
then gets the page tools, and its page actions ask the user through `confirmation` events.
"""

from __future__ import annotations

import asyncio
import json
import time

from .. import prompts
from .attachments import attached_tabs, task_with_attachments
from .builtin_model import BrowserModel
from .on_device_model import on_device_model
from ..code_agent import CodeAgent
from ..events import Event
from ..memory import Memory, UnreadableMemory
from ..models import OpenAIModel
from ..context_keeper import DEFAULT_WINDOW, ContextKeeper
from ..images import keep_images_within
from ..vision import Vision
from ..hosts import default_host
from ..ollama import OllamaModel, recognise
from ..providers import BUILTIN, CUSTOM, OLLAMA, ONDEVICE, default_timeout
from .mcp_servers import AskedMCPTool, ServerConnections, crowding_notice, servers_from_wire
from .hand_back import HandBack
from .own_tabs import INSTRUCTIONS as OWN_TAB_INSTRUCTIONS, MembersTabs
from .consent import ON_THE_PAGE, Actor, AskTheUser, Consent, outside_never
from .site_rules import parse_site_rules
from .one_time_codes import read_in_memory
from .page_bridge import selection_task
from .untrusted_content import reading_into, stop_reading, untrusted
from .page_tools import page_tools
from ..tool_calling_agent import ToolCallingAgent
from ..tools import FunctionTool
from .user_tool_page import PageBound
from .user_tools import describe_problem
from .wire import SETTINGS, settings_from_wire, steps_of
from .workflow_turn import run_workflow_turn

AGENT_KINDS = {"code": CodeAgent, "tool_calling": ToolCallingAgent}


def build_model(settings: dict, api_key: str | None, host=None, browser_model=None, device_model=None):
    if settings.get("provider") == ONDEVICE:
        if device_model is None:
            raise ValueError("The on-device model runs only inside the extension: choose an endpoint here.")
        return on_device_model(device_model, settings, host)
    if settings.get("provider") == BUILTIN:
        if browser_model is None:
            raise ValueError("Chrome's built-in model can only be used inside the browser.")
        return BrowserModel(browser_model)
    if not settings.get("base_url"):
        raise ValueError("No model is configured: open TabAgent's settings and choose one.")
    # Ollama through its own API, which lets each request ask for the context it needs.
    model_class = OllamaModel if settings.get("provider") == OLLAMA else OpenAIModel
    model = model_class(
        settings["base_url"],
        api_key or None,
        settings.get("model", ""),
        host=host,
        timeout=request_timeout(settings),
        max_retries=int(settings.get("max_retries", SETTINGS["max_retries"])),
        temperature=_number(settings.get("temperature"), float),
        extra_body=_output_limit(settings),
    )
    model.provider = settings.get("provider", "")  # which server to ask how it holds a reply (reply_grammar.py)
    return model


async def endpoint_recognised(request: dict, host=None) -> dict:
    """The request, its provider "ollama" when its OpenAI-compatible base URL, given as a custom
    endpoint (or on the command line), is Ollama's (ollama.recognise): it then gets its window
    and num_ctx, through Ollama's own API."""
    settings = request.get("settings") or {}
    if settings.get("provider", "") not in ("", CUSTOM) or not settings.get("base_url"):
        return request
    if not await recognise(host or default_host(), settings["base_url"], request.get("api_key") or None):
        return request
    return {**request, "settings": {**settings, "provider": OLLAMA}}


def request_timeout(settings: dict) -> float:
    """The user's request_timeout if they set one, else the provider's default: longer for a
    model on this machine than for an API on the internet (providers.default_timeout)."""
    chosen = _number(settings.get("request_timeout"), float)
    return chosen if chosen is not None else float(default_timeout(settings.get("provider", ""), settings.get("base_url", "")))


def _number(value, kind):
    """A setting left empty (None or "") means the endpoint's own default."""
    return None if value in (None, "") else kind(value)


def _output_limit(settings: dict) -> dict:
    limit = _number(settings.get("max_output_tokens"), int)
    return {"max_tokens": limit} if limit else {}


def instructions_for(settings: dict) -> str:
    """What the user's settings add to the agent's own instructions."""
    parts = [prompts.ANSWER_IN_USERS_LANGUAGE, *([OWN_TAB_INSTRUCTIONS] if settings.get("own_tab") else [])]
    if (settings.get("system_prompt") or "").strip():
        parts.append(prompts.user_instructions(settings["system_prompt"]))
    return "\n\n".join(parts)


def build_agent(request: dict, listener, *, tools=(), executor_factory=None, host=None, model=None,
                page=None, browser_model=None, device_model=None, mcp=None, consent=None):
    """The agent the user talks to, with its team of managed agents from the settings.

    settings["team"] lists managed agents: {"name", "description", "agent", "max_steps",
    "team"} (a team member may have its own team). All share the model and the tools.
    """
    settings = settings_from_wire(request.get("settings"))
    model = model or build_model(settings, request.get("api_key"), host, browser_model, device_model)
    memory = Memory.from_json(request["memory"]) if request.get("memory") else None
    top = {"name": "TabAgent", "description": "The agent the user talks to.", **settings}
    # Who says yes to what has effects: the consent service, asking the person at the side
    # panel in the acting actor's name (consent.py), or (the command line, with no page) the
    # one the surface hands in (the terminal's, for MCP calls).
    rules, _ = parse_site_rules(settings.get("site_rules", ""))
    service = Consent(page, rules) if page is not None else None
    consent = acting_for(service, request) if service is not None else consent
    context = context_keeper(model, settings, request.get("api_key"))
    if isinstance(model, OllamaModel):
        model.window = context.known_window  # num_ctx never beyond the window requests keep to
    vision = model_vision(model, settings, request.get("api_key"))

    def page_set(bridge, asking=consent):  # off: no tool reads or acts on the tab; someone at the panel to hand back to
        if bridge is None or not settings.get("page_tools", True):
            return []
        return [*page_tools(bridge, asking, part_tokens=context.part_tokens, attached=attached_tabs(request),
                            vision=vision), hand_back_tool(bridge, asking)]

    def served_to(asking):  # the user's MCP servers' tools, each call as its policy says, asked in this name
        return [*mcp.tools(asking, request["conversation_id"])] if asking is not None and mcp is not None else []
    served = served_to(consent)
    if mcp is not None and consent is not None:
        mcp.listen(service or consent)  # the servers' forms and sampling, each asked in the server's name
    instructions = instructions_for(settings)
    if served:  # what a server samples goes to the user's model, if they allow it; its instructions marked
        mcp.requests.model = model
        instructions = "\n\n".join(part for part in (instructions, mcp.instructions(served)) if part)
    # Each managed agent asks in its own name (its allowances are its own), in a tab of its own
    # when the turn works in one (own_tabs.py).
    tools_for = MembersTabs(page, page_set, consent, tools, served_to, own_tab=settings["own_tab"] and page is not None) \
        if isinstance(consent, AskTheUser) else None
    agent = _agent(top, model, [*tools, *page_set(page), *served], executor_factory, tools_for=tools_for,
                   conversation_id=request["conversation_id"], memory=memory, listeners=[listener],
                   instructions=instructions, context=context, vision=vision,
                   tool_set=settings.get("tool_set", SETTINGS["tool_set"]),
                   hold_replies=settings.get("hold_replies", SETTINGS["hold_replies"]))
    if isinstance(consent, AskTheUser):
        consent.consent.emit = agent.emit  # confirmations are the turn's events, in its sequence
    for bound in (t for t in tools if isinstance(t, PageBound) and service is not None):
        bound.consent = consent  # a saved workflow's replay asks in its own name (workflows.py)
    return agent


def acting_for(service: Consent, request: dict) -> AskTheUser:
    """Who acts in this turn: the model the user talks to, or a schedule (a scheduled run), to
    which the user gave its sites: actions on their pages, unasked, for the run."""
    schedule = request.get("schedule") if isinstance(request.get("schedule"), dict) else None
    if not schedule or not schedule.get("name"):
        return service.asking(Actor("model", "TabAgent"))
    asking = service.asking(Actor("schedule", str(schedule["name"]), key=request["conversation_id"]))
    sites = outside_never(service.site_rules, [str(site) for site in schedule.get("sites") or []])
    asking.give_sites(sites, ON_THE_PAGE, "schedule_sites")
    return asking


def hand_back_tool(page, consent) -> FunctionTool:
    handing = FunctionTool(HandBack(page, consent).ask_user)
    handing.built_in = True
    handing.acts = True  # each call asks the person: the same question again is theirs to answer
    return handing


def context_keeper(model, settings: dict, api_key: str | None) -> ContextKeeper:
    """Knows the model's window (asking the endpoint) and keeps each request within it."""
    setting = int(settings.get("context_window") or 0) or None
    if isinstance(model, OpenAIModel):
        base_url = model.url.removesuffix("/chat/completions").removesuffix("/api/chat")
        return ContextKeeper.for_endpoint(model.host, base_url, model.model, api_key or None,
                                          settings.get("provider", ""), setting)
    return ContextKeeper.fixed(setting or DEFAULT_WINDOW)


def model_vision(model, settings: dict, api_key: str | None) -> Vision:
    """Whether the model takes images: the setting, else the endpoint (vision.py), or Chrome for
    its built-in model (the Prompt API says whether it takes images)."""
    if isinstance(model, OpenAIModel):
        base_url = model.url.removesuffix("/chat/completions").removesuffix("/api/chat")
        return Vision.for_endpoint(model.host, base_url, model.model, api_key or None, settings.get("provider", ""),
                                  settings.get("model_sees_images", "auto"))
    setting = settings.get("model_sees_images", "auto")
    if isinstance(model, BrowserModel) and setting not in ("yes", "no"):
        async def ask_chrome():
            return await model.sees_images(), "Chrome"
        return Vision(ask_chrome)
    return Vision.fixed(setting == "yes")


def _agent(spec: dict, model, tools: list, executor_factory, **options):
    kind = spec.get("agent", SETTINGS["agent"])
    if kind not in AGENT_KINDS:
        raise ValueError(f"Unknown agent kind {kind!r}: choose one of {', '.join(AGENT_KINDS)}.")
    tools_for = options.pop("tools_for", None)  # a member's own tools (own_tabs.py), else the same
    shared = {key: options[key] for key in ("context", "vision", "tool_set", "hold_replies") if key in options}
    team = [_agent(member, model, tools_for(member) if tools_for else tools, executor_factory, tools_for=tools_for,
                   **shared) for member in spec.get("team") or []]
    for member in team if tools_for else ():
        tools_for.speaks_as(member)
    if kind == "code" and executor_factory is not None:
        # Keyed by the agent's name, so an agent's variables outlive its turn (in the extension
        # each name gets its own sandbox, for the conversation).
        options["executor"] = executor_factory(spec.get("name") or "agent")
    agent = AGENT_KINDS[kind](model, tools, name=spec.get("name") or "agent", description=spec.get("description", ""),
                              max_steps=steps_of(spec), managed_agents=team, **options)
    agent.page_marker = untrusted  # a note the model copies from a page stays marked (notes.py)
    return agent


class EarlyEvents:
    """The events of a turn before its agent exists (what its MCP servers ask while connecting:
    a sign-in), as the agent's own: its name, step 0, the sequence it then continues."""

    def __init__(self, request: dict, sink) -> None:
        self.conversation_id, self.sink = request["conversation_id"], sink
        try:
            self.seq = Memory.from_json(request["memory"]).seq if request.get("memory") else 0
        except (UnreadableMemory, ValueError, TypeError, KeyError):
            self.seq = 0  # the turn says why once it builds its agent

    async def emit(self, kind: str, data: dict) -> None:
        self.seq += 1
        self.sink(Event(kind, self.conversation_id, "TabAgent", 0, 0, self.seq, time.time(), data).to_dict())


class Turns:
    """The turns running in this interpreter, by conversation id."""

    def __init__(self) -> None:
        self._agents: dict[str, object] = {}
        self._tasks: dict[str, asyncio.Task] = {}  # each turn's task: a replay runs outside the agent's loop

    async def run(self, request: dict, emit, *, problems=(), **build) -> dict:
        """Runs one turn; returns {"status", "memory"} once the agent is done. `problems` are
        the user tools that did not load: told as the turn's first events, not fatal."""
        conversation = request["conversation_id"]
        if conversation in self._agents:
            raise RuntimeError("This conversation already has a turn running: stop it first.")
        if build.get("model") is None:
            request = await endpoint_recognised(request, build.get("host"))
        early = EarlyEvents(request, emit)  # a server's sign-in, asked while connecting
        mcp = await ServerConnections().open(servers_from_wire(request.get("mcp_servers")),
                                             request.get("mcp_headers") or {}, build.get("host"),
                                             asking=build.get("page") is not None,
                                             consent=Consent(build["page"], emit=early.emit) if build.get("page") else None)
        try:
            agent = build_agent(request, lambda event: emit(event.to_dict()), mcp=mcp, **build)
            agent.memory.seq = max(agent.memory.seq, early.seq)
        except UnreadableMemory as error:  # an imported file's, or a newer version's: said in words
            await mcp.close()
            return _refused(request, str(error), emit, kind="memory")
        except ValueError as error:  # a setting the user must fix: say so as the turn's events
            await mcp.close()
            return _refused(request, str(error), emit)
        self._agents[conversation], self._tasks[conversation] = agent, asyncio.current_task()
        for problem in problems:
            await agent.emit("error", {"kind": "user_tools", "message": describe_problem(problem)})
        for problem in [*mcp.problems, *await _crowded(agent)]:  # told; the turn goes on
            await agent.emit("error", {"kind": "mcp", "message": problem})
        # What the turn reads of pages, and what its memory read before: where a code came from.
        reading = reading_into(read_in_memory(agent.memory))
        try:
            task = selection_task(request["task"], request.get("context"))
            task = await task_with_attachments({**request, "task": task}, build.get("page"), agent.emit)
            if request.get("workflow"):  # a saved workflow, run without the model (workflow_turn.py)
                await _endpoint_known(agent, window=False)
                await run_workflow_turn(agent, task, request["workflow"], reset=not request.get("memory"))
            else:
                await _endpoint_known(agent, window=True)
                await agent.run(task, reset=not request.get("memory"))
        except Exception:
            pass  # the agent has already emitted the error and a `done` event
        finally:
            stop_reading(reading)
            self._agents.pop(conversation, None)
            self._tasks.pop(conversation, None)
            await mcp.close()
        keep_images_within(agent.memory.steps)  # the stored conversation keeps only the newest pictures
        return {"status": agent.status, "memory": agent.memory.to_json()}

    def stop(self, conversation_id: str) -> bool:
        agent = self._agents.get(conversation_id)
        if agent is None:
            return False
        if agent.status == "running":
            agent.cancel()
        else:  # a saved workflow replaying (workflow_turn.py), waiting for a question maybe
            self._tasks[conversation_id].cancel()
        return True


turns = Turns()


async def _endpoint_known(agent, window: bool) -> None:
    """Whether the model sees, before the first request (pictures in memory depend on it), and,
    for a turn that asks the model, its context window (the first request needs it): asked of
    the endpoint at once, not one after the other. Each is asked once per interpreter (vision.py,
    context_keeper.py), so this costs the first turn of a cold start only; neither raises."""
    asked = [agent.vision.known()] if agent.vision is not None else []
    if window and agent.context is not None:
        asked.append(agent.context.known_window())
    await asyncio.gather(*asked)


async def _crowded(agent) -> list[str]:
    """The notice that MCP tool definitions crowd the context window, if they do."""
    if agent.context is None or not any(isinstance(t, AskedMCPTool) for t in agent.tools.values()):
        return []
    try:
        window = await agent.context.known_window()
    except Exception:  # the window is asked again at the first request, which says why
        return []
    notice = crowding_notice(list(agent.tools.values()), window.tokens)
    return [notice] if notice else []


def _refused(request: dict, message: str, emit, kind: str = "settings") -> dict:
    seq = _last_seq(request.get("memory"))
    for event_kind, data in (("error", {"message": message, "kind": kind}),
                             ("done", {"status": "error", "steps": 0, "usage": {}, "error": message})):
        seq += 1
        emit(Event(event_kind, request["conversation_id"], "TabAgent", 0, 0, seq, time.time(), data).to_dict())
    return {"status": "error", "memory": request.get("memory")}


def _last_seq(memory: str | None) -> int:
    """Where the conversation's event numbers stand, read even from a memory that cannot be
    restored (its steps are not needed to say why the turn did not run)."""
    try:
        seq = json.loads(memory).get("seq", 0) if memory else 0
    except (ValueError, AttributeError):
        return 0
    return seq if isinstance(seq, int) else 0
