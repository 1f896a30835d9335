"""Tool calls a model wrote in its text, in the shapes the model families are trained on.

A server that parses its model's template sends real tool calls; one that does not (or a
model that ignores it) leaves them in the content. `read_text_calls` finds them there:

- JSON calls, bare, fenced or inside any family's markers (Hermes/Qwen `<tool_call>`,
  Mistral `[TOOL_CALLS][...]`, Llama 3 `{"name", "parameters"}`, Granite and Phi-4-mini
  `<|tool_call|>`, `functools[...]`, Command-R's `<|START_ACTION|>`, Nemotron, LFM2,
  Apertus `{name: arguments}`, `{"tool_calls": [...]}`), in Python-literal spelling too;
- a name, then its JSON arguments (Mistral `[TOOL_CALLS]name[ARGS]{...}`, DeepSeek
  `<｜tool▁call▁begin｜>`, gpt-oss `to=functions.name ... <|message|>`, Kimi-K2,
  Functionary `<function=name>` and `>>>name`);
- Python calls on a line of their own or after a marker (Llama 3.2 and Gemma 3
  `[name(a=1)]`, Llama 4 `<|python_start|>`, OLMo 3 `<function_calls>`, Llama 3.1
  `<|python_tag|>name.call(...)`);
- parameters as XML (Qwen3-Coder and Seed-OSS `<function=name><parameter=x>`, MiniMax-M2
  `<invoke name=...>`, DeepSeek V3.2 `<｜DSML｜invoke ...>`, GLM `<arg_key>`) or as Gemma's
  `call:name{key:<|"|>v<|"|>}`.

tests/unit/reply_shapes/ holds the recorded shapes, with where each came from.
`why_unread` says what is wrong with a reply that looks like a call but reads as none.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Collection

from .lenient_json import python_words, read_value
from .replies import ToolCall, new_call_id

_NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARG_KEYS = ("arguments", "parameters", "args", "input")
_CALL_KEYS = set(_NAME_KEYS) | set(_ARG_KEYS) | {"type", "id", "tool_call_id"}
_NAME = r"([A-Za-z_][\w.-]*)"


def read_text_calls(content: str, tools: Collection[str]) -> list[ToolCall]:
    """The calls written in `content` (`tools`: the names, or name -> Tool), in order."""
    return split_text_calls(content, tools)[1]


def split_text_calls(content: str, tools: Collection[str]) -> tuple[str, list[ToolCall]]:
    """(what the model said before its calls, the calls): the panel shows the first in place
    of the streamed text once the calls are read (the `text_call` event)."""
    for reader in (_named_json_calls, _xml_calls, _json_calls, _python_calls):
        found = reader(content, tools)
        if found:
            calls = [ToolCall(new_call_id(), name, arguments) for _, name, arguments in found]
            return _said_before(content, min(start for start, _, _ in found)), calls
    return content, []


def _said_before(content: str, start: int) -> str:
    marker = _CALL_MARKERS.search(content, 0, start)
    said = content[:marker.start() if marker else start]
    while (opener := _OPENER.search(said)) is not None and said.strip():
        said = said[:opener.start()]  # the fence, tag or word that opened the call
    return _SPECIAL_TOKEN.sub("\n", said).strip()


# --- A name, then its arguments as JSON ------------------------------------------------

_NAME_THEN_ARGUMENTS = [re.compile(p) for p in (
    r"\[TOOL_CALLS\]\s*" + _NAME + r"\s*(?:\[CALL_ID\]\w+)?\s*(?:\[ARGS\])?\s*(?=[{\[])",  # Mistral v11+
    r"<｜tool▁call▁begin｜>\s*(?:function)?\s*<｜tool▁sep｜>\s*" + _NAME,  # DeepSeek R1/V3
    r"<｜tool▁calls｜>\s*function\s*<｜tool▁sep｜>\s*" + _NAME,
    # DeepSeek V3.1
    r"<｜tool▁call▁begin｜>(?!\s*function\s*<｜tool▁sep｜>)\s*" + _NAME + r"\s*<｜tool▁sep｜>",
    # gpt-oss
    r"to=functions\." + _NAME + r"(?:\s*<\|channel\|>\s*\w+)?\s*(?:<\|constrain\|>\s*\w+)?\s*<\|message\|>",
    # Kimi-K2: functions.name:index
    r"<\|tool_call_begin\|>\s*(?:functions\.)?([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*?)(?::\d+)?"
    r"\s*<\|tool_call_argument_begin\|>",
    r"<function=" + _NAME + r">\s*(?=[{\[])",  # Functionary v3.1, Hermes 2 Pro
    r"<function name=\"" + _NAME + r"\">\s*(?=[{\[])",
    r"(?:^|>>>)" + _NAME + r"\n(?=\s*\{)",  # Functionary v3.2
)]
_ARGUMENTS_FENCE = re.compile(r"\s*(?:```(?:json)?\s*)?")


def _named_json_calls(content: str, tools) -> list[tuple[int, str, str]]:
    found = []
    for pattern in _NAME_THEN_ARGUMENTS:
        for match in pattern.finditer(content):
            name = match[1]
            if pattern is _NAME_THEN_ARGUMENTS[-1] and name not in tools:
                continue  # a bare word on a line of its own is a call only if it names a tool
            found.append((match.start(), name, _arguments_after(content, match.end())))
    return sorted(found)


def _arguments_after(content: str, at: int) -> str:
    """The JSON text of the arguments at `at` (after an optional ```json fence), as written
    when it reads, else as much as is there, for the agent to say what is wrong."""
    at = _ARGUMENTS_FENCE.match(content, at).end()
    try:
        value, end = read_value(content, at)
    except ValueError:
        rest = content[at:]
        return re.split(r"<\||<｜|```|\[TOOL_CALLS\]|</function>", rest)[0].strip()
    return json.dumps(value, ensure_ascii=False) if isinstance(value, dict) else content[at:end]


# --- JSON objects that are calls --------------------------------------------------------

def _json_calls(content: str, tools) -> list[tuple[int, str, str]]:
    if "{" not in content:
        return []
    calls, i = [], 0
    while (i := _next_bracket(content, i)) >= 0:
        try:
            value, end = _strict_or_call_like(content, i, tools)
        except ValueError:
            i += 1
            continue
        found = _as_calls(value, tools)
        calls.extend((i, name, arguments) for name, arguments in found)
        i = end if found else i + 1
    return calls


_END_MARK = re.compile(r"</\w|<\|/?\w+\|>|<｜|```")
_CALL_KEY = re.compile(r"""["']?(?:name|tool|tool_name|function|tool_calls|tool_call)["']?\s*:""")


def _strict_or_call_like(content: str, i: int, tools):
    """The JSON value at `i`; read leniently only when a call's key or a tool's name comes
    soon after, so prose and code full of brackets are not read over and over."""
    try:
        return json.JSONDecoder().raw_decode(content, i)
    except ValueError:
        ahead = content[i:i + 300]
        if not _CALL_KEY.search(ahead) and not any(f'"{name}"' in ahead for name in tools):
            raise
    end = _END_MARK.search(content, i)  # a call left open ends where its family's end marker is
    return read_value(content[:end.start()] if end else content, i)


def _next_bracket(content: str, i: int) -> int:
    starts = [p for p in (content.find("{", i), content.find("[", i)) if p >= 0]
    return min(starts) if starts else -1


def _as_calls(value, tools) -> list[tuple[str, str]]:
    if isinstance(value, list):
        return [call for item in value for call in _as_calls(item, tools)]
    if not isinstance(value, dict):
        return []
    for wrapper in ("tool_calls", "tool_call", "function_call"):
        if isinstance(value.get(wrapper), (list, dict)):
            return _as_calls(value[wrapper], tools)
    if isinstance(value.get("function"), dict):  # the OpenAI shape, written out as text
        return _as_calls(value["function"], tools)
    if len(value) == 1 and next(iter(value)) in tools and isinstance(next(iter(value.values())), dict):
        return [(name, _as_json(arguments)) for name, arguments in value.items()]  # Apertus
    return _named_call(value, tools)


def _named_call(value: dict, tools) -> list[tuple[str, str]]:
    name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
    arg_key = next((k for k in _ARG_KEYS if k in value), None)
    if name is None:
        return []
    # A known tool name is enough; an unknown one only counts in a clear call shape,
    # so the agent can say "no such tool" rather than take the JSON as the answer.
    if name not in tools and not (arg_key and set(value) <= _CALL_KEYS):
        return []
    return [(name, _as_json(value.get(arg_key, {}) if arg_key else {}))]


def _as_json(arguments) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


# --- Python calls ---------------------------------------------------------------------

_PYTHON_OPENERS = r"(?:<\|python_tag\|>|<\|python_start\|>|<\|tool_call_start\|>|<function_calls>)"
_CALL_LINE = re.compile(r"(?:^[ \t]*" + _PYTHON_OPENERS + r"?|" + _PYTHON_OPENERS + r")[ \t]*\[?[ \t]*"
                        r"([A-Za-z_]\w*)(?:\.call)?\(", re.MULTILINE)


def _python_calls(content: str, tools) -> list[tuple[int, str, str]]:
    """Calls written as Python on a line of their own or after a family's marker (a mention
    inside a sentence is not one): `[click(locator="#b"), read_page()]`, one call a line,
    `<|python_tag|>name.call(a=1)`; JSON's true/false/null are taken as Python's."""
    calls, done = [], 0
    for match in _CALL_LINE.finditer(content):
        if match.start(1) < done or match[1] not in tools:
            continue
        bracket = content.rfind("[", match.start(), match.start(1))
        start = bracket if bracket >= 0 else match.start(1)
        try:
            segment = _balanced(content, start)
            tree = ast.parse(python_words(segment), mode="eval")
        except (SyntaxError, ValueError):
            continue
        nodes = tree.body.elts if isinstance(tree.body, ast.List) else [tree.body]
        found = [(match.start(), *c) for node in nodes if (c := _python_call(node, tools))]
        calls.extend(found)
        done = start + len(segment) if found else done
    return calls


def _balanced(content: str, start: int) -> str:
    """The text from `start` to where its brackets close."""
    depth, quote, i = 0, None, start
    while i < len(content):
        char = content[i]
        if quote:
            i += char == "\\"
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return content[start:i + 1]
        i += 1
    raise ValueError("not closed")


def _python_call(node, tools) -> tuple[str, str] | None:
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "call":  # Llama 3.1's builtin tools
        func = func.value
    if not isinstance(func, ast.Name) or func.id not in tools:
        return None
    try:
        arguments = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
        positional = [ast.literal_eval(a) for a in node.args]
    except ValueError:
        return None
    names = _parameter_names(tools, func.id)
    if len(positional) > len(names):
        return None
    arguments = {**dict(zip(names, positional)), **arguments}
    return func.id, json.dumps(arguments, ensure_ascii=False)


def _parameter_names(tools, name: str) -> list[str]:
    tool = tools.get(name) if isinstance(tools, dict) else None
    return list(tool.parameters["properties"]) if tool is not None else []


# --- Parameters as XML, or Gemma's call:name{...} ---------------------------------------

_XML_FUNCTION = re.compile(r"<function=" + _NAME + r">(.*?)(?:</function>|$)", re.DOTALL)
_XML_PARAMETER = re.compile(r"<parameter=(?P<key>[^>\s]+)>\s*(?P<value>.*?)\s*</parameter>", re.DOTALL)
# MiniMax-M2's <invoke>, and DeepSeek V3.2's <｜DSML｜invoke> whose string="true" keeps a value text.
_INVOKE = re.compile(r"<(?:｜DSML｜)?invoke name=\"" + _NAME + r"\">(.*?)(?:</(?:｜DSML｜)?invoke>|$)",
                     re.DOTALL)
_INVOKE_PARAMETER = re.compile(r"<(?:｜DSML｜)?parameter name=\"(?P<key>[^\"]+)\""
                               r"(?: string=\"(?P<string>true|false)\")?>"
                               r"\s*(?P<value>.*?)\s*</(?:｜DSML｜)?parameter>", re.DOTALL)
_GLM_CALL = re.compile(r"<tool_call>\s*" + _NAME + r"\s*(<arg_key>.*?)(?:</tool_call>|$)", re.DOTALL)
_GLM_PARAMETER = re.compile(r"<arg_key>\s*(?P<key>.*?)\s*</arg_key>\s*"
                            r"<arg_value>\s*(?P<value>.*?)\s*</arg_value>", re.DOTALL)
_GEMMA_CALL = re.compile(r"(?:<\|tool_call>|<start_function_call>)\s*call:" + _NAME + r"\s*\{")
_GEMMA_QUOTES = ("<|\"|>", "<escape>")
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_][\w-]*)\s*:")


