"""Holding a reply to a tool call, where the endpoint can (issue 48).

With the `hold_replies` setting at "every_reply", each reply of the ToolCallingAgent is held to a
call of the listed tools from the first, as smolagents holds its own. Otherwise, when a model's
tool calls fail to be read twice in a turn (a call cut off, arguments that are not JSON, a name no
tool has), its next reply is held to a tool call of the listed tools by the
server's own constrained decoding. When the ToolCallingAgent's model makes a call again after it
was told it repeated that call (call_log.py: `pressed`), its next reply is held to a call of the
listed tools but that one (final_answer is always among them). A held call holds only the
arguments its tool takes (and the size knobs its description names). Each server says in its own way
that it can:

| server            | how it says so                               | what the request then carries              |
|-------------------|----------------------------------------------|--------------------------------------------|
| llama.cpp (C++)   | GET /props answers                           | tools: tool_choice "required"; none: response_format json_schema |
| llama-cpp-python  | /openapi.json lists `grammar` for a request  | response_format {"type": "json_object", "schema": ...} |
| vLLM              | /openapi.json lists `structured_outputs` or `guided_json` | as llama.cpp (C++)            |
| Ollama            | /api/version answers (ollama.recognise)      | native API: `format` (the schema); /v1: response_format json_schema |
| LM Studio         | GET /api/v0/models answers                   | response_format json_schema                |

llama.cpp's C++ server refuses a `grammar` next to `tools` ("Cannot use custom grammar constraints
with tools."); with tools, tool_choice "required" makes it hold the reply to one of them in the
model's own call format, so that request's `tools` are those the schema names. TabAgent's own
reader stays the judge: what comes back is read like any reply, and a call it cannot run is told
to the model as ever.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from .context_window import _get_json, _root
from .providers import HOSTED_PROVIDERS, LLAMACPP, LMSTUDIO, OLLAMA

from .tools import without_titles

if TYPE_CHECKING:
    from .host import Host
    from .tools import Tool

TOOL_CHOICE, JSON_OBJECT, JSON_SCHEMA, OLLAMA_FORMAT = "tool_choice", "json_object", "json_schema", "format"
MISREADS = 2  # replies whose calls could not be read, in a turn, before the next is held
# When the ToolCallingAgent's replies are held (the `hold_replies` setting): every reply, from the
# first, as smolagents holds its own with tool_choice "required"; after MISREADS replies that
# could not be read (and a call repeated once told); or never.
EVERY_REPLY, AFTER_MISREADS, NEVER = "every_reply", "after_misreads", "never"
HOLDS = (EVERY_REPLY, AFTER_MISREADS, NEVER)
# Where it was asked, by the chat URL: the way the endpoint takes a constraint, or None.
_known: dict[str, str | None] = {}


def tool_call_schema(tools: list[Tool]) -> dict:
    """A JSON schema for one call of one of `tools`: {"name": ..., "arguments": {...}}, the
    shape text_calls.py reads as a whole reply."""
    options = []
    for tool in tools:
        shown = tool.shown()
        # Only the names the tool takes (unless its schema says it takes any): held, the 0.5B could
        # still write find_in_page's "required" key in as an argument (bench rows 0964a2e).
        # The size knobs its description names (`unlisted`) stay allowed.
        whole = tool.parameters["properties"]
        knobs = {name: without_titles(whole[name]) for name in tool.unlisted if name in whole}
        arguments = {"additionalProperties": False, **shown["parameters"]}
        if knobs:
            arguments["properties"] = {**arguments["properties"], **knobs}
        options.append({"type": "object", "required": ["name", "arguments"], "additionalProperties": False,
                        "properties": {"name": {"const": shown["name"]}, "arguments": arguments}})
    return options[0] if len(options) == 1 else {"anyOf": options}


def names_in(schema: dict) -> set[str]:
    """The tool names a tool_call_schema() holds a reply to."""
    return {option["properties"]["name"]["const"] for option in schema.get("anyOf", [schema])}


def request_fields(way: str, schema: dict, tools: list[dict] | None) -> dict:
    """What a request carries to hold its reply to `schema`, the endpoint's way; `tools`: the
    request's tools (OpenAI-style), of which a reply held by tool_choice may call only those the
    schema names."""
    if way == TOOL_CHOICE and tools:
        names = names_in(schema)
        return {"tool_choice": "required", "tools": [t for t in tools if (t.get("function") or {}).get("name") in names]}
    if way == JSON_OBJECT:
        return {"response_format": {"type": "json_object", "schema": schema}}
    if way == OLLAMA_FORMAT:
        return {"format": schema}
    return {"response_format": {"type": "json_schema", "json_schema": {"name": "tool_call", "schema": schema}}}


async def way_of(host: Host, chat_url: str, api_key: str | None, provider: str = "") -> str | None:
    """How the endpoint takes a constraint on its reply, asked once per chat URL; None when it
    says nothing of one (or cannot be reached): then no reply is held."""
    if chat_url not in _known:
        _known[chat_url] = None
        for probe in _probes(provider):
            with contextlib.suppress(Exception):  # a probe that fails is a server that is not that one
                if way := await probe(host, chat_url, api_key):
                    _known[chat_url] = way
                    break
    return _known[chat_url]


def known_way(chat_url: str) -> str | None:
    return _known.get(chat_url)


def forget(chat_url: str) -> None:
    """The endpoint refused a held request: from now on its replies are not held."""
    _known[chat_url] = None


def _probes(provider: str):
    if provider in HOSTED_PROVIDERS:
        return ()  # their own model lists and docs say nothing of these: nothing is asked of them
    if provider == OLLAMA:
        return (_ollama,)
    if provider == LMSTUDIO:
        return (_lmstudio,)
    if provider == LLAMACPP:
        return (_llama_props, _openapi)
    return (_llama_props, _openapi, _ollama, _lmstudio)


def _server(chat_url: str) -> str:
    return _root(chat_url.removesuffix("/api/chat"))


async def _llama_props(host, chat_url, api_key):
    data = await _get_json(host, "GET", _server(chat_url) + "/props", api_key)
    return TOOL_CHOICE if isinstance(data, dict) and "default_generation_settings" in data else None


async def _openapi(host, chat_url, api_key):
    """llama-cpp-python and vLLM are FastAPI apps: their /openapi.json says what a request takes."""
    data = await _get_json(host, "GET", _server(chat_url) + "/openapi.json", api_key)
    schemas = ((data or {}).get("components") or {}).get("schemas") or {}
    fields = {name for schema in schemas.values() if isinstance(schema, dict) and "messages" in (schema.get("properties") or {})
              for name in schema["properties"]}
    if {"structured_outputs", "guided_json"} & fields:
        return TOOL_CHOICE  # vLLM
    if "grammar" in fields and "response_format" in fields:
        return JSON_OBJECT  # llama-cpp-python: a json_object with its schema
    return None


async def _ollama(host, chat_url, api_key):
    data = await _get_json(host, "GET", _server(chat_url) + "/api/version", api_key)
    if not (isinstance(data, dict) and isinstance(data.get("version"), str)):
        return None
    return OLLAMA_FORMAT if chat_url.endswith("/api/chat") else JSON_SCHEMA


async def _lmstudio(host, chat_url, api_key):
    data = await _get_json(host, "GET", _server(chat_url) + "/api/v0/models", api_key)
    return JSON_SCHEMA if isinstance(data, dict) and isinstance(data.get("data"), list) else None
