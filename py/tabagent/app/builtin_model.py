"""Chrome's built-in model (the Prompt API, `LanguageModel`), reached through the host.

It runs on the user's device and needs no key, but it answers in text only: no native
tool calls. Where Chrome's model takes images (`seesImages()`), pictures go to it as the Prompt
API's image parts; the offscreen document turns their data URLs into Blobs. A CodeAgent works with it as with any model (its actions are code); a
ToolCallingAgent relies on the JSON-in-text recovery.

The host hands in a `bridge` with:
- `stream(request_id, initial_prompts_json, prompt, with_images)`: an async iterable of text
  pieces; with_images: prompt is the JSON of the Prompt API's content parts, not text,
- `seesImages()`: whether this Chrome's model takes images,
- `abort(request_id)`: stop that request.
"""

from __future__ import annotations

import asyncio
import json
import uuid

from ..errors import ModelError
from ..images import image_url, is_image
from ..models import Model, ModelReply, notify


class BrowserModelError(ModelError):
    kind = "unavailable"


def prompt_messages(messages: list[dict]) -> tuple[list[dict], str | list[dict]]:
    """OpenAI-style messages as the Prompt API takes them: the history, then the last prompt.

    The Prompt API knows only system, user and assistant: tool results become user turns. A
    message with pictures becomes the Prompt API's parts ({"type": "text" | "image", "value"}).
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


def as_text(content):
    """A message's content as the Prompt API takes it: text, or its parts where it has pictures."""
    if not isinstance(content, list):
        return content or ""
    parts = [p for p in content if isinstance(p, dict)]
    if not any(map(is_image, parts)):
        return "\n".join(p.get("text", "") for p in parts if p.get("type") == "text")
    return [{"type": "image", "value": image_url(p)} if is_image(p) else {"type": "text", "value": p.get("text", "")}
            for p in parts if is_image(p) or p.get("type") == "text"]


def as_sent(initial: list[dict], prompt) -> tuple:
    """stream()'s arguments after the request id; with_images only when there are pictures."""
    if not isinstance(prompt, list) and not any(isinstance(m["content"], list) for m in initial):
        return json.dumps(initial), prompt
    parts = prompt if isinstance(prompt, list) else [{"type": "text", "value": prompt}]
    return json.dumps(initial), json.dumps(parts), True


class BrowserModel(Model):
    def __init__(self, bridge):
        self.bridge = bridge

    async def sees_images(self) -> bool:
        try:
            return bool(await self.bridge.seesImages())
        except Exception:  # an older bridge, or a Chrome that cannot say: it is not sent pictures
            return False

    takes_tools = False  # the Prompt API has no tools: the prompt teaches text calls

    async def generate(self, messages, tools=None, on_token=None, on_retry=None,
                       on_reasoning=None) -> ModelReply:
        initial, prompt = prompt_messages(messages)
        request_id = uuid.uuid4().hex
        pieces = []
        try:
            stream = await self.bridge.stream(request_id, *as_sent(initial, prompt))
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
