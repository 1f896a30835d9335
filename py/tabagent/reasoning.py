"""Reasoning: what a model thinks before it answers, kept apart from the answer.

Providers send it in a field of its own (`reasoning_content` from DeepSeek and vLLM,
`reasoning` from OpenRouter, Groq and Ollama, OpenRouter's `reasoning_details`, Mistral's
`thinking` content parts) or inline, as a `<think>...</think>` block at the start of the
content (DeepSeek-R1 and Qwen3 served raw). Either way it must never reach the answer,
the code a CodeAgent runs, or the content of the next request.
"""

from __future__ import annotations

OPEN, CLOSE = "<think>", "</think>"


def reasoning_in(delta: dict) -> tuple[str, str | None]:
    """The reasoning text in a message or stream delta, and the field it came in."""
    for key in ("reasoning_content", "reasoning"):
        if isinstance(delta.get(key), str) and delta[key]:
            return delta[key], key
    details = delta.get("reasoning_details")  # OpenRouter: [{"type", "text" | "summary" | "data"}]
    if isinstance(details, list):
        text = "".join(_detail_text(d) for d in details if isinstance(d, dict))
        if text:
            return text, "reasoning_details"
    return "", None


def _detail_text(detail: dict) -> str:
    text = detail.get("text") or detail.get("summary") or ""  # "reasoning.encrypted" has neither
    return text if isinstance(text, str) else ""


def content_parts(content: str | list | None) -> tuple[str, str]:
    """(reasoning, text) of a message's content: a string, or a list of parts where
    Mistral's reasoning models send {"type": "thinking", "thinking": [{"type": "text", ...}]}."""
    if not isinstance(content, list):
        return "", content if isinstance(content, str) else ""
    reasoning, text = [], []
    for part in content:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "thinking":
            thinking = part.get("thinking")
            if isinstance(thinking, str):
                reasoning.append(thinking)
            elif isinstance(thinking, list):
                reasoning += [p.get("text", "") for p in thinking if isinstance(p, dict)]
        elif isinstance(part.get("text"), str):
            text.append(part["text"])
    return "".join(reasoning), "".join(text)


class ThinkSplitter:
    """Splits streamed content into reasoning and answer at a leading `<think>` block.

    Only a block at the very start counts (after whitespace): a `<think>` later in an
    answer is the answer's own text. Text that might be the start of a tag is held back
    until the next piece decides it, so a tag split across chunks is still found; a block
    never closed is all reasoning.
    """

    def __init__(self) -> None:
        self.state = "start"  # "start" (only whitespace so far), "thinking", "answer"
        self.pending = ""     # held back: it may be part of a tag
        self.saw_block = False
        self._trim = False    # drop the whitespace between </think> and the answer

    def feed(self, text: str) -> tuple[str, str]:
        """(reasoning, answer text) that `text` completes."""
        self.pending += text
        reasoning = content = ""
        while self.pending:
            if self.state == "start":
                stripped = self.pending.lstrip()
                if stripped.startswith(OPEN):
                    self.pending, self.state, self.saw_block = stripped[len(OPEN):], "thinking", True
                elif not stripped or OPEN.startswith(stripped):
                    break  # not decided yet
                else:
                    self.state = "answer"
            elif self.state == "thinking":
                end = self.pending.find(CLOSE)
                if end < 0:
                    keep = _partial_tag(self.pending, CLOSE)
                    reasoning += self.pending[:len(self.pending) - keep]
                    self.pending = self.pending[len(self.pending) - keep:]
                    break
                reasoning += self.pending[:end]
                self.pending, self.state, self._trim = self.pending[end + len(CLOSE):], "answer", True
            else:
                piece, self.pending = self.pending, ""
                if self._trim:
                    piece = piece.lstrip()
                    self._trim = not piece
                content += piece
        return reasoning, content

    def finish(self) -> tuple[str, str]:
        """The end of the reply: what was held back, as reasoning if a block was open."""
        held, self.pending = self.pending, ""
        if self.state == "thinking":
            return held, ""
        return "", "" if self._trim else held


def _partial_tag(text: str, tag: str) -> int:
    """The length of the longest end of `text` that is a start of `tag`."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0


def split_unopened(content: str) -> tuple[str, str]:
    """(reasoning, answer) of a reply whose chat template opened the block itself, so
    the model wrote only the closing `</think>`; else ("", content)."""
    head, tag, tail = content.partition(CLOSE)
    if not tag or OPEN in head:
        return "", content
    return head.strip(), tail.lstrip()
