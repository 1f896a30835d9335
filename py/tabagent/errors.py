"""Model errors: what went wrong, in words a person can act on.

Every error has a `kind` the side panel can switch on, the HTTP `status` when there
was one, and a message that says what to do ("401 from https://...: check the API
key"). `retryable` errors are retried by the model client with backoff.
"""

from __future__ import annotations

import json


class ModelError(Exception):
    kind = "model"
    retryable = False

    def __init__(self, message: str, *, status: int | None = None, url: str | None = None,
                 retry_after: float | None = None):
        super().__init__(message)
        self.message, self.status, self.url = message, status, url
        self.retry_after = retry_after  # seconds the server asked us to wait, if it did
        self.attempts = 1

    def __str__(self) -> str:
        if self.attempts > 1:
            return f"{self.message} (gave up after {self.attempts} tries)"
        return self.message


class AuthError(ModelError):
    kind = "auth"


class NotFoundError(ModelError):
    kind = "not_found"


class BadRequestError(ModelError):
    kind = "bad_request"


class ContextTooLongError(ModelError):
    kind = "context_too_long"


class BadResponseError(ModelError):
    kind = "bad_response"


class RateLimitError(ModelError):
    kind, retryable = "rate_limited", True


class ServerError(ModelError):
    kind, retryable = "server", True


class UnreachableError(ModelError):
    kind, retryable = "unreachable", True


class ModelTimeoutError(ModelError):
    kind, retryable = "timeout", True


_CONTEXT_HINTS = ("context_length", "context length", "maximum context", "too many tokens",
                  "prompt is too long", "context window")
_CONTEXT_HINTS += ("exceed context window", "exceeds the context", "input is too long",
                   "reduce the length of the messages", "exceed_context_size",
                   "available context size")


def is_context_error(text: str) -> bool:
    """Whether an error's text says the request is longer than the model's window."""
    return any(hint in (text or "").lower() for hint in _CONTEXT_HINTS)


def empty_stream_error(url: str) -> ContextTooLongError:
    # llama.cpp's server answers a prompt longer than its window with 200, then an empty stream.
    return ContextTooLongError(f"{url} accepted the request, then closed the stream without a "
                               f"word: llama.cpp's server does this when the conversation is "
                               f"longer than its context window.", url=url)


def error_for_status(status: int, url: str, body: str, model: str,
                     retry_after: float | None = None) -> ModelError:
    """The error for an HTTP error response, with the server's own words appended."""
    said = _server_message(body)
    tail = f" Server said: {said}" if said else ""
    where = f"{status} from {url}"
    if status == 401:
        return AuthError(f"{where}: check the API key.{tail}", status=status, url=url)
    if status == 403:
        return AuthError(f"{where}: the API key is not allowed to do this; check the key "
                         f"and its permissions for model '{model}'.{tail}", status=status, url=url)
    if status == 404:
        return NotFoundError(f"{where}: check the base URL and the model name '{model}'.{tail}",
                             status=status, url=url)
    if status == 429:
        return RateLimitError(f"{where}: rate limited; wait a little or check your plan's "
                              f"quota.{tail}", status=status, url=url, retry_after=retry_after)
    if status >= 500:
        return ServerError(f"{where}: the server failed; try again later.{tail}",
                           status=status, url=url, retry_after=retry_after)
    if any(hint in body.lower() for hint in _CONTEXT_HINTS):
        return ContextTooLongError(f"{where}: the conversation is longer than model '{model}' "
                                   f"accepts; start a new conversation or use a model with a "
                                   f"longer context.{tail}", status=status, url=url)
    return BadRequestError(f"{where}: the endpoint rejected the request.{tail}",
                           status=status, url=url)


def _server_message(body: str, limit: int = 300) -> str:
    """The `error.message` of an OpenAI-style error body, else the start of the body."""
    try:
        data = json.loads(body)
        error = data.get("error", data) if isinstance(data, dict) else data
        text = (error.get("message") or json.dumps(error)) if isinstance(error, dict) else str(error)
    except ValueError:
        text = body
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "..."
