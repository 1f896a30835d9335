"""What an MCP server may ask the user through elicitation: a form of the specification's
simple types only, and never a secret.

The spec (2025-11-25, form mode) allows a flat object whose properties are strings (with a
length, or a format: email, uri, date, date-time), numbers or integers (with bounds),
booleans, enums (a string's `enum`, or `oneOf` of `const` and `title`) and multi-select enums
(an array whose `items` are such an enum, `anyOf` for titled ones); anything else is refused
whole, in words, not guessed at.

The rule for secrets (servers must not ask for them in a form: the specification sends those to
URL mode; docs/security.md): a request is refused whole when a field's format is "password" or it
is marked writeOnly, when a field's name, title or description names a secret (a password, a
one-time or texted code, a PIN, a recovery or seed phrase, a card number, a key or a token, in
the languages of secret_words.py), or when the request's own message names one and the form has
a field the user types into (text or a number). A negation spares only the secret it governs
("do not give us your PIN", as the reference server writes), never the rest of the sentence ("No
worries, enter your password"). No field for a secret is ever drawn, and every form names the
server that asks and says to type no secret.
"""

from __future__ import annotations

from typing import Any

from ..secret_words import secret_named
from ..unseen import bounded, shown
from .errors import MCPError

STRING_FORMATS = {"email": "email", "uri": "url", "date": "date", "date-time": "datetime"}
MAX_FIELDS = 20
MAX_TEXT = 300  # characters of a label or a description the server wrote


class Refused(MCPError):
    """The server asked for what TabAgent never asks the user: said to the server and the user."""


def names_a_secret(*texts: Any) -> str | None:
    """The secret the first of `texts` that names one names, in its words; None when none does."""
    return next((found for found in map(secret_named, (str(t or "") for t in texts)) if found), None)


def form_fields(params: dict) -> list[dict]:
    """The fields to draw for an elicitation/create request, or Refused saying why not."""
    if params.get("mode", "form") != "form":
        raise Refused(f"TabAgent answers elicitation in form mode only, not {bounded(str(params.get('mode')), 40)!r}.")
    schema = params.get("requestedSchema")
    if not isinstance(schema, dict) or schema.get("type", "object") != "object" \
            or not isinstance(schema.get("properties", {}), dict):
        raise Refused("The form asked for is not a flat object of simple fields, which is all TabAgent draws.")
    properties = schema.get("properties", {})
    if len(properties) > MAX_FIELDS:
        raise Refused(f"The form asks for {len(properties)} fields; TabAgent draws at most {MAX_FIELDS}.")
    refuse_secrets(params.get("message"), properties)
    required = set(schema.get("required") or [])
    return [field(str(name), spec, str(name) in required) for name, spec in properties.items()]


def refuse_secrets(message: Any, properties: dict) -> None:
    """Refused, before anything is drawn, when the form asks for a secret (the module's rule)."""
    specs = {str(name): spec if isinstance(spec, dict) else {} for name, spec in properties.items()}
    for name, spec in specs.items():
        named = "a password" if spec.get("format") == "password" or spec.get("writeOnly") else \
            names_a_secret(name, spec.get("title"), spec.get("description"))
        if named:
            raise Refused(f"The form asks for a secret (the field {bounded(name, 60)!r}: {bounded(named, 60)}); "
                          f"TabAgent never asks you for a password or a key on a server's behalf.")
    typed = [spec for spec in specs.values() if spec.get("type") in ("string", "number", "integer")
             and "enum" not in spec and "oneOf" not in spec]
    named = names_a_secret(message)
    if typed and named:
        raise Refused(f"The form's message asks for a secret ({bounded(named, 60)}); TabAgent never asks you for "
                      f"a password or a key on a server's behalf.")


