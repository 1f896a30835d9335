"""Tool calls a model wrote in its text, in the shapes the model families are trained on.

A server that parses its model's template sends real tool calls; one that does not (or a
model that ignores it) leaves them in the content. `read_text_calls` finds them there:

- JSON calls, bare, fenced or inside any family's markers (Hermes/Qwen `<tool_call>`,
  Mistral `[TOOL_CALLS][...]`, Llama 3 `{"name", "parameters"}`, Granite and Phi-4-mini
  `<|tool_call|>`, `functools[...]`, Command-R's `<|START_ACTION|>`, Nemotron, LFM2,
  Apertus `{name: arguments}`, `{"tool_calls": [...]}`, the arguments flat beside the name as
  Qwen2.5-Coder-0.5B wrote final_answer), in Python-literal spelling too;
- a name, then its JSON arguments (Mistral `[TOOL_CALLS]name[ARGS]{...}`, DeepSeek
  `<｜tool▁call▁begin｜>`, gpt-oss `to=functions.name ... <|message|>`, Kimi-K2,
  Functionary `<function=name>` and `>>>name`);
- Python calls on a line of their own or after a marker (Llama 3.2 and Gemma 3
  `[name(a=1)]`, Llama 4 `<|python_start|>`, OLMo 3 `<function_calls>`, Llama 3.1
  `<|python_tag|>name.call(...)`, Gemini's `print(default_api.name(...))`), in Gemma 3's
  ```tool_code fence, or after NexusRaven's `Call:`;
- parameters as XML (Qwen3-Coder and Seed-OSS `<function=name><parameter=x>`, MiniMax-M2
  `<invoke name=...>`, DeepSeek V3.2 `<｜DSML｜invoke ...>`, Step3 `<steptml:invoke ...>`, GLM
  `<arg_key>`) or as Gemma's
  `call:name{key:<|"|>v<|"|>}`.

A call is read only where its family puts one (issue 46: a page's sample call, quoted by the
model, ran): after its family's marker, or bare (JSON, a Python line) when the calls end the
reply; never inside quoted text (code blocks, `inline code`, block quotes: quoted_text.py), but
for a fence that is the whole reply and Gemma's ```tool_code.

tests/unit/reply_shapes/ holds the recorded shapes, with where each came from.
`why_unread` says what is wrong with a reply that looks like a call but reads as none.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Collection
from typing import NamedTuple

from .lenient_json import python_words, read_value
from .quoted_text import quote_at, quoted_spans
from .replies import ToolCall, new_call_id

_NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARG_KEYS = ("arguments", "parameters", "args", "input")
_CALL_KEYS = set(_NAME_KEYS) | set(_ARG_KEYS) | {"type", "id", "tool_call_id"}
_NAME = r"([A-Za-z_][\w.-]*)"


class Found(NamedTuple):
    start: int
    end: int
    name: str
    arguments: str  # JSON text
    marked: bool  # after its family's marker (a tag, a special token), not bare JSON or Python


def read_text_calls(content: str, tools: Collection[str]) -> list[ToolCall]:
    """The calls written in `content` (`tools`: the names, or name -> Tool), in order."""
    return split_text_calls(content, tools)[1]


def split_text_calls(content: str, tools: Collection[str], anywhere: bool = False) -> tuple[str, list[ToolCall]]:
    """(what the model said before its calls, the calls): the panel shows the first in place
    of the streamed text once the calls are read (the `text_call` event). `anywhere`: quoted
    calls too, wherever they stand (to know what a page's text would make: page_quotes.py)."""
    if anywhere:  # every reading of every reader: what a page could make a model repeat
        found = [f for reader in _READERS for f in reader(content, tools)]
        return content, [ToolCall(new_call_id(), f.name, f.arguments) for f in found]
    for reader in _READERS:
        if found := _placed(content, reader(content, tools)):
            calls = [ToolCall(new_call_id(), f.name, f.arguments) for f in found]
            return _said_before(content, min(f.start for f in found)), calls
    return content, []


def _placed(content: str, found: list[Found]) -> list[Found]:
    """The calls that stand where their family puts one: never in quoted text; bare ones only
    when the calls end the reply (prose may come first: "I'll look.\n{...}")."""
    if not found:
        return found
    spans = quoted_spans(content)
    kept = []
    for call in found:
        span = quote_at(spans, call.start)
        if span is not None and span.kind != "call fence":
            continue
        if call.marked or span is not None or _ends_reply(content, call, found):
            kept.append(call)
    return kept


_CLOSERS = re.compile(r"(?:\s|`{3,}|~{3,}|</?[\w:|-]+>|<\|[^|>\s]*\|>|<｜[^｜\s]*｜>|[;,\]])*")


def _ends_reply(content: str, call: Found, found: list[Found]) -> bool:
    """Whether nothing but more calls, closing marks and white space follows `call`."""
    rest, cursor = [], call.end
    for other in sorted(f for f in found if f.start >= call.end):
        rest.append(content[cursor:other.start])
        cursor = max(cursor, other.end)
    rest.append(content[cursor:])
    return all(_CLOSERS.fullmatch(piece) for piece in rest)


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
    # gpt-oss: the recipient in the channel or in the role (then the channel); a content type, constrained or not
    r"to=functions\." + _NAME + r"(?:\s*<\|channel\|>\s*\w+)?\s*(?:(?:<\|constrain\|>)?\s*\w+)?\s*<\|message\|>",
    # Kimi-K2: functions.name:index
    r"<\|tool_call_begin\|>\s*(?:functions\.)?([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*?)(?::\d+)?"
    r"\s*<\|tool_call_argument_begin\|>",
    r"<function=" + _NAME + r">\s*(?=[{\[])",  # Functionary v3.1, Hermes 2 Pro
    r"<function name=\"" + _NAME + r"\">\s*(?=[{\[])",
    r"(?:^|>>>)" + _NAME + r"\n(?=\s*\{)",  # Functionary v3.2
)]
_ARGUMENTS_FENCE = re.compile(r"\s*(?:```(?:json)?\s*)?")


