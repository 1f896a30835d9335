"""What a scripted model asks for and is told: a tool call, one made later from what the
tools said, the last tool result it read, and the settings of a scripted tool-calling model."""

from __future__ import annotations

from tests.helpers.model_server import Reply


def tool_call(name, **arguments):
    return Reply(tool_calls=[{"name": name, "arguments": arguments}])


def told(model, request):
    """What the model read as the last tool result in its request number `request` (from 0)."""
    return [m for m in model.requests[request]["body"]["messages"] if m["role"] == "tool"][-1]["content"]


def settings(model, **more):
    return {"provider": "custom", "base_url": model.base_url, "model": "scripted-model", "agent": "tool_calling",
            "max_steps": 12, **more}


def later(make):
    """A tool call made when the model is asked, from what the tools said before."""
    return Reply(calls_from=lambda requests: [make(requests)])
