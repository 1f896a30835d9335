"""What tests, benchmarks and demos drive the agent with, kept out of the package's own names
(`from tabagent.testing import ScriptedModel`): nothing TabAgent runs for a user needs it.

`ScriptedModel` plays back replies in place of a model endpoint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Union

from .models import Model, OnRetry, OnToken, notify
from .replies import ModelReply, ToolCall, as_json_text, new_call_id


# A scripted reply: the content, a ModelReply, a dict of its fields, or an exception to raise.
Scripted = Union[str, ModelReply, dict, BaseException]


class ScriptedModel(Model):
    """A model that plays back replies: for tests, benchmarks and demos.

    Each reply is a string (the content), a `ModelReply`, a dict like
    {"content": ..., "tool_calls": [{"name": ..., "arguments": {...}}]}, or an
    exception to raise. `replies` may also be a function of the messages.
    The messages of each call are kept in `calls`.
    """

    def __init__(self, replies: Iterable[Scripted] | Callable[[list[dict]], Scripted],
                 constraint: str | None = None) -> None:
        self.replies = replies if callable(replies) else list(replies)
        self.calls: list[dict] = []
        self.constraint = constraint  # how it plays an endpoint that holds replies (reply_grammar.py)

    async def reply_constraint(self) -> str | None:
        return self.constraint

    async def generate(self, messages: list[dict], tools: list[dict] | None = None,
                       on_token: OnToken | None = None, on_retry: OnRetry | None = None,
                       on_reasoning: OnToken | None = None, reply_schema: dict | None = None) -> ModelReply:
        self.calls.append({"messages": messages, "tools": tools, **({"reply_schema": reply_schema} if reply_schema else {})})
        if callable(self.replies):
            reply = self.replies(messages)
        elif self.replies:
            reply = self.replies.pop(0)
        else:
            raise RuntimeError(f"ScriptedModel has no reply left for call {len(self.calls)}")
        if isinstance(reply, BaseException):
            raise reply
        reply = as_reply(reply)
        if reply.reasoning:
            await notify(on_reasoning, reply.reasoning)
        if reply.content:
            await notify(on_token, reply.content)
        return reply


def as_reply(reply: str | ModelReply | dict) -> ModelReply:
    if isinstance(reply, ModelReply):
        return reply
    if isinstance(reply, str):
        return ModelReply(content=reply)
    calls = [ToolCall(c.get("id") or new_call_id(), c["name"], as_json_text(c.get("arguments", {})))
             for c in reply.get("tool_calls", [])]
    return ModelReply(reply.get("content") or "", calls, reply.get("usage"),
                      reasoning=reply.get("reasoning") or "", reasoning_field=reply.get("reasoning_field"))
