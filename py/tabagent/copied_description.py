"""An argument whose value is its parameter's description, copied from the tool's list.

Qwen2.5-Coder-0.5B, as TabAgent's ToolCallingAgent on the real-model bench (closed-day, rows at
3c8b898, 2026-12-07), called list_controls twice with `within` set to "form or dialog (locator or
CSS selector): only its controls.", the schema's description of `within` less its first word. No
value says what its parameter is for in the parameter's own words: such a call is refused with
that said, so the model can leave the argument out or give a value.

A value copies the description when it has at least 3 words, at least 4 in 5 of its words are
the description's, and 3 of them in a row stand in the description in that order (words: runs of
letters and digits, in lower case). A value that shares a word or two with its description
("form" for "a form or dialog") is a value.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")
RUN = 3


def copies_description(value: object, description: object) -> bool:
    if not isinstance(value, str) or not isinstance(description, str):
        return False
    said, described = _WORD.findall(value.lower()), _WORD.findall(description.lower())
    if len(said) < RUN or not described:
        return False
    known = set(described)
    if sum(word in known for word in said) * 5 < len(said) * 4:
        return False
    runs = {tuple(described[i:i + RUN]) for i in range(len(described) - RUN + 1)}
    return any(tuple(said[i:i + RUN]) in runs for i in range(len(said) - RUN + 1))
