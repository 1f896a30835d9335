"""Tools: Python functions the model can call.

`@tool` reads a function's type hints and the `Args:` section of its docstring to
make the JSON schema the model sees. Subclass `Tool` for tools that keep state.
Arguments are converted to the schema's types where only one reading exists ("2" for an
integer: conversions.py), then checked against the schema before the call; `ToolInputError`
says exactly what was wrong so the model can fix its call.
"""

from __future__ import annotations

import collections.abc
import inspect
import json
import re
import types
import typing
import weakref
from collections.abc import Callable
from functools import cached_property
from typing import Any, Literal, Union

from .code_names import is_python_name, python_name
from .conversions import convert, is_of_type
from .copied_description import copies_description


class ToolInputError(ValueError):
    """The model called a tool with missing, unexpected or wrongly typed arguments."""


class Tool:
    name: str = ""
    description: str = ""
    # A JSON schema object ({"type": "object", "properties": ..., "required": ...}),
    # or the smolagents shorthand {name: {"type": ..., "description": ...}}.
    inputs: dict = {}
    output_type: str = "string"
    # Size knobs (max_results...): accepted with their defaults, but out of the schema the
    # model is shown; its description names them with their defaults, in a few words.
    unlisted: tuple[str, ...] = ()
    # It changes what other tools see (acting on a page, choosing the tab, asking the user): in a
    # reply of several calls it waits for the calls before it, and the calls after it wait for it;
    # the same call again is another act, never a repeat to tell the model of (call_log.py).
    acts: bool = False

    def forward(self, *args: Any, **arguments: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__}.forward")

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        arguments = self.bind(args, kwargs)
        self.validate(arguments)
        result = self.forward(**arguments)
        if inspect.isawaitable(result):
            result = await result
        return result

    @cached_property
    def parameters(self) -> dict:
        """`inputs` as a full JSON schema object."""
        if "properties" in self.inputs:
            return {"type": "object", **self.inputs}  # no empty "required"
        required = [n for n, s in self.inputs.items() if not s.get("nullable") and "default" not in s]
        return {"type": "object", "properties": dict(self.inputs), **({"required": required} if required else {})}

    def bind(self, args: tuple, kwargs: dict) -> dict:
        """Positional arguments (as model-written code passes them) to names."""
        names = list(self.parameters["properties"])
        if len(args) > len(names):
            raise ToolInputError(f"{self.name}() takes at most {len(names)} arguments "
                                 f"({', '.join(names)}), got {len(args)}")
        arguments = dict(zip(names, args))
        for name in kwargs:
            if name in arguments:
                raise ToolInputError(f"{self.name}() got argument '{name}' twice")
        arguments.update(kwargs)
        return arguments

    def validate(self, arguments: dict) -> None:
        schema = self.parameters
        props, required = schema["properties"], schema.get("required", [])
        for name in [n for n, v in arguments.items() if n not in required and (v is None or blank(v, props.get(n)))]:
            del arguments[name]  # weak models send null, or "" where no text goes, for "not given"
        for name in [n for n in arguments if n in props]:  # "2" for an integer, ... (conversions.py)
            arguments[name] = convert(arguments[name], props[name])
        problems = [f"missing required argument '{n}'" for n in required if n not in arguments]
        problems += [f"unexpected argument '{n}'" for n in arguments if n not in props]
        problems += [p for n, v in arguments.items() if n in props
                     if (p := check_value(v, props[n], f"argument '{n}'"))]
        problems += [f"the value of '{n}' is its description from the list of tools, not a value: "
                     f"{'give it a value of your own' if n in required else 'leave it out, or give it a value of your own'}"
                     for n, v in arguments.items() if n in props and copies_description(v, props[n].get("description"))]
        if problems:
            takes = ", ".join(f"{n} ({'required' if n in required else 'optional'})" for n in props)
            raise ToolInputError(f"{self.name}: {'; '.join(problems)}. It takes: {takes or 'nothing'}.")

    def shown(self) -> dict:
        """{"name", "description", "parameters"}: the tool as the model is shown it (and the
        user, in the panel's Tools view), the `unlisted` arguments named in the description (once:
        one the docstring already names as `name=` is not named again), the schema's titles left
        out (`without_titles`)."""
        schema = self._titleless
        knobs = [n for n in self.unlisted if n in schema["properties"]]
        if not knobs:
            return {"name": self.name, "description": self.description, "parameters": schema}
        also = ", ".join(f"{n}={json.dumps(schema['properties'][n].get('default'))}" for n in knobs
                         if f"{n}=" not in self.description)
        properties = {n: p for n, p in schema["properties"].items() if n not in knobs}
        return {"name": self.name, "description": f"{self.description} (Also: {also})" if also else self.description,
                "parameters": {**schema, "properties": properties}}

    @cached_property
    def _titleless(self) -> dict:
        # shown() runs for every listed tool at every step; without_titles serializes the
        # schema to look for a title: once a tool, like `parameters`.
        return without_titles(self.parameters)

    def to_openai(self) -> dict:
        return {"type": "function", "function": self.shown()}

    def python_signature(self, name: str | None = None) -> str:
        """The tool as a Python stub, for the CodeAgent's prompt, under `name` (the Python
        name the code calls it by: code_names.py; by default the nearest to its own). An
        argument Python cannot name (`max-results`) is passed as **{"max-results": value}."""
        schema = self.parameters
        required = schema.get("required", [])
        params, docs = [], []
        for arg, prop in schema["properties"].items():
            shown = _py_type(prop, schema)
            if arg not in required:
                shown += f" = {prop.get('default')!r}"
            if is_python_name(arg):
                params.append(f"{arg}: {shown}")
                docs += [f"{arg}: {prop['description']}"] if prop.get("description") else []
            else:
                docs.append(f'**{{"{arg}": {shown}}}: {prop.get("description") or "(no description)"}')
        if len(params) < len(schema["properties"]):
            params.append("**arguments")
        doc = self.description + ("\n\n    Args:" + "".join(f"\n        {d}" for d in docs) if docs else "")
        returns = _py_type({"type": self.output_type})
        return f'def {name or python_name(self.name)}({", ".join(params)}) -> {returns}:\n    """{doc}\n    """'

    def python_call(self, name: str | None = None) -> tuple[str, list[str]]:
        """The tool as the call that uses it, for the CodeAgent's prompt (`find_in_page(query,
        max_results = 20) -> str`), and a line per argument (`query (str): the phrase`). A call, not
        a definition: Qwen2.5-Coder 0.5B pasted the stubs it was shown (`def read_page(...)`) as
        code of its own, bodies made up, and never called the tool."""
        schema = self.parameters
        required = schema.get("required", [])
        shown, lines = [], []
        for arg, prop in schema["properties"].items():
            kind = _py_type(prop, schema)
            # The values it takes, or an object's fields, even where the arguments get no line of their own
            written = f"{arg}: {kind}" if kind not in _PY_TYPES.values() and kind != "Any" else arg
            if not is_python_name(arg):
                written = f'**{{"{arg}": ...}}'
            elif arg not in required:  # `page = 1`, spaced: tokens.py's estimate reads the words cut there
                written += f" = {prop.get('default')!r}"
            shown.append(written)
            lines.append(f"{arg} ({kind}): {prop.get('description') or '(no description)'}")
        return f"{name or python_name(self.name)}({', '.join(shown)}) -> {_py_type({'type': self.output_type})}", lines


