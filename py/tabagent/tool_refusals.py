"""Endpoints that refuse tool definitions: from then on, text calls.

Ollama refuses `tools` for a model whose template has none ("... does not support tools"),
llama.cpp's server started without --jinja refuses them all ("tools param requires --jinja
flag"): errors.ToolsRefusedError. Neither answer changes when asked again, so the refusal is
remembered, per endpoint and model, for as long as this interpreter lives (the extension's
Python, the command line's process): later requests, this turn's and the next turns', go
without `tools` (the model's `takes_tools` is False), the prompt lists the tools and how to
write a call as text (prompts.tool_calling_system), and the parser reads those calls.
"""

from __future__ import annotations

from typing import Any

# (the endpoint's chat URL, the model's name) of those that refused tool definitions.
_refused: set[tuple[str, str]] = set()


def _key(model) -> tuple[str, str] | None:
    url = getattr(model, "url", None)
    return (url, getattr(model, "model", "")) if url else None


def refused(model: Any) -> bool:
    """Whether `model`'s endpoint (a models.Model's `url` and `model`) refused tool definitions
    for it in this interpreter."""
    return _key(model) in _refused


def remember_refusal(model: Any) -> None:
    if (key := _key(model)) is not None:
        _refused.add(key)
    else:  # a model with no endpoint (a scripted one): on itself
        model.takes_tools = False