def field(name: str, spec: Any, required: bool) -> dict:
    """One field as the panel draws it: its kind, its label and help in the server's words
    (bounded, invisible characters written out), its bounds and choices."""
    if not isinstance(spec, dict):
        raise Refused(f"The field {bounded(name, 60)!r} has no schema TabAgent can draw.")
    drawn = {"name": name, "label": _text(spec.get("title") or name), "description": _text(spec.get("description")),
             "required": required, "kind": _kind(name, spec)}
    if drawn["kind"] == "choice":
        drawn["choices"] = _choices(name, spec)
    if drawn["kind"] == "choices":
        drawn["choices"] = _choices(name, {"oneOf": spec["items"].get("anyOf"), **spec["items"]})
        drawn.update({ours: spec[theirs] for ours, theirs in (("min_items", "minItems"), ("max_items", "maxItems"))
                      if isinstance(spec.get(theirs), int)})
    for ours, theirs in (("min", "minimum"), ("max", "maximum"), ("min_length", "minLength"),
                         ("max_length", "maxLength")):
        if isinstance(spec.get(theirs), (int, float)) and not isinstance(spec.get(theirs), bool):
            drawn[ours] = spec[theirs]
    if isinstance(spec.get("default"), (str, int, float, bool)) or \
            (isinstance(spec.get("default"), list) and all(isinstance(v, str) for v in spec["default"])):
        drawn["default"] = spec["default"]
    return drawn


def _kind(name: str, spec: dict) -> str:
    kind = spec.get("type")
    if "enum" in spec or "oneOf" in spec:
        return "choice"
    if kind == "array" and isinstance(spec.get("items"), dict) and ("enum" in spec["items"] or "anyOf" in spec["items"]):
        return "choices"
    if kind == "string":
        form = spec.get("format")
        if form is not None and form not in STRING_FORMATS:
            raise Refused(f"The field {bounded(name, 60)!r} asks for a string of format {bounded(str(form), 40)!r}, "
                          f"which is not one of the simple types a form may ask for.")
        return STRING_FORMATS.get(form, "text")
    if kind in ("number", "integer", "boolean"):
        return kind
    raise Refused(f"The field {bounded(name, 60)!r} is of type {bounded(str(kind), 40)!r}, not one of the simple "
                  f"types (string, number, integer, boolean, enum) a form may ask for.")


def _choices(name: str, spec: dict) -> list[dict]:
    if isinstance(spec.get("enum"), list):
        names = spec.get("enumNames") if isinstance(spec.get("enumNames"), list) else []
        values = spec["enum"]
        labels = [names[i] if i < len(names) else value for i, value in enumerate(values)]
    elif isinstance(spec.get("oneOf"), list):
        options = [o for o in spec["oneOf"] if isinstance(o, dict) and "const" in o]
        values, labels = [o["const"] for o in options], [o.get("title") or o["const"] for o in options]
    else:
        values, labels = [], []
    if not values or not all(isinstance(v, str) for v in values):
        raise Refused(f"The field {bounded(name, 60)!r} offers choices that are not a list of strings.")
    return [{"value": value, "label": _text(label)} for value, label in zip(values, labels)]


def _text(text: Any) -> str:
    return bounded(shown(str(text or "")), MAX_TEXT)


def checked_content(fields: list[dict], values: Any) -> dict:
    """The user's answers as the server's schema wants them, each checked against its field;
    Refused when one does not fit (the panel checks first: this is the last word)."""
    values = values if isinstance(values, dict) else {}
    content = {}
    for item in fields:
        value = values.get(item["name"])
        if value in (None, ""):
            if item["required"]:
                raise Refused(f"The answer leaves out the required field {bounded(item['name'], 60)!r}.")
            continue
        content[item["name"]] = _fitted(item, value)
    return content


def _fitted(item: dict, value: Any) -> Any:
    kind, problem = item["kind"], None
    if kind == "choices":
        allowed = [choice["value"] for choice in item["choices"]]
        if not isinstance(value, list) or not all(v in allowed for v in value) or \
                not item.get("min_items", 0) <= len(value) <= item.get("max_items", len(value)):
            raise Refused(f"The answer for {bounded(item['name'], 60)!r} is not a choice of its options.")
        return value
    if kind == "boolean":
        value = value is True
    elif kind in ("number", "integer"):
        try:
            value = int(value) if kind == "integer" else float(value)
        except (TypeError, ValueError):
            problem = "is not a number"
        else:
            if value < item.get("min", value) or value > item.get("max", value):
                problem = "is out of its bounds"
    elif kind == "choice" and value not in [choice["value"] for choice in item["choices"]]:
        problem = "is not one of its choices"
    elif not isinstance(value, str) or not item.get("min_length", 0) <= len(value) <= item.get("max_length", len(value)):
        problem = "is not a text of the length asked"
    if problem:
        raise Refused(f"The answer for {bounded(item['name'], 60)!r} {problem}.")
    return value
