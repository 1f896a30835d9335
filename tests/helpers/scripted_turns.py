"""What a ScriptedModel (tabagent.testing) is given to reply and what it read: the tool calls of
one reply, and the messages the agent added since the model's last reply."""

from __future__ import annotations

import json


def calls(*pairs):
    """One reply making the calls `(name, arguments)`, in order."""
    return {"tool_calls": [{"name": name, "arguments": arguments} for name, arguments in pairs]}


def told(model, n):
    """What the model read last before its n-th reply (from 0): the tool messages and observations
    after its reply before, joined."""
    tail = []
    for message in reversed(model.calls[n]["messages"]):
        if message["role"] == "assistant":
            break
        tail.append(message["content"] if isinstance(message["content"], str) else json.dumps(message["content"]))
    return "\n".join(reversed(tail))
