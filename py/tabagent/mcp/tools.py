"""A server's tools as the agent's tools: named `server__tool` (model tool names allow
letters, digits, '_' and '-' only), described and typed as the server declares them, and
answering with the server's content as text.

What a server returns is untrusted like a web page: `mark(source, text)` wraps every
result and every error a call raises, whatever part of it the server wrote (a JSON-RPC
error's message, an HTTP error page; the extension passes the one marking function,
tabagent.app.untrusted_content.untrusted). Results are cut at `max_chars` with a note.

What the model is told of a tool (its description, its schema) has every character that
draws nothing written out (tabagent.unseen), so that it reads what the user is shown.

A tool acts (`Tool.acts`: ordered among the calls of a reply, never told as a repeat) unless
its server says it is read-only (`readOnlyHint: true`); unannotated, it may change the world,
as the spec reads it. The hint is the server's word: it may spare the model a second run of
the same call, never a question to the user (app/mcp_servers.py, docs/security.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Collection
from typing import Any, TypeVar

from ..tools import Tool, check_value
from ..unseen import bounded, shown, shown_within
from .client import MCPClient
from .errors import MCPError, ToolCallError

# mark(source, text): `text` as the model is to read words from `source` (the app marks them untrusted).
Mark = Callable[[str, str], str]
T = TypeVar("T")

MAX_RESULT_CHARS = 20_000
MAX_DESCRIPTION_CHARS = 2_000
_NOT_IN_A_NAME = re.compile(r"[^A-Za-z0-9_-]+")


def tool_name(server: str, tool: str) -> str:
    name = f"{_NOT_IN_A_NAME.sub('_', server)}__{_NOT_IN_A_NAME.sub('_', tool)}"
    return name[:64]


def _plain(source: str, text: str) -> str:
    return text


def read_only(definition: dict) -> bool:
    """Whether the server says the tool changes nothing: `readOnlyHint` true, nothing else
    (absent, or not a boolean, the spec's default holds: it may change its environment).
    `destructiveHint` and `idempotentHint` speak only of a tool that is not read-only, so
    neither makes one act less: an idempotent act is still an act."""
    hints = definition.get("annotations")
    return isinstance(hints, dict) and hints.get("readOnlyHint") is True


class MCPTool(Tool):
    def __init__(self, client: MCPClient, definition: dict, mark: Mark = _plain,
                 max_chars: int = MAX_RESULT_CHARS) -> None:
        self.client, self.definition, self.mark, self.max_chars = client, definition, mark, max_chars
        self.remote_name = str(definition.get("name", ""))
        self.name = tool_name(client.name, self.remote_name)
        self.description = describe(client.name, definition)
        self.acts = not read_only(definition)
        schema = definition.get("inputSchema")
        self.inputs = shown_within(schema) if isinstance(schema, dict) and isinstance(schema.get("properties"), dict) \
            else {"type": "object", "properties": {}}

    @property
    def source(self) -> str:
        return f"MCP server {self.client.name}, tool {bounded(self.remote_name, 80)}"

    async def forward(self, **arguments: Any) -> str:
        return self.answer(await self.server_result(arguments))

    async def server_result(self, arguments: dict) -> dict:
        """The server's tools/call result, as it sent it (an MCP App shows it whole)."""
        # Progress is asked for on every call: a long call shows life where it is drawn.
        return await self.asking_server(self.client.call_tool(self.remote_name, arguments, on_progress=self.progress))

    def answer(self, result: dict) -> str:
        """A result as the model reads it: its text, inside the marking; an error raised."""
        text = cut(result_text(result), self.max_chars)
        if result.get("isError"):
            raise ToolCallError(self.mark(self.source, text or "(the tool reported an error and said nothing)"))
        problem = structure_problem(result, self.definition.get("outputSchema"))
        if problem:
            raise ToolCallError(self.mark(self.source, f"{problem}\n\n{text}"))
        return self.mark(self.source, text)

    async def progress(self, progress: Any, total: Any, message: Any) -> None:
        """What the server reports of a call under way; drawn by the app's tools (mcp_servers)."""

    async def asking_server(self, request: Awaitable[T], source: str | None = None) -> T:
        """What the server answers `request` (a coroutine of the client's); its failure raised
        again with all its words inside the marking: a server writes its errors too."""
        try:
            return await request
        except MCPError as error:
            raise type(error)(self.mark(source or self.source, str(error)), code=error.code) from None


def structure_problem(result: dict, schema: Any) -> str | None:
    """Why a result's `structuredContent` does not match the tool's `outputSchema` (the
    spec asks clients to check it), in words; None when it does, or there is no schema."""
    if not isinstance(schema, dict) or result.get("isError"):
        return None
    if "structuredContent" not in result:
        return "The tool declares an output schema but sent no structured result."
    mismatch = check_value(result["structuredContent"], schema, "the structured result")
    return f"The tool's structured result does not match its output schema: {mismatch}." if mismatch else None


def describe(server: str, definition: dict) -> str:
    """The description the model sees and the user is shown: the same text."""
    text = shown(definition.get("description") or definition.get("title") or definition.get("name") or "")
    if len(text) > MAX_DESCRIPTION_CHARS:
        text = text[:MAX_DESCRIPTION_CHARS] + " [description cut]"
    return f"(from the MCP server '{server}') {text}".strip()


def result_text(result: dict) -> str:
    """A tools/call result as text: its content items in order; its structured content
    only when there is no text (the spec asks servers to send it as text as well)."""
    parts = [part for item in result.get("content") or [] if isinstance(item, dict)
             if (part := _content_text(item))]
    structured = result.get("structuredContent")
    has_text = any(isinstance(i, dict) and i.get("type") == "text" for i in result.get("content") or [])
    if structured is not None and not has_text:
        parts.append(json.dumps(structured, ensure_ascii=False))
    return "\n\n".join(parts)


def _content_text(item: dict) -> str:
    kind = item.get("type")
    if kind == "text":
        return str(item.get("text", ""))
    if kind in ("image", "audio"):
        size = len(str(item.get("data", ""))) * 3 // 4
        return f"[{kind}: {item.get('mimeType', 'unknown type')}, {size:,} bytes, not shown to the model]"
    if kind == "resource":
        resource = item.get("resource") or {}
        if "text" in resource:
            return f"[resource {resource.get('uri', '')}]\n{resource['text']}"
        return f"[binary resource {resource.get('uri', '')} ({resource.get('mimeType', 'unknown type')})]"
    if kind == "resource_link":
        return f"[resource link: {item.get('uri', '')}{' ' + item['name'] if item.get('name') else ''}]"
    return f"[content of type {kind!r}]"


def cut(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    return text[:max_chars] + f"\n[result cut: {len(text) - max_chars:,} more characters not shown]"


async def mcp_tools(client: MCPClient, mark: Mark = _plain, enabled: Collection[str] | None = None,
                    max_chars: int = MAX_RESULT_CHARS) -> list[MCPTool]:
    """The server's tools (all, or those whose server-side names `enabled` holds)."""
    definitions = await client.list_tools()
    return [MCPTool(client, d, mark, max_chars) for d in definitions
            if d.get("name") and (enabled is None or d["name"] in enabled)]
