"""A tool's arguments mirrored into HTTP headers (MCP 2026-07-28, `x-mcp-header`): a property
of a tool's input schema may name a header, `Mcp-Param-<Name>`, that carries the argument's
value on the request, for the server's gateways to route by.

The name must be a header name's characters (no space, colon or anything outside printable
ASCII), non-empty, used once in the tool (case aside), on a string, integer or boolean
property; a tool whose definition breaks one of these is left out (the specification: clients
reject it), the server's other tools kept. A value goes as the specification writes it
(streamable_http.header_value: plain ASCII as it is, anything else in base64); an argument
absent or null sends no header.
"""

from __future__ import annotations

import json
import re

from .streamable_http import header_value

HEADER = "x-mcp-header"
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
MIRRORED_TYPES = ("string", "integer", "boolean")


def mirrored(definition: dict) -> dict | None:
    """{argument: header name} for a tool, or None when its `x-mcp-header`s are malformed."""
    schema = definition.get("inputSchema") if isinstance(definition.get("inputSchema"), dict) else {}
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    found, seen = {}, set()
    for argument, spec in properties.items():
        if not isinstance(spec, dict) or HEADER not in spec:
            continue
        name = spec[HEADER]
        if not isinstance(name, str) or not _TOKEN.fullmatch(name) or name.lower() in seen \
                or spec.get("type") not in MIRRORED_TYPES:
            return None
        seen.add(name.lower())
        found[str(argument)] = name
    return found


def checked_tools(tools: list[dict]) -> tuple[list[dict], dict]:
    """The tools to keep, and each kept tool's mirrored arguments."""
    kept, headers = [], {}
    for tool in tools:
        names = mirrored(tool)
        if names is None:
            continue
        kept.append(tool)
        if names and isinstance(tool.get("name"), str):
            headers[tool["name"]] = names
    return kept, headers


def param_headers(tool_headers: dict, message: dict) -> dict:
    """The `Mcp-Param-*` headers of a tools/call request."""
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    if message.get("method") != "tools/call" or params.get("name") not in tool_headers:
        return {}
    arguments = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
    headers = {}
    for argument, name in tool_headers[params["name"]].items():
        value = arguments.get(argument)
        if value is None:
            continue
        text = json.dumps(value) if isinstance(value, bool) else str(value)
        headers[f"mcp-param-{name.lower()}"] = header_value(text)
    return headers
