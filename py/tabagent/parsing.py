"""Reading actions out of a model's reply, forgiving the mistakes weak models make.

- Tool calls written in the content are read by text_calls.py.
- Code in a fence with the wrong language tag, tildes, <code> tags, or a missing
  closing fence is recovered when there is only one reading of it.
- Arguments are read leniently; those that cannot be read raise `ValueError` with the
  parser's message, which the agent hands back to the model.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Collection

from .lenient_json import read_value


def parse_arguments(text: str) -> dict:
    """A tool call's arguments text as a dict; ValueError says what is wrong.

    Read leniently (lenient_json.py): Python literals, trailing commas and missing closing
    brackets are forgiven; what has more than one reading is not."""
    if not text or not text.strip():
        return {}  # some servers send "" for a call without arguments
    text = text.strip()
    try:
        value = json.loads(text)
        if isinstance(value, str):  # double-encoded by some models
            value = json.loads(value)
    except ValueError as strict:
        value = _lenient(text, strict)
    if not isinstance(value, dict):
        raise ValueError(f"the arguments must be a JSON object like {{\"name\": value}}, "
                         f"got {text[:200]}")
    return value


def _lenient(text: str, strict: ValueError):
    if text[:1] not in "{[":
        raise ValueError(f"the arguments are not valid JSON ({strict}): {text[:200]}")
    try:
        value, end = read_value(text)
    except ValueError as e:
        raise ValueError(f"the arguments are not valid JSON ({e}): {text[:200]}") from None
    if text[end:].strip():
        raise ValueError(f"the arguments are not valid JSON ({strict}): {text[:200]}")
    return value


_PYTHON_TAGS = {"", "py", "python", "python3", "py3", "ipython", "tool_code", "code"}
_FENCED = re.compile(r"(?P<fence>`{3,}|~{3,})[ \t]*(?P<tag>[\w+.-]*)[^\n`]*\n(?P<code>.*?)(?P=fence)",
                     re.DOTALL)
_FENCE = re.compile(r"`{3,}|~{3,}")
_CODE_TAGS = re.compile(r"<code>(.*?)(?:</code>|$)", re.DOTALL)
_END_MARKERS = re.compile(r"\s*(<end_code>|<end_action>|</code>)\s*$")


def find_code(content: str, tool_names: Collection[str] = ()) -> str | None:
    """The Python code in a reply, or None when the reply holds no code."""
    blocks = [m["code"] for m in _FENCED.finditer(content) if m["tag"].lower() in _PYTHON_TAGS
              and (m["tag"] or _is_python(m["code"]))]  # an untagged block of something else quotes
    if not blocks and "<code>" in content:
        blocks = _CODE_TAGS.findall(content)
    if not blocks and len(_FENCE.findall(content)) == 1:
        # One opening fence and no closing one: the code runs to the end of the reply.
        opening = re.search(r"(`{3,}|~{3,})[ \t]*([\w+.-]*)[^\n]*\n", content)
        if opening and opening[2].lower() in _PYTHON_TAGS:
            blocks = [content[opening.end():]]
    blocks = [_END_MARKERS.sub("", b).strip("\n") for b in blocks]
    code = "\n\n".join(b for b in blocks if b.strip())
    if code:
        return code
    return content.strip() if _is_bare_tool_code(content, tool_names) else None


def _is_python(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def _is_bare_tool_code(content: str, tool_names) -> bool:
    """Code written with no fence at all: accept it only if it parses as Python and
    calls a known tool, since plain prose rarely does both."""
    try:
        tree = ast.parse(content.strip())
    except SyntaxError:
        return False
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in tool_names
               for n in ast.walk(tree))