def _named_json_calls(content: str, tools) -> list[Found]:
    found = []
    for pattern in _NAME_THEN_ARGUMENTS:
        for match in pattern.finditer(content):
            name, bare = match[1], pattern is _NAME_THEN_ARGUMENTS[-1] and not match[0].startswith(">>>")
            if pattern is _NAME_THEN_ARGUMENTS[-1] and name not in tools:
                continue  # a bare word on a line of its own is a call only if it names a tool
            arguments, end = _arguments_after(content, match.end())
            found.append(Found(match.start(), end, name, arguments, not bare))
    return sorted(found)


def _arguments_after(content: str, at: int) -> tuple[str, int]:
    """The JSON text of the arguments at `at` (after an optional ```json fence), as written
    when it reads, else as much as is there, for the agent to say what is wrong; and where
    it ends."""
    at = _ARGUMENTS_FENCE.match(content, at).end()
    try:
        value, end = read_value(content, at)
    except ValueError:
        rest = re.split(r"<\||<｜|```|\[TOOL_CALLS\]|</function>", content[at:])[0]
        return rest.strip(), at + len(rest)
    return (json.dumps(value, ensure_ascii=False) if isinstance(value, dict) else content[at:end]), end


# --- JSON objects that are calls --------------------------------------------------------

def _json_calls(content: str, tools) -> list[Found]:
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
        marked = bool(found) and _MARKER_BEFORE.search(content, 0, i) is not None
        calls.extend(Found(i, end, name, arguments, marked) for name, arguments in found)
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
    tool = tools.get(name) if isinstance(tools, dict) else None
    if not arg_key:
        return [(name, _as_json(_flat_arguments(value, tool)))]
    arguments = value[arg_key]
    if isinstance(arguments, dict):  # the tool's own parameters written beside them, not given inside
        beside = _flat_arguments({k: v for k, v in value.items() if k != arg_key}, tool)
        arguments = {**beside, **arguments}
    return [(name, _as_json(arguments))]


