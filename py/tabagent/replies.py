"""What a model sends back, assembled into a `ModelReply`: from streamed chunks
(`ReplyBuilder`) or from one JSON document (`reply_from_json`).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from .errors import BadResponseError
from .reasoning import ThinkSplitter, content_parts, reasoning_in, split_unopened


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
    #  "started", "ended", "usage" (this attempt's, as in `usage`; absent when it failed)}.
    # Headers are left out: they carry the API key.
    exchanges: list[dict] = field(default_factory=list)
    reasoning: str = ""  # what the model thought before answering: never part of `content`
    reasoning_field: str | None = None  # the field it came in ("reasoning_content", ...), if any
    refusal: str = ""  # the model's refusal, when it refused (also its `content`)


class ReplyBuilder:
    """Assembles streamed chunks into one reply, the reasoning kept apart from the text.

    Tool calls arrive in fragments keyed by `index` (the first carries id and name,
    later ones more of the arguments), and several calls may be interleaved. A piece
    that brings a new id under an index already used starts a new call (some servers
    send each complete call at index 0).
    """

    def __init__(self) -> None:
        self.text: list[str] = []
        self.reasoning: list[str] = []
        self.reasoning_field: str | None = None  # where the reasoning came: see reasoning.py
        self.refusal: list[str] = []
        self.think = ThinkSplitter()
        self.calls: dict[Any, dict] = {}  # key -> {"id", "name", "arguments": [...]}
        self.by_index: dict[Any, Any] = {}  # index -> key of the call it continues
        self.usage: dict | None = None
        self.finish_reason: str | None = None

    def add(self, payload: dict) -> tuple[str, str]:
        """Take one chunk; return the (reasoning, text) it adds."""
        usage = _usage(payload)
        if usage:
            self.usage = usage
        reasoning = text = ""
        for choice in payload.get("choices") or []:
            if choice.get("index", 0) != 0:
                continue
            self.finish_reason = choice.get("finish_reason") or self.finish_reason
            delta = choice.get("delta") or choice.get("message") or {}
            more_reasoning, more_text = self._add_delta(delta)
            reasoning, text = reasoning + more_reasoning, text + more_text
            for position, piece in enumerate(delta.get("tool_calls") or []):
                if "delta" not in choice and "index" not in piece:  # a whole message: calls in order
                    piece = {**piece, "index": position}
                self._add_call_piece(piece)
        return reasoning, text

    def _add_delta(self, delta: dict) -> tuple[str, str]:
        in_field, field_name = reasoning_in(delta)
        self.reasoning_field = self.reasoning_field or field_name
        in_parts, content = content_parts(delta.get("content"))
        inline, content = self.think.feed(content)
        # A refusal (OpenAI) is what the model says instead of an answer: shown as its reply.
        refusal = delta.get("refusal") if isinstance(delta.get("refusal"), str) else ""
        return self._keep(in_field + in_parts + inline, content + refusal, refusal)

    def finish(self) -> tuple[str, str]:
        """The end of the reply: the (reasoning, text) held back while it might be a tag."""
        return self._keep(*self.think.finish())

    def _keep(self, reasoning: str, text: str, refusal: str = "") -> tuple[str, str]:
        self.reasoning.append(reasoning)
        self.text.append(text)
        self.refusal.append(refusal)
        return reasoning, text

    def _add_call_piece(self, piece: dict) -> None:
        index, call_id = piece.get("index"), piece.get("id") or ""
        if index is None:  # some servers omit the index: match by id, else continue the last call
            key = call_id or (list(self.calls)[-1] if self.calls else 0)
        else:
            key = self.by_index.get(index, index)
            known = self.calls.get(key)
            if known and known["id"] and call_id and call_id != known["id"]:
                key = (index, call_id)
            self.by_index[index] = key
        call = self.calls.setdefault(key, {"id": "", "name": "", "arguments": []})
        function = piece.get("function") or {}
        call["id"] = call["id"] or call_id
        name = function.get("name") or ""
        if name and name != call["name"]:  # sent once by most servers, repeated by a few
            call["name"] += name
        if (arguments := function.get("arguments")) is not None:
            call["arguments"].append(as_json_text(arguments))

    def reply(self) -> ModelReply:
        calls = [ToolCall(c["id"] or new_call_id(), c["name"], "".join(c["arguments"]))
                 for c in self.calls.values()]
        content, reasoning = "".join(self.text), "".join(self.reasoning)
        if not reasoning and not self.think.saw_block:
            reasoning, content = split_unopened(content)
        reasoning = reasoning if reasoning.strip() else ""  # an empty block, thinking switched off
        message = {"role": "assistant", "content": content, "tool_calls": [c.to_openai() for c in calls]}
        if reasoning:
            message["reasoning"] = reasoning
        raw = {"choices": [{"index": 0, "finish_reason": self.finish_reason, "message": message}],
               "usage": self.usage}
        return ModelReply(content, calls, self.usage, raw, self.finish_reason, reasoning=reasoning,
                          reasoning_field=self.reasoning_field, refusal="".join(self.refusal))


def reply_from_json(body: bytes, url: str) -> ModelReply:
    """A whole reply sent as one JSON document (a server that does not stream)."""
    try:
        data = json.loads(body)
        choice = data["choices"][0]
        if not isinstance(choice["message"], dict):
            raise TypeError("no message")
        builder = ReplyBuilder()
        builder.add({"choices": [choice], "usage": data.get("usage")})
        builder.finish()
        calls = [c for c in builder.calls.values() if not c["name"]]
        if calls:
            raise KeyError("a tool call without a name")
    except (ValueError, KeyError, IndexError, TypeError):
        raise BadResponseError(f"unexpected response from {url}: {body[:200]!r}; is it "
                               f"an OpenAI-compatible chat completions endpoint?") from None
    reply = builder.reply()
    reply.raw = data
    return reply


def new_call_id() -> str:
    return "call_" + uuid.uuid4().hex[:12]


def as_json_text(arguments: str | dict | list | None) -> str:
    # A few servers (Ollama's native shape) send arguments as an object, not a string.
    if arguments is None:
        return ""
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def _usage(payload: dict) -> dict | None:
    usage = payload.get("usage") or (payload.get("x_groq") or {}).get("usage")
    if not isinstance(usage, dict):
        return None
    keys = ("prompt_tokens", "completion_tokens", "total_tokens")
    return {k: usage[k] for k in keys if isinstance(usage.get(k), int)} or None
