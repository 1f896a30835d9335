"""A scripted model that decides each call from what the tools returned, as a real model does:
a policy is a generator that yields the next call (or several, one reply) and is sent back what
the tools said, their text and the pictures a screenshot showed; when it returns, the model
answers in words. It sees only the request the extension sent, never the page.

    def policy(task, can):                 # task: the user's message; can: the tools offered
        said = yield Call("list_controls")
        ...
    with ToolModel() as model:
        model.play(policy)
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field

from PIL import Image

from .model_server import ModelServer, Reply


@dataclass
class Call:
    name: str
    arguments: dict = field(default_factory=dict)

    def __init__(self, name: str, **arguments):
        self.name, self.arguments = name, arguments


@dataclass
class Said:
    """What the tools returned for one reply: each call's text, and the pictures shown after."""
    texts: list[str]
    pictures: list[Image.Image]

    @property
    def text(self) -> str:
        return "\n".join(self.texts)


class GaveUp(Exception):
    """A policy that finds nothing usable in what the tools showed: it says why, and stops."""


def _picture(url: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(url.partition(",")[2]))).convert("RGB")


def what_the_tools_said(messages: list[dict]) -> Said:
    """The tool messages after the model's last reply, and the pictures that came with them."""
    last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
    texts, pictures = [], []
    for message in messages[last + 1:]:
        content = message.get("content")
        parts = content if isinstance(content, list) else [{"type": "text", "text": content or ""}]
        if message.get("role") == "tool":
            texts.append("".join(p.get("text", "") for p in parts))
        pictures += [_picture(p["image_url"]["url"]) for p in parts if p.get("type") == "image_url"]
    return Said(texts, pictures)


def offered(body: dict) -> set[str]:
    return {t.get("function", {}).get("name") for t in body.get("tools") or []}


class ToolModel(ModelServer):
    """The model server, playing a policy instead of a script."""

    def __init__(self, models=("scripted-model", "scripted-vision")):
        super().__init__(models)
        self.seeing = {"scripted-vision"}
        self._policy = None
        self.gave_up = ""
        self.last_said = ""  # what the tools said last, to tell why a task was not done
        self.transcript: list[str] = []

    def play(self, policy) -> None:
        """policy(task, can) -> generator; started by the turn's first request."""
        self.reset()
        self._policy, self._running, self.gave_up, self.last_said = policy, None, "", ""
        self.transcript: list[str] = []  # each call and the start of what it returned, to read a failure

    def _next_reply(self, request: dict) -> Reply | None:
        if self._policy is None:
            return super()._next_reply(request)
        with self._lock:
            self.requests.append(request)
        return self._step(request["body"])

    def _step(self, body: dict) -> Reply:
        try:
            if self._running is None:
                task = next(m for m in reversed(body["messages"]) if m["role"] == "user")["content"]
                self._running = self._policy(task if isinstance(task, str) else task[0]["text"], offered(body))
                self.transcript.append(f"(tools offered: {', '.join(sorted(offered(body)))})")
                wanted = next(self._running)
            else:
                said = what_the_tools_said(body["messages"])
                self.last_said = said.text
                self.transcript.append(f"  -> {said.text[-600:]!r} ({len(said.pictures)} pictures)")
                wanted = self._running.send(said)
        except StopIteration:
            return Reply(text="Done.")
        except GaveUp as reason:
            self.gave_up = str(reason)
            return Reply(text=f"I cannot do this with what the tools show: {reason}")
        calls = wanted if isinstance(wanted, list) else [wanted]
        self.transcript += [f"{c.name}({c.arguments})" for c in calls]
        return Reply(tool_calls=[{"name": c.name, "arguments": c.arguments} for c in calls])
