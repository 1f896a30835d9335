"""A sampling request (sampling/createMessage) as text: what the user reads in the panel and,
if they allow it, what their model gets (app/mcp_requests.py marks it untrusted)."""

from __future__ import annotations

from ..unseen import bounded, shown
from .elicitation import Refused
from .tools import MAX_RESULT_CHARS

MAX_SHOWN = MAX_RESULT_CHARS  # characters of a request shown (and sent) at most, as of a result


def sampling_text(params: dict) -> str:
    """A sampling request as the user reads it and the model gets it: its system prompt and
    every message, in order, with every character that draws nothing written out."""
    parts = []
    if params.get("systemPrompt"):
        parts.append(f"[system prompt]\n{params['systemPrompt']}")
    for message in params.get("messages") or []:
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        items = content if isinstance(content, list) else [content]
        text = "\n".join(str(i.get("text", "")) if isinstance(i, dict) and i.get("type") == "text"
                         else f"[{i.get('type') if isinstance(i, dict) else 'content'}: not sent]" for i in items)
        parts.append(f"[{bounded(str(message.get('role', 'user')), 20)}]\n{text}")
    text = shown("\n\n".join(parts))
    if len(text) > MAX_SHOWN:
        raise Refused(f"The request is {len(text):,} characters long; TabAgent shows and sends at most {MAX_SHOWN:,}.")
    return text