def _flat_arguments(value: dict, tool) -> dict:
    """The arguments of a call written flat, beside its name: `{"name": "final_answer", "answer":
    "..."}` (Qwen2.5-Coder-0.5B, the real-model bench's kettle-price at f4ff431): the keys that
    are the tool's own parameters, else none (a tool's listing copied, name and description, is
    no call of it with a description). Those beside an "arguments" object join it where it lacks
    them: type_text's `text` written after the closing brace (kettle-euros, rows 0964a2e)."""
    parameters = ((getattr(tool, "parameters", None) or {}).get("properties") or {}) if tool is not None else {}
    return {key: given for key, given in value.items() if key in parameters and key not in _NAME_KEYS}


def _as_json(arguments) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


# --- Python calls ---------------------------------------------------------------------

_PYTHON_OPENERS = r"(?:<\|python_tag\|>|<\|python_start\|>|<\|tool_call_start\|>|<function_calls>)"
# A call on a line of its own, or after a family's opener: `[name(`, Gemini's `print(default_api.name(`.
_CALL_LINE = re.compile(r"(?:^[ \t]*(?P<opener>" + _PYTHON_OPENERS + r")?|(?P<after>" + _PYTHON_OPENERS + r"))"
                        r"[ \t]*\[?[ \t]*(?P<call>(?:print\(\s*)?(?:default_api\.)?)"
                        r"(?P<name>[A-Za-z_]\w*)(?:\.call)?\(", re.MULTILINE)


def _python_calls(content: str, tools) -> list[Found]:
    """Calls written as Python on a line of their own or after a family's marker (a mention
    inside a sentence is not one): `[click(locator="#b"), read_page()]`, one call a line,
    `<|python_tag|>name.call(a=1)`, Gemini's `print(default_api.name(a=1))`; JSON's
    true/false/null are taken as Python's."""
    calls, done = [], 0
    for match in _CALL_LINE.finditer(content):
        if match.start("name") < done or match["name"] not in tools:
            continue
        bracket = content.rfind("[", match.start(), match.start("call"))
        start = bracket if bracket >= 0 else match.start("call")
        try:
            segment = _balanced(content, start)
            tree = ast.parse(python_words(segment), mode="eval")
        except (SyntaxError, ValueError):
            continue
        nodes = tree.body.elts if isinstance(tree.body, ast.List) else [tree.body]
        marked = bool(match["opener"] or match["after"])
        found = [Found(match.start(), start + len(segment), *c, marked) for node in nodes
                 if (c := _python_call(node, tools))]
        calls.extend(found)
        done = start + len(segment) if found else done
    return calls


def _balanced(content: str, start: int) -> str:
    """The text from `start` to where its brackets close."""
    for i, char, depth in _unquoted(content, start):
        if char in ")]}" and depth == 0:
            return content[start:i + 1]
    raise ValueError("not closed")


def _unquoted(text: str, start: int = 0):
    """(position, character, bracket depth after it) of each character outside quoted strings."""
    depth, quote, i = 0, None, start
    while i < len(text):
        char = text[i]
        if quote:
            i += char == "\\"
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        else:
            depth += (char in "([{") - (char in ")]}")
            yield i, char, depth
        i += 1


def _python_call(node, tools) -> tuple[str, str] | None:
    node = _printed(node)
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "call":  # Llama 3.1's builtin tools
        func = func.value
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "default_api":
        func = ast.Name(func.attr)  # Gemini's namespace for the functions it was given
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


