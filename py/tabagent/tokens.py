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

# Counted from a few C-speed string counts, not a loop over words or a regular expression: a
# 200-step conversation is half a million characters, counted in Pyodide before a request.
# The weights were fitted to llama.cpp's tokenizer over prose, Markdown, code and JSON.
_WITHOUT_MARKS = str.maketrans("", "", ".,;:!?()[]{}<>\"'`-_=+*/\\|#@$%^&~")
PER_WORD, PER_MARK, PER_LETTER, PER_LINE = 0.75, 1.0, 1 / 12, 0.5
# Each message costs a few tokens beyond its text: the role and the chat template's marks.
MESSAGE_OVERHEAD = 4


def count_text(text: str) -> int:
    """About how many tokens `text` is."""
    if not text:
        return 0
    words = len(text.split())
    marks = len(text) - len(text.translate(_WITHOUT_MARKS))
    lines = text.count("\n")
    letters = len(text) - text.count(" ") - lines - marks
    tokens = PER_WORD * words + PER_MARK * marks + PER_LETTER * letters + PER_LINE * lines
    if not text.isascii():  # CJK is about a token per character; accented letters split words
        tokens += (len(text.encode("utf-8")) - len(text)) / 3
    return round(tokens)


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
