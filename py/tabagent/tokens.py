"""Counting tokens before sending: an estimate, within 5% of common tokenizers on the
agents' English requests.

The real tokenizers (BPE vocabularies of 32k to 200k pieces) are megabytes we do not ship.
The estimate weighs what they react to (words, long words, letters, digits, punctuation, line
breaks, characters outside ASCII); tests/unit/test_token_estimate.py checks it against o200k,
Llama 3's and Qwen 3's tokenizers, tests/e2e/test_llama_server.py against llama.cpp's.
"""

from __future__ import annotations

import json
import re

from .images import image_tokens, image_url, is_image

# Counted from a few C-speed string counts, not a loop over words or a regular expression: a
# 200-step conversation is half a million characters, counted in Pyodide before a request.
# The weights were fitted to real tokenizers (o200k, Llama 3's and Qwen 3's, as the quicktok
# package ships them) over whole requests the agents send: their instructions and tool schemas,
# the five-step page task's requests, and page reads of real pages in English, German and
# Spanish (tests/unit/test_token_estimate.py). On English requests the estimate is within 5% of
# each of the three (the digit weight raised from 0.35 to 0.55 when every request began to carry
# the date and time: Qwen 3 makes a token of each digit, o200k and Llama 3 one of up to three);
# German text, which they cut into more pieces than words, reads long words
# (letters beyond LONG_WORD a word) at PER_LONG_LETTER.
_WITHOUT_MARKS = str.maketrans("", "", ".,;:!?()[]{}<>\"'`-_=+*/\\|#@$%^&~")
_WITHOUT_DIGITS = str.maketrans("", "", "0123456789")
PER_WORD, PER_MARK, PER_LETTER, PER_DIGIT, PER_LINE = 1.327, 0.673, -0.078, 0.55, 0.914
LONG_WORD, PER_LONG_LETTER = 5.5, 0.299
# Characters outside ASCII, each beyond its weight as a letter. Those of the kinds the fit above
# saw (accented Latin letters, typographic quotes and dashes: the German and Spanish pages and the
# agents' requests) at the weight fitted with the rest; the scripts it never saw at what o200k,
# Llama 3 and Qwen 3 make of prose in each (tests/unit/test_token_estimate.py): Chinese, Japanese
# and Korean characters about a token each, letters of the other scripts (Cyrillic, Greek,
# Arabic, Hebrew, Indic...) a quarter more, emoji and the rest past the Basic Multilingual Plane a
# token and a half. One weight for every character outside ASCII would count a Russian or Chinese
# page at five to fifteen times its size.
_FITTED = re.compile(r"[\u0080-\u024f\u1e00-\u1eff\u2000-\u2bff]")
_WIDE = re.compile(r"[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
_ASTRAL = re.compile(r"[\U00010000-\U0010ffff]")
PER_FITTED, PER_WIDE, PER_ASTRAL, PER_OTHER_SCRIPT = 4.4, 0.7, 1.5, 0.25
# Each message costs a few tokens beyond its text: the role and the chat template's marks.
MESSAGE_OVERHEAD = 4


def count_text(text: str) -> int:
    """About how many tokens `text` is."""
    if not text:
        return 0
    words = len(text.split())
    marks = len(text) - len(text.translate(_WITHOUT_MARKS))
    digits = len(text) - len(text.translate(_WITHOUT_DIGITS))
    lines = text.count("\n")
    letters = len(text) - text.count(" ") - lines - marks - digits
    tokens = (PER_WORD * words + PER_MARK * marks + PER_LETTER * letters + PER_DIGIT * digits
              + PER_LINE * lines + PER_LONG_LETTER * max(0.0, letters - LONG_WORD * words))
    if not text.isascii():
        tokens += _beyond_ascii(text)
    return max(1, round(tokens))


def _beyond_ascii(text: str) -> float:
    """What the characters outside ASCII add, by kind (see PER_FITTED and the rest)."""
    beyond = len(text) - len(text.encode("ascii", "ignore"))
    fitted, wide, astral = (len(text) - len(pattern.sub("", text)) for pattern in (_FITTED, _WIDE, _ASTRAL))
    other = max(0, beyond - fitted - wide - astral)
    return PER_FITTED * fitted + PER_WIDE * wide + PER_ASTRAL * astral + PER_OTHER_SCRIPT * other


def count_message(message: dict) -> int:
    content = message.get("content")
    tokens = MESSAGE_OVERHEAD + count_text(_content_text(content))
    if isinstance(content, list):  # pictures count by their size (images.py)
        tokens += sum(image_tokens(image_url(p)) for p in content if is_image(p))
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
