"""Chrome's built-in model (the Prompt API, `LanguageModel`), reached through the host.

It runs on the user's device and needs no key, but it answers in text only: no native
tool calls. A CodeAgent works with it as with any model (its actions are code); a
ToolCallingAgent relies on the JSON-in-text recovery.

The host hands in a `bridge` with:
- `stream(request_id, initial_prompts_json, prompt)`: an async iterable of text pieces,
- `abort(request_id)`: stop that request.
"""

from __future__ import annotations

import asyncio
import json
import uuid

from ..errors import ModelError
from ..models import Model, ModelReply, notify


class BrowserModelError(ModelError):
    kind = "unavailable"


def prompt_messages(messages: list[dict]) -> tuple[list[dict], str]:
    """OpenAI-style messages as the Prompt API takes them: the history, then the last prompt.

    The Prompt API knows only system, user and assistant: tool results become user turns. It
    is sent no pictures (sight: it is taken not to see), so a message of parts is its text.
    """
    history = []
    for message in messages:
        role, content = message["role"], as_text(message.get("content"))
        if role == "tool":
            role, content = "user", f"Tool result:\n{content}"
        elif role == "assistant" and message.get("tool_calls"):
            calls = [{"name": c["function"]["name"], "arguments": c["function"]["arguments"]} for c in message["tool_calls"]]
            content = (content + "\n" if content else "") + json.dumps(calls)
        if role == "system" and history:
            role = "user"  # the Prompt API allows a system prompt only first
        history.append({"role": role, "content": content})
    if not history or history[-1]["role"] != "user":
        history.append({"role": "user", "content": "Continue."})
    return history[:-1], history[-1]["content"]


def as_text(content) -> str:
    """A message's content as text: the text of its parts, one after another."""
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return content or ""


class BrowserModel(Model):
    def __init__(self, bridge):
        self.bridge = bridge

    async def generate(self, messages, tools=None, on_token=None, on_retry=None,
                       on_reasoning=None) -> ModelReply:
        initial, prompt = prompt_messages(messages)
        request_id = uuid.uuid4().hex
        pieces = []
        try:
            stream = await self.bridge.stream(request_id, json.dumps(initial), prompt)
            async for piece in stream:
                pieces.append(str(piece))
                await notify(on_token, str(piece))
        except asyncio.CancelledError:
            self.bridge.abort(request_id)
            raise
        except ModelError:
            raise
        except Exception as error:  # a JavaScript error from the Prompt API
            raise BrowserModelError(f"Chrome's built-in model failed: {error}") from None
        return ModelReply("".join(pieces), finish_reason="stop")
