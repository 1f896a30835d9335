"""Reading actions out of a model's reply, forgiving the mistakes weak models make.

- A tool call written as JSON text in the content (bare, fenced, inside
  <tool_call> tags, or as a list) is recovered as a real call.
- Code in a fence with the wrong language tag, tildes, <code> tags, or a missing
  closing fence is recovered when there is only one reading of it.
- Arguments that are not valid JSON raise `ValueError` with the parser's message,
  which the agent hands back to the model.
"""

from __future__ import annotations

import ast
import json
import re

from .replies import ToolCall, new_call_id

_NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARG_KEYS = ("arguments", "parameters", "args", "input")
_CALL_KEYS = set(_NAME_KEYS) | set(_ARG_KEYS) | {"type", "id"}


def parse_arguments(text: str) -> dict:
    """A tool call's arguments text as a dict; ValueError says what is wrong."""
    if not text or not text.strip():
        return {}  # some servers send "" for a call without arguments
    try:
        value = json.loads(text)
        if isinstance(value, str):  # double-encoded by some models
            value = json.loads(value)
    except ValueError as e:
        raise ValueError(f"the arguments are not valid JSON ({e}): {text[:200]}") from None
    if not isinstance(value, dict):
        raise ValueError(f"the arguments must be a JSON object like {{\"name\": value}}, "
                         f"got {text[:200]}")
    return value


def find_json_tool_calls(content: str, tool_names) -> list[ToolCall]:
    """Tool calls the model wrote as JSON text instead of sending real tool calls."""
    if "{" not in content:
        return []
    decoder, calls, i = json.JSONDecoder(), [], 0
    while True:
        starts = [p for p in (content.find("{", i), content.find("[", i)) if p >= 0]
        if not starts:
            return calls
        i = min(starts)
        try:
            value, end = decoder.raw_decode(content, i)
        except ValueError:
            i += 1
            continue
        found = _as_calls(value, tool_names)
        calls.extend(found)
        i = end if found else i + 1


def _as_calls(value, tool_names) -> list[ToolCall]:
    if isinstance(value, list):
        return [call for item in value for call in _as_calls(item, tool_names)]
    if not isinstance(value, dict):
        return []
    if isinstance(value.get("tool_calls"), list):
        return _as_calls(value["tool_calls"], tool_names)
    function = value.get("function")
    if isinstance(function, dict):  # the OpenAI shape, written out as text
        return _as_calls(function, tool_names)
    name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
    arg_key = next((k for k in _ARG_KEYS if k in value), None)
    if name is None:
        return []
    # A known tool name is enough; an unknown one only counts in a clear call shape,
    # so the agent can say "no such tool" rather than take the JSON as the answer.
    if name not in tool_names and not (arg_key and set(value) <= _CALL_KEYS):
        return []
    arguments = value.get(arg_key, {}) if arg_key else {}
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return [ToolCall(new_call_id(), name, text)]


_PYTHON_TAGS = {"", "py", "python", "python3", "py3", "ipython", "tool_code", "code"}
_FENCED = re.compile(r"(?P<fence>`{3,}|~{3,})[ \t]*(?P<tag>[\w+.-]*)[^\n`]*\n(?P<code>.*?)(?P=fence)",
                     re.DOTALL)
_FENCE = re.compile(r"`{3,}|~{3,}")
_CODE_TAGS = re.compile(r"<code>(.*?)(?:</code>|$)", re.DOTALL)
_END_MARKERS = re.compile(r"\s*(<end_code>|<end_action>|</code>)\s*$")


def find_code(content: str, tool_names=()) -> str | None:
    """The Python code in a reply, or None when the reply holds no code."""
    blocks = [m["code"] for m in _FENCED.finditer(content) if m["tag"].lower() in _PYTHON_TAGS]
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


def _is_bare_tool_code(content: str, tool_names) -> bool:
    """Code written with no fence at all: accept it only if it parses as Python and
    calls a known tool, since plain prose rarely does both."""
    try:
        tree = ast.parse(content.strip())
    except SyntaxError:
        return False
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in tool_names
               for n in ast.walk(tree))