def _xml_calls(content: str, tools) -> list[tuple[int, str, str]]:
    for function, parameter in ((_XML_FUNCTION, _XML_PARAMETER), (_INVOKE, _INVOKE_PARAMETER),
                                (_GLM_CALL, _GLM_PARAMETER)):
        calls = [(m.start(), m[1], json.dumps(_xml_parameters(parameter, m[2]), ensure_ascii=False))
                 for m in function.finditer(content) if parameter.search(m[2]) or not m[2].strip()]
        if calls:
            return calls
    return [(m.start(), m[1], _gemma_arguments(content, m.end() - 1)) for m in _GEMMA_CALL.finditer(content)]


def _xml_parameters(parameter, body: str) -> dict:
    return {m["key"]: m["value"] if m.groupdict().get("string") == "true" else _xml_value(m["value"])
            for m in parameter.finditer(body)}


def _xml_value(text: str):
    """A parameter's text: a JSON value when it is one (numbers, lists), else the string.
    The tool's schema converts what remains (tools.py)."""
    try:
        value, end = read_value(text) if text[:1] in "[{" else (json.loads(text), len(text))
        return value if end == len(text) else text
    except ValueError:
        return text


def _gemma_arguments(content: str, at: int) -> str:
    """Gemma's `{key:<|"|>text<|"|>,n:3}` as JSON text: its strings quoted, its keys too."""
    quote = next((q for q in _GEMMA_QUOTES if q in content[at:]), _GEMMA_QUOTES[0])
    pieces = content[at:].split(quote)
    text = "".join(json.dumps(piece) if i % 2 else _BARE_KEY.sub(r'\1"\2":', piece)
                   for i, piece in enumerate(pieces))
    try:
        value, _ = read_value(text)
    except ValueError:
        return text.split("<")[0]
    return json.dumps(value, ensure_ascii=False)


