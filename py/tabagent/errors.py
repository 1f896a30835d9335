"""Model errors: what went wrong, in words a person can act on.

Every error has a `kind` the side panel can switch on, the HTTP `status` when there
was one, and a message that says what to do ("401 from https://...: check the API
key"). `retryable` errors are retried by the model client with backoff.
"""

from __future__ import annotations

import json
from typing import Any


class ModelError(Exception):
    kind = "model"
    retryable = False

    def __init__(self, message: str, *, status: int | None = None, url: str | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message, self.status, self.url = message, status, url
        self.retry_after = retry_after  # seconds the server asked us to wait, if it did
        self.attempts = self.max_attempts = 1

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


class ToolsRefusedError(ModelError):
    """The endpoint will not take the `tools` parameter for this model: asking again changes
    nothing, so it is never retried; the agent talks to it with text calls instead."""
    kind = "tools_refused"


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


# How servers refuse the `tools` parameter, in their own words:
# - Ollama, for a model whose template has no tools (400; server/images.go CheckCapabilities,
#   wrapped with the model's name in server/routes.go scheduleRunner):
#   {"error": "registry.ollama.ai/library/gemma:2b does not support tools"} on /api/chat, the
#   same message in {"error": {"message", "type": "invalid_request_error"}} on /v1;
# - llama.cpp's server started without --jinja (500; tools/server/server-common.cpp,
#   oaicompat_chat_params_parse): {"error": {"code": 500, "message": "tools param requires
#   --jinja flag", "type": "server_error"}}.
_TOOLS_REFUSED = ("does not support tools", "tools param requires --jinja flag")


def refuses_tools(text: str) -> bool:
    """Whether an error's text is a server refusing the `tools` parameter."""
    return any(words in (text or "") for words in _TOOLS_REFUSED)


def is_context_error(text: str) -> bool:
    """Whether an error's text says the request is longer than the model's window."""
    return any(hint in (text or "").lower() for hint in _CONTEXT_HINTS)


def empty_stream_error(url: str) -> ContextTooLongError:
    # llama.cpp's server answers a prompt longer than its window with 200, then an empty stream.
    return ContextTooLongError(f"{url} accepted the request, then closed the stream without a "
                               f"word: llama.cpp's server does this when the conversation is "
                               f"longer than its context window.", url=url)


def error_for_status(status: int, url: str, body: str, model: str,
                     retry_after: float | None = None, where: str | None = None) -> ModelError:
    """The error for an HTTP error response, with the server's own words appended."""
    said = _server_message(body)
    tail = f" Server said: {said}" if said else ""
    where = where or f"{status} from {url}"
    if _code(body) == "tool_use_failed":  # Groq: the model wrote a tool call it could not parse
        return BadRequestError(f"{where}: the model wrote a tool call the server could not read; "
                               f"try again, or pick a model better at tool calls.{tail}",
                               status=status, url=url)
    if refuses_tools(said):  # before the 5xx rule: llama.cpp says it with a 500 that will not change
        return ToolsRefusedError(f"{where}: the endpoint does not take tool definitions for model "
                                 f"'{model}': from now on they are described in the prompt, and the model's "
                                 f"calls are read from its text.{tail}",
                                 status=status, url=url)
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


# What an error says it is, when a server sends it with HTTP 200 (inside a stream, or as
# the whole body) and no status of its own: the status the same error has over HTTP.
_STATUS_OF_TYPE = {"invalid_request_error": 400, "tool_use_failed": 400, "context_length_exceeded": 400,
                   "authentication_error": 401, "invalid_api_key": 401, "permission_error": 403,
                   "not_found_error": 404, "model_not_found": 404, "rate_limit_exceeded": 429,
                   "rate_limit_error": 429, "insufficient_quota": 429, "server_error": 500,
                   "api_error": 500, "overloaded_error": 503}


def error_in_body(error: Any, url: str, model: str, mid_stream: bool = False) -> ModelError:
    """The error a server sent inside a 200 response, classified as the same error over
    HTTP would be: a 400 is not retried wherever it came from."""
    status = _status_in(error)
    body = json.dumps({"error": error})
    where = f"{url} answered with an error{' mid-response' if mid_stream else ''}"
    if status is not None:
        return error_for_status(status, url, body, model, where=f"{where} ({status})")
    if is_context_error(body):
        return error_for_status(400, url, body, model, where=where)
    said = _server_message(body)
    return ServerError(f"{where}; try again later. Server said: {said}", url=url)


def _status_in(error) -> int | None:
    if not isinstance(error, dict):
        return None
    for key in ("status_code", "status", "code"):
        value = error.get(key)
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        if isinstance(value, int) and 400 <= value < 600:
            return value
    for key in ("code", "type"):
        if isinstance(error.get(key), str) and error[key] in _STATUS_OF_TYPE:
            return _STATUS_OF_TYPE[error[key]]
    return None


def _error_of(body: str):
    try:
        data = json.loads(body)
    except ValueError:
        return None
    return data.get("error", data) if isinstance(data, dict) else data


def _code(body: str) -> str | None:
    error = _error_of(body)
    return error.get("code") if isinstance(error, dict) and isinstance(error.get("code"), str) else None


def _server_message(body: str, limit: int = 300) -> str:
    """The `error.message` of an OpenAI-style error body with the provider's details
    (type, code, param, OpenRouter's metadata), else the start of the body."""
    error = _error_of(body)
    if error is None:
        return _short(body, limit)
    if not isinstance(error, dict):
        return _short(str(error), limit)
    message = _short(str(error.get("message") or json.dumps(error)), limit)
    details = [f"{key}: {_short(str(error[key]), 80)}" for key in ("type", "code", "param")
               if isinstance(error.get(key), str) and error[key] and error[key] not in message]
    metadata = error.get("metadata") if isinstance(error.get("metadata"), dict) else {}
    if metadata.get("provider_name"):
        details.append(f"provider: {_short(str(metadata['provider_name']), 80)}")
    if raw := metadata.get("raw"):  # OpenRouter: the upstream provider's own words
        details.append(f"upstream said: {_short(raw if isinstance(raw, str) else json.dumps(raw), limit)}")
    if isinstance(error.get("failed_generation"), str):  # Groq: what the model wrote
        details.append(f"the model wrote: {_short(error['failed_generation'], 200)}")
    return message + (f" ({'; '.join(details)})" if details else "")


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."
