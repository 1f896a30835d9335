"""Models: an OpenAI-compatible chat-completions client, and a scripted model for tests.

`OpenAIModel.generate` streams the reply over server-sent events, hands each piece
of text to `on_token` as it arrives, reassembles tool calls whose arguments come in
fragments, and retries what is worth retrying (429, 5xx, network errors, timeouts)
with exponential backoff and jitter, honouring `Retry-After`.
"""

from __future__ import annotations

import contextlib
import email.utils
import inspect
import json
import random
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Union

from .errors import (BadResponseError, ModelError, ModelTimeoutError, ServerError,
                     UnreachableError, error_for_status)
from .host import Host, NetworkError, RequestTimeout, default_host
from .sse import SSEParser


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
    finish_reason: str | None = None
    # What crossed the wire, one entry per attempt (retries included), for the trace:
    # {"url", "request" (the exact JSON text sent), "status", "response" (the text received),
    #  "started", "ended"}. Headers are left out: they carry the API key.
    exchanges: list[dict] = field(default_factory=list)


OnToken = Callable[[str], Union[None, Awaitable[None]]]
# on_retry(error, attempt, delay): called before waiting `delay` seconds to try again.
OnRetry = Callable[[ModelError, int, float], Union[None, Awaitable[None]]]


class Model:
    async def generate(self, messages: list[dict], tools: list[dict] | None = None,
                       on_token: OnToken | None = None,
                       on_retry: OnRetry | None = None) -> ModelReply:
        raise NotImplementedError


async def notify(callback, *args) -> None:
    """Call a callback that may be plain or async."""
    if callback is not None:
        result = callback(*args)
        if inspect.isawaitable(result):
            await result