# --- Replies that look like a call but read as none --------------------------------------

_CALL_MARKERS = re.compile("|".join(re.escape(m) for m in (
    "<tool_call", "</tool_call>", "[TOOL_CALLS]", "<|tool_call", "<｜tool▁call", "<｜tool▁calls",
    "to=functions.", "<function=", "<function name=", "<invoke name=", "<|python_tag|>",
    "<|python_start|>", "<function_calls>", "functools[", "<TOOLCALL>", "<|START_ACTION|>",
    "<start_function_call>", "<|tools_prefix|>", "<minimax:tool_call>", "<seed:tool_call>",
    "<|tool_calls_section_begin|>", "<｜DSML｜",
)))
_OPENER = re.compile(r"(?:(?:`{3,}|~{3,})[\w+.-]*|<[\w:-]+>|functools|>>>"
                     r"|(?:<\|start\|>\w+)?<\|channel\|>\w+)\s*$")
# Special tokens, and gpt-oss's message headers (`<|start|>assistant<|channel|>final<|message|>`).
_SPECIAL_TOKEN = re.compile(r"(?:<\|start\|>\w+)?<\|channel\|>[^<]*<\|message\|>"
                            r"|<\|[^|>\s]*\|>|<｜[^｜\s]*｜>")
_JSON_CALL = re.compile(r"""["']?(?:name|tool|tool_name)["']?\s*:\s*["'][\w.-]+["'][\s\S]*"""
                        r"""["']?(?:arguments|parameters|args)["']?\s*:""")


def why_unread(content: str, tools: Collection[str]) -> str | None:
    """What is wrong with a reply that looks like a tool call but reads as none ("" when that
    cannot be said; None when it does not look like a call: then it is prose)."""
    marker = _CALL_MARKERS.search(content)
    python = _names_a_call(content, tools)
    if marker is None and not _JSON_CALL.search(content) and not python:
        return None
    where = content[marker.start():] if marker else content
    i = _next_bracket(where, 0)
    if i < 0:
        return ("the Python call is not complete: a bracket or a quote is not closed" if python
                else "no arguments were found after the tool's name")
    try:
        read_value(where, i)
    except ValueError as e:
        return f"the arguments are not valid JSON ({e})"
    return "" if marker or python else None  # JSON that reads but is no call: data, not a call


def _names_a_call(content: str, tools) -> bool:
    """A Python call of a tool left open (cut off): one that closes is code or prose."""
    for match in _CALL_LINE.finditer(content):
        if match[1] in tools:
            try:
                _balanced(content, match.start(1))
            except ValueError:
                return True
    return False