def _printed(node):
    """`print(call)` (Gemini writes its calls so) as the call itself."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print" \
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Call):
        return node.args[0]
    return node


# --- Gemma's ```tool_code fence, NexusRaven's `Call:` -------------------------------------

_TOOL_CODE = re.compile(r"^[ \t]{0,3}```tool_code[ \t]*\n(?P<code>.*?)(?:^[ \t]{0,3}```|\Z)", re.DOTALL | re.MULTILINE)
_NEXUS_RAVEN = re.compile(r"\A\s*Call:[ \t]*(?P<code>.*?)[ \t]*(?:<bot_end>|\n\s*Thought:|\Z)", re.DOTALL)


def _tool_code_calls(content: str, tools) -> list[Found]:
    """The calls in Gemma 3's ```tool_code fences (Google's Gemma cookbook): statements that
    call a tool, bare, printed or assigned (`summary = read_file(...)`); the rest is left."""
    found = []
    for fence in _TOOL_CODE.finditer(content):
        try:
            tree = ast.parse(python_words(fence["code"]))
        except SyntaxError:
            continue
        values = [statement.value for statement in tree.body if isinstance(statement, (ast.Expr, ast.Assign))]
        found += [Found(fence.start(), fence.end(), *c, True) for value in values if (c := _python_call(value, tools))]
    return found


def _nexus_raven_calls(content: str, tools) -> list[Found]:
    """NexusRaven-V2's `Call: f(a=1); g(b=2)<bot_end>` (its model card), a Thought after it."""
    match = _NEXUS_RAVEN.match(content)
    if match is None:
        return []
    found, at = [], match.start("code")
    for piece in _top_level_split(match["code"], ";"):
        try:
            node = ast.parse(python_words(piece.strip()), mode="eval").body
        except SyntaxError:
            return []
        if (call := _python_call(node, tools)) is None:
            return []  # a nested call, or not a tool: why_unread says so
        found.append(Found(at, at + len(piece), *call, True))
        at += len(piece) + 1
    return found


def nexus_raven_code(content: str) -> str | None:
    """NexusRaven's `Call:` line as the Python it is, each call printed: for a CodeAgent, where a
    nested call simply runs. None when the reply is not one, or is not Python."""
    match = _NEXUS_RAVEN.match(content)
    if match is None:
        return None
    lines = [f"print({piece.strip()})" for piece in _top_level_split(match["code"], ";") if piece.strip()]
    try:
        ast.parse("\n".join(lines))
    except SyntaxError:
        return None
    return "\n".join(lines) or None


def nested_call(content: str) -> str | None:
    """The inner call of NexusRaven's nested `Call: f(x=g(y=1))`, which cannot run as one call."""
    match = _NEXUS_RAVEN.match(content)
    try:
        tree = ast.parse(python_words(match["code"].split(";")[0].strip()), mode="eval") if match else None
    except SyntaxError:
        return None
    inner = [n for n in ast.walk(tree.body) if isinstance(n, ast.Call) and n is not tree.body] if tree else []
    return ast.unparse(inner[0]) if inner else None


def _top_level_split(text: str, separator: str) -> list[str]:
    pieces, start = [], 0
    for i, char, depth in _unquoted(text):
        if char == separator and depth == 0:
            pieces.append(text[start:i])
            start = i + 1
    return [*pieces, text[start:]]


def _parameter_names(tools, name: str) -> list[str]:
    tool = tools.get(name) if isinstance(tools, dict) else None
    return list(tool.parameters["properties"]) if tool is not None else []


# --- Parameters as XML, or Gemma's call:name{...} ---------------------------------------

_XML_FUNCTION = re.compile(r"<function=" + _NAME + r">(.*?)(?:</function>|$)", re.DOTALL)
_XML_PARAMETER = re.compile(r"<parameter=(?P<key>[^>\s]+)>\s*(?P<value>.*?)\s*</parameter>", re.DOTALL)
# MiniMax-M2's <invoke>, DeepSeek V3.2's <｜DSML｜invoke> whose string="true" keeps a value text,
# and Step3's <steptml:invoke>.
_INVOKE = re.compile(r"<(?:｜DSML｜|steptml:)?invoke name=\"" + _NAME + r"\">(.*?)(?:</(?:｜DSML｜|steptml:)?invoke>|$)",
                     re.DOTALL)
