"""Keeping every request within the model's context window.

A `ContextKeeper` is shared by the agents of a turn (they share the model). Before each
request it counts the tokens (tokens.py) against the window (context_window.py) and, when
the request would not fit, compacts the agent's memory (compaction.py) and says so with a
`compaction` event. When a server still refuses a request as too long, `recover` compacts
once more against the window the server named (or a smaller guess), so the agent can try
once again: never the same request twice. The agent asks the model itself (agent.py); the
keeper knows of it only what `Requester` names.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from .compaction import Compaction, DoesNotFit, compact
from .context_window import DEFAULT_WINDOW, ContextWindow, discover, window_from_error
from .errors import ContextTooLongError
from .tokens import count_messages

if TYPE_CHECKING:
    from .host import Host
    from .memory import Memory

# The share of a request the instructions (system prompt and tools) may take before the tools
# are told in one line each.
BRIEF_ABOVE = 0.4
# Windows found, by (endpoint, model, setting): asked once per interpreter, not every turn.
_found: dict[tuple, ContextWindow] = {}


class Requester(Protocol):
    """What the keeper reads and changes of the agent whose requests it fits (agent.Agent)."""
    memory: Memory  # compacted when a request does not fit
    brief_prompt: bool  # its tools are told in one line each already

    def write_messages(self) -> list[dict]:
        """The request's messages, written from the memory."""

    def tool_schemas(self) -> list[dict] | None: ...

    def fit_tools_to(self, window_tokens: int) -> bool:
        """The compact tool set for a small window; True when the requests changed."""

    def tell_tools_briefly(self) -> bool:
        """Each tool told in one line from now on; True when they were not already."""

    async def emit(self, kind: str, data: dict) -> object: ...


class ContextKeeper:
    def __init__(self, find_window: Callable[[], Awaitable[ContextWindow]], key: tuple | None = None) -> None:
        self._find = find_window  # async () -> ContextWindow
        self._key = key
        self.window: ContextWindow | None = _found.get(key) if key else None

    @classmethod
    def fixed(cls, tokens: int, source: str = "the setting") -> ContextKeeper:
        window = ContextWindow(int(tokens), source)

        async def find():
            return window
        return cls(find)

    @classmethod
    def for_endpoint(cls, host: Host, base_url: str, model: str, api_key: str | None = None,
                     provider: str = "", setting: int | None = None) -> ContextKeeper:
        async def find():
            return await discover(host, base_url, model, api_key, provider, setting)
        return cls(find, (base_url, model, setting))

    async def known_window(self) -> ContextWindow:
        if self.window is None:
            self._remember(await self._find())
        return self.window

    def part_tokens(self, default: int) -> int:
        """How long one part of a page read should be for this window."""
        return self.window.part_tokens if self.window else default

    async def fit(self, agent: Requester, messages: list[dict]) -> list[dict]:
        """`messages` if they fit; else the agent's memory compacted, and its messages. A small
        window gives the agent the compact tool set, from then on."""
        window = await self.known_window()
        if agent.fit_tools_to(window.tokens):
            messages = agent.write_messages() + messages[len(agent.write_messages()):]
        messages, tools = _brief_if_crowded(agent, messages, agent.tool_schemas(), window)
        if count_messages(messages, tools) <= window.budget:
            return messages
        return await self._compact(agent, messages, tools, window, "before_request")

    async def recover(self, agent: Requester, messages: list[dict], tools: list[dict] | None,
                      error: ContextTooLongError) -> list[dict]:
        """After a server refused `messages` as too long: the messages compacted to fit a
        smaller window. Raises `error`, explained, when compacting changes nothing."""
        window = await self.known_window()
        named = window_from_error(f"{error} {_response_text(error)}")
        if named:
            smaller = ContextWindow(named, "the server's error")
        else:  # the server did not say: our estimate or the window was off; guess lower
            smaller = ContextWindow(_power_of_two_below(min(window.tokens, count_messages(messages, tools))),
                                    "a guess after the server refused")
        self._remember(smaller)
        try:
            compacted, tools = _brief_if_crowded(agent, messages, tools, smaller)
            compacted = await self._compact(agent, compacted, tools, smaller, "server_refused")
        except ContextTooLongError as refused:
            refused.message = f"{error.message} {refused.message}"
            raise refused from None
        if compacted == messages:
            error.message += " Compacting the conversation freed nothing more, so it was not sent again."
            raise error
        return compacted

    async def _compact(self, agent: Requester, messages, tools, window: ContextWindow, reason: str) -> list[dict]:
        written = agent.write_messages()
        tail = messages[len(written):]  # what the request adds after the memory (e.g. a last prompt)
        fixed = count_messages([written[0], *tail], tools)
        try:
            report = compact(agent.memory, fixed, window.budget)
        except DoesNotFit as why:
            raise ContextTooLongError(f"{why} (The context window is {window.tokens:,} tokens, "
                                      f"from {window.source}.)") from None
        if not report.dropped and not report.summarised:
            return messages
        await agent.emit("compaction", _event_data(report, window, reason))
        return agent.write_messages() + tail

    def _remember(self, window: ContextWindow) -> None:
        self.window = window
        if self._key:
            _found[self._key] = window


def _brief_if_crowded(agent: Requester, messages: list[dict], tools, window: ContextWindow) -> tuple[list[dict], list | None]:
    """When the instructions would crowd the conversation out, the same request (messages,
    tools) with each tool told in one line, and the compact set unless the setting wants all."""
    # Told briefly already: counting the instructions again, at every step, would change nothing.
    if agent.brief_prompt or count_messages(messages[:1], tools) <= window.budget * BRIEF_ABOVE:
        return messages, tools
    tail = messages[len(agent.write_messages()):]
    if not agent.tell_tools_briefly():
        return messages, tools
    return agent.write_messages() + tail, agent.tool_schemas()


def _event_data(report: Compaction, window: ContextWindow, reason: str) -> dict:
    what = []
    shortened = sum(1 for line in report.dropped if line.startswith(("shortened", "cut")))
    if shortened:
        what.append(f"shortened {shortened} page read{'s' * (shortened != 1)}")
    if len(report.dropped) > shortened:
        dropped = len(report.dropped) - shortened
        what.append(f"dropped {dropped} old result{'s' * (dropped != 1)}")
    if report.summarised:
        what.append(f"summarised {report.summarised} older step{'s' * (report.summarised != 1)}")
    why = ("The server refused the conversation as longer than its context window"
           if reason == "server_refused" else "The conversation outgrew the model's context window")
    message = (f"{why} ({window.tokens:,} tokens, from {window.source}): "
               f"{' and '.join(what) or 'nothing to drop'}, about {report.before:,} → {report.after:,} tokens.")
    if reason == "server_refused":
        message += " Trying once more."
    return {"reason": reason, "message": message, "window": window.tokens,
            "window_source": window.source, **report.to_data()}


def _power_of_two_below(tokens: int) -> int:
    size = 512
    while size * 2 < tokens:
        size *= 2
    return size


def _response_text(error) -> str:
    exchanges = getattr(error, "exchanges", None) or []
    return exchanges[-1].get("response", "") if exchanges else ""


__all__ = ["ContextKeeper", "DEFAULT_WINDOW"]
