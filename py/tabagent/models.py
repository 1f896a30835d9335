"""Models: an OpenAI-compatible chat-completions client (a scripted one for tests: testing.py).

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
from collections.abc import Awaitable, Callable
from typing import Any, Union

from .errors import (BadRequestError, BadResponseError, ModelError, ModelTimeoutError, UnreachableError,
                     error_for_status, error_in_body)
from .errors import empty_stream_error
from .host import Host, NetworkError, RequestTimeout
from .hosts import default_host
from . import repeated_reply, reply_grammar
from .replies import ModelReply, ReplyBuilder, reply_from_json
from .sse import SSEParser
from .tool_refusals import refused

# on_token(text) for each piece of the reply as it streams; on_reasoning(text) likewise for
# what the model thinks before answering (never part of the reply's content).
OnToken = Callable[[str], Union[None, Awaitable[None]]]
# on_retry(error, attempt, delay): called before waiting `delay` seconds to try again;
# `error.max_attempts` says how many tries there are in all.
OnRetry = Callable[[ModelError, int, float], Union[None, Awaitable[None]]]
SSE_START = (b"data:", b"event:", b"id:", b"retry:", b":")
BODY_LEAD = b"\xef\xbb\xbf \t\r\n"  # a byte order mark and white space before either


def body_kind(head: bytes) -> str | None:
    """Which a reply's body is, "json", "events" or "garbage", once its first bytes decide
    it; None while they could still begin either (a network chunk may end inside 'dat')."""
    start = head.lstrip(BODY_LEAD)
    if not start:
        return None
    if start.startswith((b"{", b"[")):
        return "json"
    if start.startswith(SSE_START):
        return "events"
    if any(field.startswith(start) for field in SSE_START):
        return None
    return "garbage"


class Model:
    async def generate(self, messages: list[dict], tools: list[dict] | None = None,
                       on_token: OnToken | None = None, on_retry: OnRetry | None = None,
                       on_reasoning: OnToken | None = None) -> ModelReply:
        raise NotImplementedError

    async def reply_constraint(self) -> str | None:
        """How the endpoint can hold a reply to a tool call (reply_grammar.py); None: it cannot.
        A model that can takes `reply_schema=` in generate()."""
        return None


async def notify(callback: Callable[..., Any] | None, *args: Any) -> None:
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
                 extra_body: dict | None = None, headers: dict | None = None) -> None:
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
        self.provider = ""  # the settings' provider, when the app knows it: which servers to ask about

    async def reply_constraint(self) -> str | None:
        return await reply_grammar.way_of(self.host, self.url, self.api_key, self.provider)

    @property
    def takes_tools(self) -> bool:
        """False once this endpoint refused tool definitions for this model (tool_refusals.py)."""
        return not refused(self)

    @property
    def can_vary(self) -> bool:
        """Whether generate() takes `varied`: no, once this endpoint refused it (repeated_reply.py)."""
        return not repeated_reply.refuses(self.url, self.model)

    async def generate(self, messages: list[dict], tools: list[dict] | None = None,
                       on_token: OnToken | None = None, on_retry: OnRetry | None = None,
                       on_reasoning: OnToken | None = None, reply_schema: dict | None = None,
                       varied: bool = False) -> ModelReply:
        """`reply_schema`: hold the reply to it, the endpoint's way (reply_grammar.py); `varied`:
        sample this one reply otherwise (repeated_reply.py)."""
        body = {**self._request_body(messages, tools), **self._held(reply_schema, tools)}
        callbacks = (on_token, on_reasoning, on_retry)
        if not (varied and self.can_vary):
            return await self._send(body, *callbacks)
        try:
            return await self._send(self._varied(body), *callbacks)
        except BadRequestError as refusal:  # a field it takes not for this model: asked as the user set it
            repeated_reply.refused(self.url, self.model)
            reply = await self._send(body, *callbacks)
            reply.exchanges = [*refusal.exchanges, *reply.exchanges]
            return reply

    async def _send(self, fields: dict, on_token: OnToken | None, on_reasoning: OnToken | None,
                    on_retry: OnRetry | None) -> ModelReply:
        body = json.dumps(fields).encode()
        streamed = (on_token, on_reasoning)
        attempt, exchanges = 0, []
        while True:
            exchange = {"url": self.url, "request": body.decode(), "status": None, "response": "",
                        "started": self.host.now()}
            exchanges.append(exchange)
            try:
                reply = await self._attempt(body, streamed, exchange)
                # As read from the reply, so the trace never has to pick it out of the raw text.
                exchange["usage"] = reply.usage
                reply.exchanges = exchanges
                return reply
            except ModelError as error:
                attempt += 1
                error.attempts, error.max_attempts = attempt, self.max_retries + 1
                error.exchanges = exchanges
                if not error.retryable or attempt > self.max_retries:
                    raise
                delay = self._backoff(attempt, error.retry_after)
                await notify(on_retry, error, attempt, delay)
                await self.host.sleep(delay)

    def _varied(self, body: dict) -> dict:
        return {**body, **repeated_reply.varied_fields(self.temperature)}

    def _request_body(self, messages, tools) -> dict:
        body = {"model": self.model, "messages": messages, "stream": self.stream}
        if self.stream:
            body["stream_options"] = {"include_usage": True}
        if tools:
            body["tools"] = tools
        if self.temperature is not None:
            body["temperature"] = self.temperature
        return {**body, **self.extra_body}

    def _held(self, reply_schema: dict | None, tools: list[dict] | None) -> dict:
        way = reply_grammar.known_way(self.url) if reply_schema is not None else None
        return reply_grammar.request_fields(way, reply_schema, tools) if way else {}

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_retry_wait)
        # Exponential, with jitter so that many clients do not retry in lockstep.
        return min(self.backoff_max, self.backoff_base * 2 ** (attempt - 1)) * random.uniform(0.5, 1)

    async def _attempt(self, body: bytes, streamed, exchange: dict) -> ModelReply:
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
            return await self._read_body(response, streamed, received)
        except NetworkError as e:
            raise UnreachableError(f"the connection to {self.url} broke mid-response ({e}).",
                                   url=self.url) from None
        except RequestTimeout:
            raise self._timeout_error() from None
        finally:
            exchange["response"] = b"".join(received).decode("utf-8", "replace")
            exchange["ended"] = self.host.now()
            await response.close()

    async def _read_body(self, response, streamed, received: list) -> ModelReply:
        """The reply, read as what the body is (server-sent events or one JSON document)
        whatever its content type says: servers get the header wrong both ways."""
        async with contextlib.aclosing(response.chunks()) as chunks:
            head, kind = b"", None
            async for chunk in chunks:  # until the first bytes tell which it is
                received.append(chunk)
                head += chunk
                kind = body_kind(head)
                if kind:
                    break
            start = head.lstrip(BODY_LEAD)
            if kind == "json":
                async for chunk in chunks:
                    received.append(chunk)
                return await self._read_document(b"".join(received), streamed)
            if start and kind != "events":  # garbage, or a body that ended inside "dat"
                raise BadResponseError(f"unexpected response from {self.url}: {start[:200]!r}; is "
                                       f"it an OpenAI-compatible chat completions endpoint?",
                                       url=self.url)
            return await self._read_stream(head, chunks, streamed, received)

    async def _read_document(self, body: bytes, streamed) -> ModelReply:
        on_token, on_reasoning = streamed
        try:
            error = json.loads(body).get("error")
        except (ValueError, AttributeError):
            error = None
        if error:  # HTTP 200 whose body is an error: that error
            raise error_in_body(error, self.url, self.model)
        reply = reply_from_json(body, self.url)
        if reply.reasoning:
            await notify(on_reasoning, reply.reasoning)
        if reply.content:
            await notify(on_token, reply.content)
        return reply

    async def _read_stream(self, head: bytes, chunks, streamed, received: list) -> ModelReply:
        parser, builder = SSEParser(), ReplyBuilder()
        events = parser.feed(head)
        while True:
            for event in events:
                if event.data.strip() == "[DONE]":
                    return await self._finish(builder, streamed)
                payload = self._event_payload(event)
                if payload.get("error"):
                    if builder.finish_reason == "length":  # OpenRouter adds "Token limit reached"
                        return await self._finish(builder, streamed)
                    raise error_in_body(payload["error"], self.url, self.model, mid_stream=True)
                await self._stream(builder.add(payload), streamed)
            chunk = await anext(chunks, None)
            if chunk is None:
                break
            received.append(chunk)
            events = parser.feed(chunk)
        parser.close()
        if builder.finish_reason is None:  # no [DONE], no finish_reason: the stream was cut
            if b"data:" not in b"".join(received):  # ... before it began
                raise empty_stream_error(self.url)
            raise UnreachableError(f"the connection to {self.url} closed mid-response.", url=self.url)
        return await self._finish(builder, streamed)

    def _event_payload(self, event) -> dict:
        try:
            payload = json.loads(event.data)
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            raise BadResponseError(f"unreadable event from {self.url}: {event.data[:200]!r}; is it "
                                   f"an OpenAI-compatible endpoint?", url=self.url)
        return payload

    @staticmethod
    async def _stream(pieces: tuple[str, str], streamed) -> None:
        (reasoning, text), (on_token, on_reasoning) = pieces, streamed
        if reasoning:
            await notify(on_reasoning, reasoning)
        if text:
            await notify(on_token, text)

    async def _finish(self, builder: ReplyBuilder, streamed) -> ModelReply:
        await self._stream(builder.finish(), streamed)  # what was held back as a possible tag
        return builder.reply()

    def _timeout_error(self) -> ModelError:
        return ModelTimeoutError(f"no response from {self.url} within {self.timeout:g} s: the server may be "
                                 f"busy or still loading the model. Try again, or give it longer: in TabAgent's "
                                 f"settings, Model, \"Wait this long for the model's answer\" (request_timeout), "
                                 f"in seconds.", url=self.url)


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