class Failed(str):
    """A tool's answer that it could not do what was asked (a page tool's failure, as the browser
    said it: no such element, no such part): the model reads it as written, and the agents count
    it as an error (said_back.py: an answer that says it back is not taken; call_log.py: the same
    failure twice is not tried a third time)."""


class Refused(str):
    """A tool's answer that nothing was done because the user, or their rule for the site, said
    no: the same call again asks again, and is never told as a repeat (call_log.py)."""


class FunctionTool(Tool):
    def __init__(self, function: Callable[..., Any], name: str | None = None,
                 description: str | None = None, unlisted: tuple[str, ...] = ()) -> None:
        self.unlisted = unlisted
        summary, self.inputs, self.output_type = described(function)
        self.forward = function
        self.name = name or function.__name__
        self.description = description or summary or self.name

    @cached_property
    def parameters(self) -> dict:
        return self.inputs  # already a full schema (schema_for_function), as it is sent


# What a function's docstring and type hints say, read once per function: each turn makes its
# page tools anew from the methods of its own reader and actor (page_tools.page_tools), and
# reading the hints of 25 methods was most of a turn's own cost (a workflow's replay above all).
_DESCRIBED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def described(function: Callable[..., Any]) -> tuple[str, dict, str]:
    """(summary, input schema, output type) of a function or bound method. The schema is
    shared by every tool made of that function: read it, never change it."""
    key = getattr(function, "__func__", function)
    try:
        return _DESCRIBED[key]
    except (KeyError, TypeError):  # TypeError: a callable that cannot be weakly referenced
        pass
    summary, arg_docs = parse_docstring(inspect.getdoc(function) or "")
    returns = typing.get_type_hints(function).get("return")
    output = schema_for_type(returns).get("type", "any") if returns else "any"
    found = (summary, schema_for_function(function, arg_docs), output)
    try:
        _DESCRIBED[key] = found
    except TypeError:
        pass
    return found