class OpenAIModel(Model):
    def __init__(self, base_url: str, api_key: str | None = None, model: str = "",
                 host: Host | None = None, timeout: float = 60.0, max_retries: int = 3,
                 stream: bool = True, backoff_base: float = 1.0, backoff_max: float = 30.0,
                 max_retry_wait: float = 60.0, temperature: float | None = None,
                 extra_body: dict | None = None, headers: dict | None = None):
        base_url = base_url.rstrip("/")
        if not base_url.endswith("/chat/completions"):
            base_url += "/chat/completions"
        self.url, self.api_key, self.model = base_url, api_key, model
        self.host = host or default_host()
        self.timeout, self.max_retries, self.stream = timeout, max_retries, stream
        # Waits between retries: backoff_base * 2**n with jitter, at most backoff_max;
        # a server's Retry-After is honoured up to max_retry_wait.
        self.backoff_base, self.backoff_max = backoff_base, backoff_max
        self.max_retry_wait = max_retry_wait
        self.temperature, self.extra_body = temperature, extra_body or {}
        self.extra_headers = headers or {}

    async def generate(self, messages, tools=None, on_token=None, on_retry=None) -> ModelReply:
        body = json.dumps(self._request_body(messages, tools)).encode()
        attempt, exchanges = 0, []
        while True:
            exchange = {"url": self.url, "request": body.decode(), "status": None, "response": "",
                        "started": self.host.now()}
            exchanges.append(exchange)
            try:
                reply = await self._attempt(body, on_token, exchange)
                reply.exchanges = exchanges
                return reply
            except ModelError as error:
                attempt += 1
                error.attempts = attempt
                error.exchanges = exchanges
                if not error.retryable or attempt > self.max_retries:
                    raise
                delay = self._backoff(attempt, error.retry_after)
                await notify(on_retry, error, attempt, delay)
                await self.host.sleep(delay)

    def _request_body(self, messages, tools) -> dict:
        body = {"model": self.model, "messages": messages, "stream": self.stream}
        if self.stream:
            body["stream_options"] = {"include_usage": True}
        if tools:
            body["tools"] = tools
        if self.temperature is not None:
            body["temperature"] = self.temperature
        return {**body, **self.extra_body}

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_retry_wait)
        # Exponential, with jitter so that many clients do not retry in lockstep.
        return min(self.backoff_max, self.backoff_base * 2 ** (attempt - 1)) * random.uniform(0.5, 1)

    async def _attempt(self, body: bytes, on_token, exchange: dict) -> ModelReply:
        headers = {"content-type": "application/json",
                   "accept": "text/event-stream" if self.stream else "application/json",
                   **self.extra_headers}
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        try:
            response = await self.host.request("POST", self.url, headers, body, self.timeout)
        except NetworkError as e:
            raise UnreachableError(f"could not reach {self.url} ({e}): check the base URL and "
                                   f"that the server is running.", url=self.url) from None
        except RequestTimeout:
            raise self._timeout_error() from None
        finally:
            exchange["ended"] = self.host.now()
        exchange["status"] = response.status
        received = []  # the body as it arrives, for the trace
        try:
            if response.status >= 400:
                text = (await response.read()).decode("utf-8", "replace")
                received.append(text.encode())
                retry_after = parse_retry_after(response.headers.get("retry-after"), self.host.now())
                raise error_for_status(response.status, self.url, text, self.model, retry_after)
            content_type = response.headers.get("content-type", "")
            if "text/event-stream" in content_type or (self.stream and "json" not in content_type):
                return await self._read_stream(response, on_token, received)
            # An endpoint that does not stream answers with one JSON document.
            received.append(await response.read())
            reply = self._reply_from_json(received[-1])
            if reply.content:
                await notify(on_token, reply.content)
            return reply
        except NetworkError as e:
            raise UnreachableError(f"the connection to {self.url} broke mid-response ({e}).",
                                   url=self.url) from None
        except RequestTimeout:
            raise self._timeout_error() from None
        finally:
            exchange["response"] = b"".join(received).decode("utf-8", "replace")
            exchange["ended"] = self.host.now()
            await response.close()

    async def _read_stream(self, response, on_token, received: list) -> ModelReply:
        parser, builder = SSEParser(), ReplyBuilder()
        async with contextlib.aclosing(response.chunks()) as chunks:
            async for chunk in chunks:
                received.append(chunk)
                for event in parser.feed(chunk):
                    if event.data.strip() == "[DONE]":
                        return builder.reply()
                    try:
                        payload = json.loads(event.data)
                    except ValueError:
                        payload = None
                    if not isinstance(payload, dict):
                        raise BadResponseError(f"unreadable event from {self.url}: "
                                               f"{event.data[:200]!r}; is it an OpenAI-compatible "
                                               f"endpoint?", url=self.url)
                    if payload.get("error"):
                        raise self._stream_error(payload["error"])
                    text = builder.add(payload)
                    if text:
                        await notify(on_token, text)
        parser.close()
        if builder.finish_reason is None:  # no [DONE], no finish_reason: the stream was cut
            raise UnreachableError(f"the connection to {self.url} closed mid-response.", url=self.url)
        return builder.reply()

    def _reply_from_json(self, body: bytes) -> ModelReply:
        try:
            data = json.loads(body)
            choice = data["choices"][0]
            message = choice["message"]
            calls = [ToolCall(c.get("id") or new_call_id(), c["function"]["name"],
                              _as_json_text(c["function"].get("arguments")))
                     for c in message.get("tool_calls") or []]
            return ModelReply(_text(message.get("content")), calls, _usage(data), choice.get("finish_reason"))
        except (ValueError, KeyError, IndexError, TypeError):
            raise BadResponseError(f"unexpected response from {self.url}: {body[:200]!r}; is it "
                                   f"an OpenAI-compatible chat completions endpoint?") from None

    def _stream_error(self, error) -> ModelError:
        code = error.get("code") if isinstance(error, dict) else None
        text = json.dumps({"error": error})
        if isinstance(code, int) and code >= 400:
            return error_for_status(code, self.url, text, self.model)
        return ServerError(f"{self.url} reported an error mid-response: {text[:300]}",
                           url=self.url)

    def _timeout_error(self) -> ModelError:
        return ModelTimeoutError(f"no response from {self.url} within {self.timeout:g} s: the "
                                 f"server may be busy or still loading the model; try again or "
                                 f"raise the timeout.", url=self.url)


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
        return ModelReply("".join(self.text), calls, self.usage, self.finish_reason)


class ScriptedModel(Model):
    """A model that plays back replies: for tests, benchmarks and demos.

    Each reply is a string (the content), a `ModelReply`, a dict like
    {"content": ..., "tool_calls": [{"name": ..., "arguments": {...}}]}, or an
    exception to raise. `replies` may also be a function of the messages.
    The messages of each call are kept in `calls`.
    """

    def __init__(self, replies):
        self.replies = replies if callable(replies) else list(replies)
        self.calls: list[dict] = []

    async def generate(self, messages, tools=None, on_token=None, on_retry=None) -> ModelReply:
        self.calls.append({"messages": messages, "tools": tools})
        if callable(self.replies):
            reply = self.replies(messages)
        elif self.replies:
            reply = self.replies.pop(0)
        else:
            raise RuntimeError(f"ScriptedModel has no reply left for call {len(self.calls)}")
        if isinstance(reply, BaseException):
            raise reply
        reply = as_reply(reply)
        if reply.content:
            await notify(on_token, reply.content)
        return reply


def as_reply(reply) -> ModelReply:
    if isinstance(reply, ModelReply):
        return reply
    if isinstance(reply, str):
        return ModelReply(content=reply)
    calls = [ToolCall(c.get("id") or new_call_id(), c["name"], _as_json_text(c.get("arguments", {})))
             for c in reply.get("tool_calls", [])]
    return ModelReply(reply.get("content") or "", calls, reply.get("usage"))


def parse_retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a Retry-After header: a number, or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - now)
    except (TypeError, ValueError):
        return None


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
