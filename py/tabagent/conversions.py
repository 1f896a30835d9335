"""Arguments converted to the type the tool's schema asks for, where only one reading exists.

Weak models write "2" for an integer, "true" for a boolean, 3 for a string, one value where
a list is wanted, or a list as JSON text; rejecting these costs a step each. A value that
converts one way only is converted; anything else is left for the check (tools.py
`check_value`) to reject with a message the model can act on.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_INTEGER = re.compile(r"[+-]?\d+")


def convert(value: Any, schema: dict) -> Any:
    """`value` converted to what `schema` asks for, or `value` itself when it already is that
    or has no single reading as it."""
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else list(kinds or ())
    if not kinds or any(is_of_type(value, kind) for kind in kinds):
        return _inside(value, schema)
    for kind in kinds:
        converted = _CONVERTERS.get(kind, _unchanged)(value)
        if converted is not _NO:
            return _inside(converted, schema)
    return value


def _inside(value, schema: dict):
    """The items of a list and the values of an object converted by their own schemas."""
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [convert(item, schema["items"]) for item in value]
    properties = schema.get("properties")
    if isinstance(value, dict) and isinstance(properties, dict):
        return {k: convert(v, properties[k]) if isinstance(properties.get(k), dict) else v
                for k, v in value.items()}
    return value


_NO = object()  # no single reading


def is_of_type(value: Any, kind: str) -> bool:
    """Whether `value` is of the JSON Schema type `kind` (an unknown kind takes anything)."""
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    expected = {"string": str, "boolean": bool, "array": list, "object": dict, "null": type(None)}
    return isinstance(value, expected[kind]) if kind in expected else True


def _to_integer(value):
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        return int(value)
    number = _to_number(value) if isinstance(value, str) else value
    if isinstance(number, float) and number.is_integer():
        return int(number)
    return _NO


def _to_number(value):
    if not isinstance(value, str):
        return _NO
    try:
        number = float(value.strip())
    except ValueError:
        return _NO
    if not math.isfinite(number):
        return _NO
    return int(number) if _INTEGER.fullmatch(value.strip()) else number


def _to_boolean(value):
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return _NO


def _to_string(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return _NO


def _to_array(value):
    if isinstance(value, str) and value.strip().startswith("["):
        parsed = _json(value)
        if isinstance(parsed, list):
            return parsed
    if value is None or isinstance(value, dict):
        return _NO
    return [value]  # one value where a list is wanted: a list of one


def _to_object(value):
    parsed = _json(value) if isinstance(value, str) and value.strip().startswith("{") else None
    return parsed if isinstance(parsed, dict) else _NO


def _to_null(value):
    return None if isinstance(value, str) and value.strip() in ("null", "None") else _NO


def _unchanged(value):
    return _NO


def _json(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return None


_CONVERTERS = {"integer": _to_integer, "number": _to_number, "boolean": _to_boolean,
               "string": _to_string, "array": _to_array, "object": _to_object, "null": _to_null}