def tool(function: Callable[..., Any] | None = None, *, name: str | None = None,
         description: str | None = None) -> FunctionTool | Callable[[Callable[..., Any]], FunctionTool]:
    """Make a tool of a plain or async function: `@tool` or `@tool(name=...)`."""
    if function is None:
        return lambda f: FunctionTool(f, name, description)
    return FunctionTool(function, name, description)


class FinalAnswerTool(Tool):
    built_in = True  # TabAgent's own: told in one sentence in a compact request
    name = "final_answer"
    description = "Gives the final answer to the task, once you have it."
    inputs = {"answer": {"type": "string"}}
    output_type = "any"

    def validate(self, arguments: dict) -> None:
        # Any value is an answer (a number, a list...); only its absence is wrong.
        if set(arguments) != {"answer"}:
            raise ToolInputError("final_answer takes exactly one argument, 'answer'.")

    def forward(self, answer: Any) -> Any:
        return answer


# Keywords whose value is one schema, or a list of them; and those whose value maps names to schemas.
_SUBSCHEMA = ("items", "additionalProperties", "not", "contains", "if", "then", "else", "propertyNames")
_SUBSCHEMAS = ("anyOf", "oneOf", "allOf", "prefixItems")
_NAMED_SCHEMAS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def without_titles(schema: Any, name: str = "") -> Any:
    """A schema as the model reads it, with no `title`. Pydantic (and so the MCP SDK's FastMCP)
    titles every schema and field: "fetchArguments", "Url". A small model took "fetchArguments"
    for the tool's name and called it. A field's title that says more than its name is kept, as
    its description when it has none; the values a schema holds (default, enum) are left alone."""
    if not isinstance(schema, dict) or '"title"' not in json.dumps(schema):
        return schema  # most schemas have none: the same object, as it was sent
    kept = {}
    for key, value in schema.items():
        if key in _SUBSCHEMA:
            kept[key] = without_titles(value)
        elif key in _SUBSCHEMAS and isinstance(value, list):
            kept[key] = [without_titles(item) for item in value]
        elif key in _NAMED_SCHEMAS and isinstance(value, dict):
            kept[key] = {field: without_titles(item, field) for field, item in value.items()}
        elif key != "title":
            kept[key] = value
    title = schema.get("title")
    if name and isinstance(title, str) and "description" not in schema and _letters(title) != _letters(name):
        kept["description"] = title
    return kept


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def format_result(value: Any) -> str:
    """A tool's return value as the text the model reads."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


# --- Schemas from type hints and docstrings ------------------------------------------

_SIMPLE = {str: "string", int: "integer", float: "number", bool: "boolean",
           dict: "object", list: "array", type(None): "null"}
_ARRAYS = (list, tuple, set, frozenset, collections.abc.Sequence, collections.abc.Iterable)


def schema_for_type(hint: Any) -> dict:
    if hint is Any:
        return {}
    if hint in _SIMPLE:
        return {"type": _SIMPLE[hint]}
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal:
        return {**schema_for_type(type(args[0])), "enum": list(args)}
    if origin in (Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        schema = schema_for_type(options[0]) if len(options) == 1 else {
            "anyOf": [schema_for_type(a) for a in options]}
        if len(options) < len(args) and "type" in schema:
            schema["type"] = [schema["type"], "null"]
        return schema
    if origin in _ARRAYS:
        return {"type": "array", **({"items": schema_for_type(args[0])} if args else {})}
    if origin in (dict, collections.abc.Mapping):
        return {"type": "object"}
    raise TypeError(f"tools cannot take arguments of type {hint!r}: use str, int, float, "
                    f"bool, list, dict, Literal or Optional of these")


def schema_for_function(function: Callable[..., Any], arg_docs: dict[str, str]) -> dict:
    hints = typing.get_type_hints(function)
    properties, required = {}, []
    for param in inspect.signature(function).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.name not in hints:
            raise TypeError(f"tool {function.__name__}: parameter '{param.name}' needs a type "
                            f"hint; it becomes the type the model is told to send")
        prop = schema_for_type(hints[param.name])
        if param.name in arg_docs:
            prop["description"] = arg_docs[param.name]
        if param.default is param.empty:
            required.append(param.name)
        elif isinstance(param.default, (str, int, float, bool)):
            prop["default"] = param.default
        if param.default is None and isinstance(prop.get("type"), list):
            prop["type"] = prop["type"][0]  # optional with default None: just leave it out
        properties[param.name] = prop
    # No empty "required": it says nothing and costs tokens in every request.
    return {"type": "object", "properties": properties, **({"required": required} if required else {})}


_SECTION = re.compile(r"^(Args|Arguments|Parameters|Returns?|Yields?|Raises|Examples?|Notes?):\s*$")
_ARG = re.compile(r"^\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """(summary, {argument: description}) from a Google-style docstring."""
    summary, args, section, indent = [], {}, None, None
    for line in doc.splitlines():
        header = _SECTION.match(line)  # getdoc() dedents: section headers start the line
        if header:
            section, indent = header.group(1), None
            continue
        if section is None:
            summary.append(line)
        elif section in ("Args", "Arguments", "Parameters") and line.strip():
            depth = len(line) - len(line.lstrip())
            indent = depth if indent is None else indent
            entry = _ARG.match(line.strip())
            if depth <= indent and entry:
                args[entry.group(1)] = entry.group(2).strip()
            elif args:  # a continuation line of the last argument
                last = list(args)[-1]
                args[last] = f"{args[last]} {line.strip()}".strip()
    return one_line_paragraphs("\n".join(summary)), args


def one_line_paragraphs(text: str) -> str:
    """A docstring's text as the model reads it: its line breaks are the source's wrapping, not
    the writer's words (each "\n" costs a token), so each paragraph is one line."""
    paragraphs = re.split(r"\n\s*\n", text.strip())
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


