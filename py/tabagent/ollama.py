"""Ollama through its native chat API, so that each request asks for the context it needs.

Ollama's OpenAI-compatible route cannot set the context size, and Ollama silently cuts a
prompt longer than its default (4,096 tokens below 24 GiB of VRAM): the model forgets the
task. Its native `/api/chat` takes `options.num_ctx`, so `OllamaModel` sends the same
conversation there with a `num_ctx` that holds the request and a reply, in powers of two.
Ollama reloads the model whenever num_ctx changes, so it is chosen at a turn's first request
and only grows when a request needs more (never back down, and the next turn starts where
this one ended), up to the window context_keeper.py keeps requests within (the model's own, from
/api/show, capped by the Context window setting). An endpoint given as any OpenAI-compatible
base URL (the command line's --base-url, the custom provider) is recognised as Ollama when
its `/api/version` answers as Ollama's does (`recognise`).
The reply streams as lines of JSON; each is turned into the OpenAI chunk the rest expects.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from .context_window import ContextWindow, _get_json, _root
from .host import Host
from .errors import (BadResponseError, ContextTooLongError, UnreachableError, error_in_body,
                     is_context_error)
from . import repeated_reply
from .models import OpenAIModel
from .replies import ModelReply, ReplyBuilder, new_call_id
from .images import image_url, is_image
from .tokens import count_messages

SMALLEST_NUM_CTX = 4096
# num_ctx chosen, by (chat URL, model): a turn starts where the last one ended.
_chosen: dict[tuple[str, str], int] = {}
# Whether a base URL is Ollama's, as /api/version said: asked once per interpreter.
_recognised: dict[str, bool] = {}


def num_ctx_for(messages: list[dict], tools: list[dict] | None) -> int:
    """A context that holds the request and a reply of a quarter as much (at least 1,024)."""
    need = count_messages(messages, tools)
    need += max(1024, need // 4)
    size = SMALLEST_NUM_CTX
    while size < need:
        size *= 2
    return size


async def recognise(host: Host, base_url: str, api_key: str | None = None) -> bool:
    """Whether the OpenAI-compatible `base_url` (…/v1) is Ollama's: its /api/version answers
    {"version": ...}. Never raises: an endpoint that does not answer so is not Ollama."""
    if not base_url.rstrip("/").removesuffix("/chat/completions").endswith("/v1"):
        return False
    if base_url not in _recognised:
        try:
            data = await _get_json(host, "GET", _root(base_url) + "/api/version", api_key)
            _recognised[base_url] = isinstance(data, dict) and isinstance(data.get("version"), str)
        except Exception:  # unreachable, not JSON: not Ollama (the turn's request says why)
            _recognised[base_url] = False
    return _recognised[base_url]


class OllamaModel(OpenAIModel):
    def __init__(self, base_url: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(base_url, *args, **kwargs)
        root = base_url.rstrip("/").removesuffix("/chat/completions").removesuffix("/v1")
        self.url = root + "/api/chat"
        self.window: Callable[[], Awaitable[ContextWindow]] | None = None  # context_keeper.py's: num_ctx stays within it
        self._cap: int | None = None

    async def generate(self, messages: list[dict], tools: list[dict] | None = None,  # type: ignore[override]
                       **callbacks: Any) -> ModelReply:
        if self.window is not None:
            self._cap = (await self.window()).tokens
        return await super().generate(messages, tools, **callbacks)

    def num_ctx(self, messages: list[dict], tools: list[dict] | None) -> int:
        """The turn's num_ctx: as before, unless this request needs more (within the window)."""
        key = (self.url, self.model)
        size = max(_chosen.get(key, 0), num_ctx_for(messages, tools))
        if self._cap:
            size = min(size, self._cap)
        _chosen[key] = size
        return size

    def _request_body(self, messages, tools) -> dict:
        options = {"num_ctx": self.num_ctx(messages, tools)}
        if self.temperature is not None:
            options["temperature"] = self.temperature
        body = {"model": self.model, "messages": [_native(m) for m in messages],
                "stream": self.stream, "options": options}
        if tools:
            body["tools"] = tools
        return {**body, **self.extra_body}

    def _varied(self, body: dict) -> dict:
        """The varied request's fields (repeated_reply.py) in `options`, as the native API takes them."""
        return {**body, "options": {**body.get("options", {}), **repeated_reply.varied_fields(self.temperature)}}

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
