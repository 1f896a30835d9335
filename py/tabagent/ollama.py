"""Ollama through its native chat API, so that each request asks for the context it needs.

Ollama's OpenAI-compatible route cannot set the context size, and Ollama silently cuts a
prompt longer than its default (2,048 to 4,096 tokens): the model forgets the task. Its
native `/api/chat` takes `options.num_ctx`, so `OllamaModel` sends the same conversation
there with a `num_ctx` that holds the request and a reply, in steps of powers of two (Ollama
reloads the model when it changes, so it should change seldom). Ollama itself caps num_ctx
at what the model supports; context.py keeps the request within that (from /api/show).
The reply streams as lines of JSON; each is turned into the OpenAI chunk the rest expects.
"""

from __future__ import annotations

import contextlib
import json

from .errors import (BadResponseError, ContextTooLongError, UnreachableError, error_in_body,
                     is_context_error)
from .models import OpenAIModel
from .replies import ReplyBuilder, new_call_id
from .images import image_url, is_image
from .tokens import count_messages

SMALLEST_NUM_CTX = 4096


def num_ctx_for(messages: list[dict], tools) -> int:
    """A context that holds the request and a reply of a quarter as much (at least 1,024)."""
    need = count_messages(messages, tools)
    need += max(1024, need // 4)
    size = SMALLEST_NUM_CTX
    while size < need:
        size *= 2
    return size


class OllamaModel(OpenAIModel):
    def __init__(self, base_url: str, *args, **kwargs):
        super().__init__(base_url, *args, **kwargs)
        root = base_url.rstrip("/").removesuffix("/chat/completions").removesuffix("/v1")
        self.url = root + "/api/chat"

    def _request_body(self, messages, tools) -> dict:
        options = {"num_ctx": num_ctx_for(messages, tools)}
        if self.temperature is not None:
            options["temperature"] = self.temperature
        body = {"model": self.model, "messages": [_native(m) for m in messages],
                "stream": self.stream, "options": options}
        if tools:
            body["tools"] = tools
        return {**body, **self.extra_body}

    async def _read_body(self, response, streamed, received: list):
        # The request, retries and HTTP errors are OpenAIModel's; only the body differs:
        # Ollama's native API streams one JSON object a line, not server-sent events.
        return await self._read_lines(response, streamed, received)

    async def _read_lines(self, response, streamed, received: list):
        builder, pending = ReplyBuilder(), b""
        async with contextlib.aclosing(response.chunks()) as chunks:
            async for chunk in chunks:
                received.append(chunk)
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    if line.strip():
                        await self._stream(builder.add(self._as_chunk(line)), streamed)
        if pending.strip():
            await self._stream(builder.add(self._as_chunk(pending)), streamed)
        if builder.finish_reason is None:
            raise UnreachableError(f"the connection to {self.url} closed mid-response.", url=self.url)
        return await self._finish(builder, streamed)

    def _as_chunk(self, line: bytes) -> dict:
        """One line of Ollama's stream as an OpenAI chunk."""
        try:
            data = json.loads(line)
        except ValueError:
            raise BadResponseError(f"unreadable line from {self.url}: {line[:200]!r}; is it "
                                   f"Ollama?", url=self.url) from None
        if not isinstance(data, dict):
            raise BadResponseError(f"unexpected line from {self.url}: {line[:200]!r}", url=self.url)
        if data.get("error"):
            text = json.dumps({"error": data["error"]})
            if is_context_error(text):
                raise ContextTooLongError(f"{self.url}: the conversation is longer than the model's "
                                          f"context window. Ollama said: {data['error']}", url=self.url)
            error = data["error"]
            raise error_in_body(error if isinstance(error, dict) else {"message": str(error)},
                                self.url, self.model, mid_stream=True)
        message = data.get("message") or {}
        delta = {"content": message.get("content") or ""}
        if message.get("thinking"):  # a reasoning model's thoughts, when asked with "think"
            delta["reasoning"] = message["thinking"]
        calls = [{"index": i, "id": c.get("id") or new_call_id(),
                  "function": {"name": (c.get("function") or {}).get("name", ""),
                               "arguments": (c.get("function") or {}).get("arguments", {})}}
                 for i, c in enumerate(message.get("tool_calls") or [])]
        if calls:
            delta["tool_calls"] = calls
        finish = None
        if data.get("done"):
            finish = "tool_calls" if calls else (data.get("done_reason") or "stop")
        chunk = {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        if data.get("done") and isinstance(data.get("prompt_eval_count"), int):
            prompt, completion = data["prompt_eval_count"], data.get("eval_count") or 0
            chunk["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                              "total_tokens": prompt + completion}
        return chunk


def _native(message: dict) -> dict:
    """An OpenAI chat message as Ollama's native API takes it."""
    native = {"role": message["role"], "content": _text(message.get("content"))}
    if pictures := _images(message.get("content")):
        native["images"] = pictures
    if message.get("tool_calls"):
        native["tool_calls"] = [{"function": {"name": c["function"]["name"],
                                              "arguments": _arguments(c["function"].get("arguments"))}}
                                for c in message["tool_calls"]]
    if message["role"] == "tool" and message.get("name"):
        native["tool_name"] = message["name"]
    return native


def _arguments(text):
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _images(content) -> list[str]:
    """The pictures of a message, as Ollama's `images` takes them: base64, without the data: prefix."""
    if not isinstance(content, list):
        return []
    return [image_url(p).partition(",")[2] for p in content if is_image(p) and image_url(p).startswith("data:")]


def _text(content) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""