_PY_TYPES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool",
             "array": "list", "object": "dict", "null": "None"}


MAX_SHAPE_DEPTH, MAX_CHOICES, MAX_FIELDS = 3, 12, 12


def _py_type(schema, root: dict | None = None, depth: int = 0) -> str:
    """A JSON schema as the type the model reads in a signature: the values an enum allows
    (`"metric" | "imperial"`), the fields of an object (`{"city": str, "days"?: int}`, '?'
    when it may be left out), what a list holds (`list[str]`), a `$ref` followed."""
    schema = _resolved(schema, root or {}, depth)
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return _choices(schema["enum"])
    if "const" in schema:
        return _choices([schema["const"]])
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list) and options and depth < MAX_SHAPE_DEPTH:
        return " | ".join(dict.fromkeys(_py_type(o, root, depth + 1) for o in options))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(dict.fromkeys(_py_type({**schema, "type": k}, root, depth) for k in kind))
    if kind == "array" and isinstance(schema.get("items"), dict) and depth < MAX_SHAPE_DEPTH:
        return f"list[{_py_type(schema['items'], root, depth + 1)}]"
    fields = schema.get("properties")
    if kind in ("object", None) and isinstance(fields, dict) and fields and depth < MAX_SHAPE_DEPTH:
        required = schema.get("required") if isinstance(schema.get("required"), list) else []
        shown = [f"{json.dumps(name, ensure_ascii=False)}{'' if name in required else '?'}: "
                 f"{_py_type(field, root, depth + 1)}" for name, field in list(fields.items())[:MAX_FIELDS]]
        return "{" + ", ".join(shown + (["..."] if len(fields) > MAX_FIELDS else [])) + "}"
    return _PY_TYPES.get(kind, "Any") if isinstance(kind, str) else "Any"


