"""What a model sends back, assembled into a `ModelReply`: from streamed chunks
(`ReplyBuilder`) or from one JSON document (`reply_from_json`).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from .errors import BadResponseError


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str  # JSON text exactly as the model wrote it: the agent parses it

    def to_openai(self) -> dict:
        return {"id": self.id, "type": "function",
                "function": {"name": self.name, "arguments": self.arguments}}


@dataclass
class ModelReply:
    content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: dict | None = None  # {"prompt_tokens", "completion_tokens", "total_tokens"}
    raw: Any = None
    finish_reason: str | None = None
    # What crossed the wire, one entry per attempt (retries included), for the trace:
    # {"url", "request" (the exact JSON text sent), "status", "response" (the text received),
    #  "started", "ended"}. Headers are left out: they carry the API key.
    exchanges: list[dict] = field(default_factory=list)


class ReplyBuilder:
    """Assembles streamed chunks into one reply.

    Tool calls arrive in fragments keyed by `index` (the first carries id and name,
    later ones more of the arguments), and several calls may be interleaved.
    """

    def __init__(self) -> None:
        self.text: list[str] = []
        self.calls: dict[Any, dict] = {}  # index (or id) -> {"id", "name", "arguments": [...]}
        self.usage: dict | None = None
        self.finish_reason: str | None = None

    def add(self, payload: dict) -> str:
        """Take one chunk; return its new text, if any."""
        usage = _usage(payload)
        if usage:
            self.usage = usage
        new_text = ""
        for choice in payload.get("choices") or []:
            if choice.get("index", 0) != 0:
                continue
            self.finish_reason = choice.get("finish_reason") or self.finish_reason
            delta = choice.get("delta") or choice.get("message") or {}
            if content := _text(delta.get("content")):
                self.text.append(content)
                new_text += content
            for piece in delta.get("tool_calls") or []:
                self._add_call_piece(piece)
        return new_text

    def _add_call_piece(self, piece: dict) -> None:
        key = piece.get("index")
        if key is None:  # some servers omit the index: match by id, else continue the last call
            key = piece.get("id") or (list(self.calls)[-1] if self.calls else 0)
        call = self.calls.setdefault(key, {"id": "", "name": "", "arguments": []})
        function = piece.get("function") or {}
        call["id"] = call["id"] or piece.get("id") or ""
        name = function.get("name") or ""
        if name and name != call["name"]:  # sent once by most servers, repeated by a few
            call["name"] += name
        if (arguments := function.get("arguments")) is not None:
            call["arguments"].append(_as_json_text(arguments))

    def reply(self) -> ModelReply:
        calls = [ToolCall(c["id"] or new_call_id(), c["name"], "".join(c["arguments"]))
                 for c in self.calls.values()]
        content = "".join(self.text)
        raw = {"choices": [{"index": 0, "finish_reason": self.finish_reason, "message": {
            "role": "assistant", "content": content, "tool_calls": [c.to_openai() for c in calls]}}],
            "usage": self.usage}
        return ModelReply(content, calls, self.usage, raw, self.finish_reason)


def reply_from_json(body: bytes, url: str) -> ModelReply:
    """A whole reply sent as one JSON document (a server that does not stream)."""
    try:
        data = json.loads(body)
        choice = data["choices"][0]
        message = choice["message"]
        calls = [ToolCall(c.get("id") or new_call_id(), c["function"]["name"],
                          _as_json_text(c["function"].get("arguments")))
                 for c in message.get("tool_calls") or []]
        return ModelReply(_text(message.get("content")), calls, _usage(data), data,
                          choice.get("finish_reason"))
    except (ValueError, KeyError, IndexError, TypeError):
        raise BadResponseError(f"unexpected response from {url}: {body[:200]!r}; is it "
                               f"an OpenAI-compatible chat completions endpoint?") from None


def new_call_id() -> str:
    return "call_" + uuid.uuid4().hex[:12]


def _as_json_text(arguments) -> str:
    # A few servers (Ollama's native shape) send arguments as an object, not a string.
    if arguments is None:
        return ""
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def _text(content) -> str:
    if isinstance(content, list):  # content parts: [{"type": "text", "text": ...}]
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def _usage(payload: dict) -> dict | None:
    usage = payload.get("usage") or (payload.get("x_groq") or {}).get("usage")
    if not isinstance(usage, dict):
        return None
    keys = ("prompt_tokens", "completion_tokens", "total_tokens")
    return {k: usage[k] for k in keys if isinstance(usage.get(k), int)} or None
