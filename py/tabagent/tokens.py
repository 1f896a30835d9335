"""Counting tokens before sending: an estimate, good to about ±15% for common tokenizers.

The real tokenizers (BPE vocabularies of 32k to 200k pieces) are megabytes we do not ship.
They split text much as this does: words, runs of digits, single punctuation marks, and
whitespace; a common word is one token, a long or rare one several, and a character
outside ASCII (accents aside) often one or more on its own. The estimate follows that shape
and was checked against llama.cpp's tokenizer (tests/e2e/test_llama_server.py).
"""

from __future__ import annotations

import json
import re

# Pieces as a BPE pre-tokenizer cuts them: a word (with its leading space), digits, one
# mark, or a run of whitespace.
_PIECES = re.compile(r" ?[A-Za-z]+| ?\d{1,3}| ?[^\sA-Za-z\d]|\s+")
# Each message costs a few tokens beyond its text: the role and the chat template's marks.
MESSAGE_OVERHEAD = 4


def count_text(text: str) -> int:
    """About how many tokens `text` is."""
    if not text:
        return 0
    total = 0
    for piece in _PIECES.findall(text):
        if piece.isspace():
            total += 1 if len(piece) < 8 else len(piece) // 8 + 1
            continue
        word = piece.lstrip()
        if word.isascii():
            # Short words are whole tokens; longer ones split into pieces of about 4-5 letters.
            total += 1 if len(word) <= 6 else (len(word) + 3) // 5
        else:
            total += len(word.encode("utf-8")) // 2 or 1
    return total


def count_message(message: dict) -> int:
    tokens = MESSAGE_OVERHEAD + count_text(_content_text(message.get("content")))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        tokens += 4 + count_text(function.get("name") or "") + count_text(function.get("arguments") or "")
    return tokens


def count_messages(messages: list[dict], tools: list[dict] | None = None) -> int:
    """About how many tokens a chat request is: its messages and its tool schemas."""
    total = sum(count_message(m) for m in messages)
    if tools:
        total += count_text(json.dumps(tools, ensure_ascii=False))
    return total + 3  # the template's opening of the reply


def _content_text(content) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""
