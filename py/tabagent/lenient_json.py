"""Reading a value the way weak models write it: JSON, or nearly.

Besides strict JSON this reads Python literals (single quotes, True/False/None), JSON's
true/false/null inside them, trailing commas, an object's key written as a bare word
(`required: [...]`), and a value cut off after its last complete
part, whose closing brackets are all that is missing. A value cut off inside a string or
after a key has more than one reading: it is not guessed, and `ValueError` says so.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

_OPEN, _CLOSE = "{[(", "}])"
_PAIRS = dict(zip(_OPEN, _CLOSE))
_JSON_WORDS = {"true": "True", "false": "False", "null": "None"}


def read_value(text: str, start: int = 0) -> tuple[Any, int]:
    """(value, end) for the value that starts at `text[start]`; ValueError if there is none."""
    try:
        return json.JSONDecoder().raw_decode(text, start)
    except ValueError as strict:
        end, missing = _extent(text, start)
        source = text[start:end]
        if missing:
            source = _closed(source, missing)
        try:
            return _literal(source), end
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            raise ValueError(_why(strict, missing)) from None


def _why(strict: ValueError, missing: str) -> str:
    if missing == "cut":
        return "it is cut off in the middle of a string"
    if missing:
        return f"it is cut off: {len(missing)} closing bracket(s) missing, and what came before is not complete"
    return str(strict)


def _extent(text: str, start: int) -> tuple[int, str]:
    """Where the bracketed value at `start` ends, and the brackets still open at the end of
    the text ("cut" when the text ends inside a string)."""
    if start >= len(text) or text[start] not in _OPEN:
        raise ValueError("expected an object or a list")
    stack, quote, i = [], None, start
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char in _OPEN:
            stack.append(_PAIRS[char])
        elif char in _CLOSE:
            if not stack or stack.pop() != char:
                raise ValueError(f"unbalanced '{char}' at character {i - start}")
            if not stack:
                return i + 1, ""
        i += 1
    return len(text), "cut" if quote else "".join(reversed(stack))


def _closed(source: str, missing: str) -> str:
    """A cut-off value closed, when only its closing brackets are missing: it must end on a
    complete value (not a key, a colon or a string left open)."""
    if missing == "cut":
        raise ValueError("it is cut off in the middle of a string")
    body = source.rstrip()
    if body.endswith(","):
        body = body[:-1].rstrip()
    if body.endswith((":", "=")):
        raise ValueError("it is cut off after a key, before its value")
    return body + missing


def _literal(source: str):
    """A Python-literal reading of `source`, JSON's words taken as Python's, a bare word as an
    object's key taken as that key written in quotes."""
    tree = ast.parse(_quoted_keys(python_words(source)).strip(), mode="eval")
    value = ast.literal_eval(tree)
    if isinstance(value, tuple):
        value = list(value)
    json.dumps(value)  # only what JSON can say: no sets, bytes or complex numbers
    return value


_WORD = re.compile(r"[A-Za-z_]\w*")
# A bare word where an object's key goes (after "{" or ",", before ":"), outside strings: no literal
# has a name there, so quoting it changes no value that reads. Qwen2.5-Coder 0.5B wrote
# `required: ["locator", "text"]` in type_text's arguments (bench rows 0964a2e, contact-billing),
# and five replies were told they held no call.
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_]\w*)(\s*:)")


def _quoted_keys(source: str) -> str:
    """`source` with each bare key outside strings written in double quotes."""
    out, i, plain = [], 0, 0
    while i < len(source):
        if source[i] in "\"'":
            out.append(_BARE_KEY.sub(r'\1"\2"\3', source[plain:i]))
            end = i + 1
            while end < len(source) and source[end] != source[i]:
                end += 2 if source[end] == "\\" else 1
            out.append(source[i:end + 1])
            i = plain = end + 1
        else:
            i += 1
    out.append(_BARE_KEY.sub(r'\1"\2"\3', source[plain:]))
    return "".join(out)


def python_words(source: str) -> str:
    """true/false/null outside strings written as Python's True/False/None."""
    out, quote, i = [], None, 0
    while i < len(source):
        char = source[i]
        if quote:
            step = 2 if char == "\\" else 1
            out.append(source[i:i + step])
            quote = None if char == quote else quote
            i += step
        elif word := _WORD.match(source, i):
            out.append(_JSON_WORDS.get(word[0], word[0]))
            i = word.end()
        else:
            quote = char if char in "\"'" else None
            out.append(char)
            i += 1
    return "".join(out)
