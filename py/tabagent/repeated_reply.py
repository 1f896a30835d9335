"""A reply that says, word for word, what the model's reply before it said: the next request, and
only it, is sampled otherwise.

Qwen2.5-Coder-0.5B as the CodeAgent on the real-model bench (closed-day, b8ee412, temperature 0)
read the page, then wrote the same code block 7 times and ran out of steps. At temperature 0 the
same context gives the same reply, and each repeat made the context grow by the same text: nothing
varied the next request. So when a reply is the one before it in the turn (its text with white space
left out, and its calls, their arguments as read), the next request asks for a higher temperature
(VARIED_TEMPERATURE, or 0.2 above the user's if that is higher) and a frequency and a presence
penalty (PENALTY), each endpoint its way:

| endpoint                                            | what the one request carries                      |
|-----------------------------------------------------|---------------------------------------------------|
| OpenAI-compatible (llama.cpp, LM Studio, vLLM, ...) | temperature, frequency_penalty, presence_penalty  |
| Ollama's native API                                 | the same three in `options`                       |
| the on-device model                                 | the same body; the extension passes on the temperature only |
| Chrome's built-in model                             | nothing: its sampling is fixed when the session is made |

An endpoint that answers a varied request with a bad request (OpenAI's reasoning models take no
temperature but 1, and no penalty) is asked the same once more as the user set it, and is never
varied again. Every other request carries the user's temperature, or none.
"""

from __future__ import annotations

import json
from typing import Any

from .replies import ModelReply

VARIED_TEMPERATURE = 1.0
ABOVE_USERS = 0.2  # a user's temperature at or above VARIED_TEMPERATURE: this much above it
HIGHEST = 2.0  # the most OpenAI's API takes
PENALTY = 0.5  # frequency_penalty and presence_penalty (OpenAI's range is -2 to 2)
# (chat URL, model) of endpoints that refused a varied request: never varied again.
_refused: set[tuple[str, str]] = set()


def reply_key(reply: ModelReply) -> str:
    """One text for a reply however it is spaced (all white space left out: a call written as JSON,
    spaced otherwise, is the same call), with its calls and their arguments as read."""
    calls = []
    for call in reply.tool_calls:
        try:
            arguments = json.dumps(json.loads(call.arguments or "{}"), sort_keys=True)
        except ValueError:
            arguments = "".join(str(call.arguments).split())
        calls.append(f"{call.name}{arguments}")
    return "\n".join(["".join(reply.content.split()), *calls])


class Replies:
    """The replies of one turn, so far as the next request needs them: whether it is varied."""

    def __init__(self) -> None:
        self.last: str | None = None
        self.vary = False  # the last reply was the one before it: the next request is varied

    def saw(self, reply: ModelReply) -> None:
        key = reply_key(reply)
        self.vary, self.last = key == self.last, key

    def take(self) -> bool:
        """Whether the request about to be sent is varied; it alone is."""
        vary, self.vary = self.vary, False
        return vary


def varied_fields(temperature: float | None) -> dict[str, Any]:
    """What a varied request carries, the OpenAI way; `temperature`: the user's, or None."""
    hotter = VARIED_TEMPERATURE if temperature is None or temperature < VARIED_TEMPERATURE \
        else min(HIGHEST, temperature + ABOVE_USERS)
    return {"temperature": hotter, "frequency_penalty": PENALTY, "presence_penalty": PENALTY}


def refuses(url: str, model: str) -> bool:
    return (url, model) in _refused


def refused(url: str, model: str) -> None:
    """The endpoint answered a varied request with a bad request: from now on, never varied."""
    _refused.add((url, model))