_INVOKE_PARAMETER = re.compile(r"<(?:｜DSML｜|steptml:)?parameter name=\"(?P<key>[^\"]+)\""
                               r"(?: string=\"(?P<string>true|false)\")?>"
                               r"\s*(?P<value>.*?)\s*</(?:｜DSML｜|steptml:)?parameter>", re.DOTALL)
_GLM_CALL = re.compile(r"<tool_call>\s*" + _NAME + r"\s*(<arg_key>.*?)(?:</tool_call>|$)", re.DOTALL)
_GLM_PARAMETER = re.compile(r"<arg_key>\s*(?P<key>.*?)\s*</arg_key>\s*"
                            r"<arg_value>\s*(?P<value>.*?)\s*</arg_value>", re.DOTALL)
_GEMMA_CALL = re.compile(r"(?:<\|tool_call>|<start_function_call>)\s*call:" + _NAME + r"\s*\{")
_GEMMA_QUOTES = ("<|\"|>", "<escape>")
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_][\w-]*)\s*:")


def _xml_calls(content: str, tools) -> list[Found]:
    for function, parameter in ((_XML_FUNCTION, _XML_PARAMETER), (_INVOKE, _INVOKE_PARAMETER),
                                (_GLM_CALL, _GLM_PARAMETER)):
        calls = [Found(m.start(), m.end(), m[1], json.dumps(_xml_parameters(parameter, m[2]), ensure_ascii=False), True)
                 for m in function.finditer(content) if parameter.search(m[2]) or not m[2].strip()]
        if calls:
            return calls
    return [Found(m.start(), _gemma_end(content, m.end()), m[1], _gemma_arguments(content, m.end() - 1), True)
            for m in _GEMMA_CALL.finditer(content)]


def _gemma_end(content: str, at: int) -> int:
    ends = [i + len(mark) for mark in ("<tool_call|>", "<end_function_call>") if (i := content.find(mark, at)) >= 0]
    return min(ends) if ends else len(content)


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


_READERS = (_named_json_calls, _xml_calls, _json_calls, _tool_code_calls, _nexus_raven_calls, _python_calls)


# --- Replies that look like a call but read as none --------------------------------------

_CALL_MARKERS = re.compile("|".join(re.escape(m) for m in (
    "<tool_call", "</tool_call>", "[TOOL_CALLS]", "<|tool_call", "<｜tool▁call", "<｜tool▁calls",
    "to=functions.", "<function=", "<function name=", "<invoke name=", "<|python_tag|>",
    "<|python_start|>", "<function_calls>", "functools[", "<TOOLCALL>", "<|START_ACTION|>",
    "<start_function_call>", "<|tools_prefix|>", "<minimax:tool_call>", "<seed:tool_call>",
    "<|tool_calls_section_begin|>", "<｜DSML｜", "<｜tool_calls_begin｜>", "<steptml:invoke",
)))
# A marker, special token or tag right before a JSON call: the call is not bare.
_MARKER_BEFORE = re.compile(r"(?:" + _CALL_MARKERS.pattern + r"|functools|<\|[^|>\s]*\|>|<｜[^｜\s]*｜>"
                            r"|<[A-Za-z_][\w:-]*>)\s*$")
_OPENER = re.compile(r"(?:(?:`{3,}|~{3,})[\w+.-]*|<[\w:-]+>|functools|>>>"
                     r"|(?:<\|start\|>\w+)?<\|channel\|>\w+)\s*$")
# Special tokens, and gpt-oss's message headers (`<|start|>assistant<|channel|>final<|message|>`).
_SPECIAL_TOKEN = re.compile(r"(?:<\|start\|>\w+)?<\|channel\|>[^<]*<\|message\|>"
                            r"|<\|[^|>\s]*\|>|<｜[^｜\s]*｜>")