def _resolved(schema, root: dict, depth: int) -> dict:
    """The schema a local `$ref` (#/$defs/X, #/definitions/X) points to; {} when none."""
    if not isinstance(schema, dict):
        return {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/") and depth < MAX_SHAPE_DEPTH:
        target = root
        for key in ref[2:].split("/"):
            target = target.get(key) if isinstance(target, dict) else None
        return target if isinstance(target, dict) else {}
    return schema


def _choices(values: list) -> str:
    shown = [json.dumps(v, ensure_ascii=False, default=str) for v in values[:MAX_CHOICES]]
    return " | ".join(shown + (["..."] if len(values) > MAX_CHOICES else []))


def blank(value: Any, schema: dict | None) -> bool:
    """Whether `value` is an empty text for an argument whose type takes no text: a number, a
    flag. Qwen2.5-Coder 0.5B sent find_in_page "context_chars": "" (an integer) for "not given",
    refused twice, then dropped the query instead (bench rows 0964a2e, cheaper-kettle)."""
    kinds = (schema or {}).get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds
    return isinstance(value, str) and not value.strip() and bool(kinds) and not any(is_of_type(value, k) for k in kinds)


def check_value(value: Any, schema: dict, where: str) -> str | None:
    """What is wrong with `value` against a (small subset of) JSON schema, or None."""
    kinds = schema.get("type")
    if kinds:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(is_of_type(value, k) for k in kinds):
            return f"{where} should be {' or '.join(kinds)}, got {_json_type(value)} {_short(value)}"
    if "enum" in schema and value not in schema["enum"]:
        return f"{where} should be one of {json.dumps(schema['enum'])}, got {_short(value)}"
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            if problem := check_value(item, schema["items"], f"{where}[{i}]"):
                return problem
    if isinstance(value, dict) and "properties" in schema:
        for name in schema.get("required", []):
            if name not in value:
                return f"{where} is missing key '{name}'"
        for name, item in value.items():
            if name in schema["properties"]:
                if problem := check_value(item, schema["properties"][name], f"{where}['{name}']"):
                    return problem
    return None


def _json_type(value) -> str:
    for python_type, name in ((bool, "boolean"), (int, "integer"), (float, "number"),
                              (str, "string"), (list, "array"), (dict, "object")):
        if isinstance(value, python_type):
            return name
    return "null" if value is None else type(value).__name__


def _short(value, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + "..."
