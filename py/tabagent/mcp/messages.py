"""JSON-RPC 2.0 as MCP uses it: requests with ids, notifications without, and the bodies
servers send back, one message or a batch."""

from __future__ import annotations

import json

from .errors import MCPError


def request(id_: int, method: str, params: dict | None = None) -> dict:
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: dict | None = None) -> dict:
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def response(id_, result: dict | None = None, error: dict | None = None) -> dict:
    if error is not None:
        return {"jsonrpc": "2.0", "id": id_, "error": error}
    return {"jsonrpc": "2.0", "id": id_, "result": result or {}}


def is_response(message: dict) -> bool:
    return "id" in message and "method" not in message and ("result" in message or "error" in message)


def parse(text: str | bytes, url: str) -> list[dict]:
    """The messages in one body or one event: a message or a batch of them."""
    try:
        data = json.loads(text)
    except ValueError:
        raise MCPError(f"the MCP server at {url} sent something that is not JSON: "
                       f"{str(text)[:120]!r}.") from None
    messages = data if isinstance(data, list) else [data]
    if not all(isinstance(m, dict) for m in messages):
        raise MCPError(f"the MCP server at {url} sent a message that is not a JSON-RPC object.")
    return messages


def result_of(message: dict, method: str, url: str) -> dict:
    """A response's result, or its error raised in words."""
    error = message.get("error")
    if error is not None:
        text = error.get("message") if isinstance(error, dict) else str(error)
        code = error.get("code") if isinstance(error, dict) else None
        raise MCPError(f"the MCP server at {url} answered {method} with an error: {text}", code=code)
    result = message.get("result")
    if not isinstance(result, dict):
        raise MCPError(f"the MCP server at {url} answered {method} without a result object.")
    return result


def json_bytes(message: dict) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