_JSON_CALL = re.compile(r"""["']?(?:name|tool|tool_name)["']?\s*:\s*["'][\w.-]+["'][\s\S]*"""
                        r"""["']?(?:arguments|parameters|args)["']?\s*:""")


QUOTED = ("it is inside quoted text (a code block, a quote or `inline code`), which is never run. "
          "To call a tool, write the call itself, outside any code block")
MID_REPLY = ("it stands in the middle of your reply, where a call is not read. Send the call alone, "
             "or at the end of your reply")
NESTED = ("{inner} is inside another call's arguments, and each call runs on its own. Call {inner} "
          "first; then use what it returns")


def why_unread(content: str, tools: Collection[str]) -> str | None:
    """What is wrong with a reply that looks like a tool call but reads as none ("" when that
    cannot be said; None when it does not look like a call: then it is prose)."""
    if (inner := nested_call(content)) is not None:
        return NESTED.format(inner=inner)
    unplaced = _unplaced(content, tools)
    if unplaced == "" and (garbled := _garbled_call(content)) is not None:
        return f"the arguments are not valid JSON ({garbled})"  # not an answer quoting a call: a call that failed
    if unplaced is not None:  # a call where no family puts one: told when the reply ends so, else prose
        return unplaced or None
    marker = _CALL_MARKERS.search(content)
    python = _names_a_call(content, tools)
    if marker is None and not _JSON_CALL.search(content) and not python:
        return None
    where = content[marker.start():] if marker else content
    i = _next_bracket(where, 0)
    if i < 0:
        return ("the Python call is not complete: a bracket or a quote is not closed" if python
                else "no arguments were found after the tool's name")
    while i >= 0:  # each call written: one that reads may come before one that does not
        try:
            _, end = read_value(where, i)
        except ValueError as e:
            return f"the arguments are not valid JSON ({e})"
        i = _next_bracket(where, end) if _JSON_CALL.search(where, end) else -1
    return "" if marker or python else None  # JSON that reads but is no call: data, not a call


_OBJECT_NAMING = re.compile(r"""\{\s*["']?(?:name|tool|tool_name)["']?\s*:""")


def _garbled_call(content: str) -> str | None:
    """Why the first object written like a call ({"name": ..., "arguments": ...}) does not read
    as JSON, or None when every one reads (report-link at 0964a2e: one that read, then one that
    did not, was taken for an answer quoting calls)."""
    for match in _OBJECT_NAMING.finditer(content):
        written = _JSON_CALL.search(content, match.start())
        if written is None or written.start() > match.end():  # named, but no arguments: data
            continue
        try:
            read_value(content, match.start())
        except ValueError as e:
            return str(e)
    return None


def quotes_a_call(content: str, tools: Collection[str]) -> bool:
    """Whether the reply quotes a call of one of `tools` (in a code block, a quote or `inline
    code`) with more of the reply after it, and makes none: read as an answer that quotes one."""
    return _unplaced(content, tools) == ""


def _names_a_call(content: str, tools) -> bool:
    """A Python call of a tool left open (cut off): one that closes is code or prose."""
    for match in _CALL_LINE.finditer(content):
        if match["name"] in tools:
            try:
                _balanced(content, match.start("call"))
            except ValueError:
                return True
    return False


def _unplaced(content: str, tools) -> str | None:
    """What to tell of calls read where no family puts one: in quoted text (told when the quote
    ends the reply: a call in a code block, not an answer that quotes one), or bare before more
    of the reply. "" when they are an answer's; None when there are none."""
    spans = quoted_spans(content)
    for reader in _READERS:
        found = reader(content, tools)
        if not found or _placed(content, found):
            continue
        quoted = [f for f in found if quote_at(spans, f.start)]
        if quoted:
            return QUOTED if _ends_reply(content, max(quoted, key=lambda f: f.end), quoted) else ""
        return MID_REPLY
    return None
