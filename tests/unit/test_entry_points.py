"""Python's entry points and what is lent to them are declared once (wire.py ENTRY_POINTS and
LENT, issue 38): these tests fail when a Python function, a JavaScript caller, a stand-in or a
lent object says otherwise than the declaration."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from tabagent.app import json_entry_points, wire

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "extension"
PY_APP = ROOT / "py" / "tabagent" / "app"


def extension_scripts():
    return [p for p in EXTENSION.rglob("*.js") if "vendor" not in p.parts and p.name != "wire.js"]


def public_functions(module):
    return {name for name, value in vars(module).items()
            if inspect.isfunction(value) and value.__module__ == module.__name__ and not name.startswith("_")}


# --- Python ------------------------------------------------------------------------------------

def test_the_module_offers_exactly_the_declared_entry_points():
    assert public_functions(json_entry_points) == set(wire.ENTRY_POINTS)


@pytest.mark.parametrize("name", wire.ENTRY_POINTS)
def test_each_function_takes_what_it_declares_and_is_lent_by_keyword(name):
    spec, parameters = wire.ENTRY_POINTS[name], inspect.signature(getattr(json_entry_points, name)).parameters.values()
    positional = [p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
    keyword_only = {p.name for p in parameters if p.kind is p.KEYWORD_ONLY}
    assert positional == list(spec["takes"])
    assert set(spec["lends"]) <= keyword_only
    assert set(spec["lends"]) <= set(wire.LENT)


# Where Python holds each lent object, and the name it holds it by.
HOLDERS = {"page_bridge": ("page_bridge.py", "self.lent"), "browser_model": ("builtin_model.py", "self.bridge"),
           "sandbox_for": ("sandbox_executor.py", "self.sandbox")}


@pytest.mark.parametrize("lent", HOLDERS)
def test_python_calls_only_the_lent_methods_declared(lent):
    file, holder = HOLDERS[lent]
    called = set(re.findall(rf"{re.escape(holder)}\.(\w+)\(", (PY_APP / file).read_text()))
    assert called and called <= set(wire.LENT[lent])


# --- JavaScript -------------------------------------------------------------------------------

def top_level_split(text: str) -> list[str]:
    """`a, [b, c], { d }` -> ["a", "[b, c]", "{ d }"]: commas outside brackets and strings."""
    parts, depth, current, quote = [], 0, "", None
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'`":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0 and not quote:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [p for p in [*parts, current.strip()] if p]


def balanced(text: str, start: int) -> str:
    """The text inside the bracket that opens at `start`."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1:i]
    raise ValueError("unbalanced")


def calls_of_entry_points():
    """(file, name, [argument texts], {lent keys}) of every `.runEntryPoint(EntryPoint.name, [...], {...})`."""
    found = []
    for path in extension_scripts():
        text = path.read_text()
        for match in re.finditer(r"\.runEntryPoint\(EntryPoint\.(\w+)", text):
            arguments = top_level_split(balanced(text, match.start() + len(".runEntryPoint")))
            items = top_level_split(arguments[1][1:-1]) if len(arguments) > 1 else []
            lent = {re.match(r"\s*(\w+)", part)[1] for part in top_level_split(arguments[2][1:-1])} \
                if len(arguments) > 2 else set()
            found.append((path.name, match[1], items, lent))
    return found


def test_every_entry_point_is_called_with_what_it_takes_and_is_lent():
    calls = calls_of_entry_points()
    assert {name for _, name, _, _ in calls} == set(wire.ENTRY_POINTS)
    wrong = [(file, name, len(items), lent) for file, name, items, lent in calls
             if len(items) != len(wire.ENTRY_POINTS[name]["takes"]) or lent != set(wire.ENTRY_POINTS[name]["lends"])]
    assert wrong == []


def test_no_script_spells_an_entry_point_or_reaches_python_another_way():
    names = "|".join(wire.ENTRY_POINTS)
    spelled = [p.name for p in extension_scripts() if re.search(rf"(?<!EntryPoint)[\"'`.]({names})\b", p.read_text())]
    assert spelled == []


def test_the_message_that_runs_each_entry_point_is_taken_only_from_who_may_ask():
    offscreen = (EXTENSION / "offscreen" / "offscreen.js").read_text()
    worker_side = offscreen + "".join((EXTENSION / "offscreen" / f).read_text()
                                      for f in ("python/turn-runner.js", "python/page-bridge.js",
                                               "python/client-calls.js", "python/app-calls.js"))
    router = (EXTENSION / "background" / "service-worker.js").read_text()
    from_pages = router[router.index("const handlers = {"):router.index("// Broadcasts from the offscreen")]
    for name, spec in wire.ENTRY_POINTS.items():
        assert f"[MessageType.{spec['message']}]" in offscreen, name
        assert f"EntryPoint.{name}" in worker_side, name
        taken_from_pages = f"[MessageType.{spec['message']}]" in from_pages
        assert taken_from_pages == (spec["asked_by"] == "user pages") or spec["message"] == "stopTurn", name


def test_each_stand_in_offers_exactly_the_lent_methods():
    worker = (EXTENSION / "offscreen" / "python" / "worker.js").read_text()
    stand_ins = {"page_bridge": "remotePage", "browser_model": "remoteModel", "sandbox_for": "remoteSandbox"}
    for lent, function in stand_ins.items():
        body = worker[worker.index(f"function {function}("):]
        body = body[:body.index("\n}\n")]
        offered = set(re.findall(r"^\s{4}(?:async )?(\w+)(?::|\()", body, re.M))
        assert offered == set(wire.LENT[lent]), lent


def test_each_lent_object_has_the_declared_methods():
    sources = {"page_bridge": ("offscreen/python/page-bridge.js", r"^\s{4}(?:async )?(\w+)\("),
               "browser_model": ("offscreen/python/builtin-model.js", r"^\s{2}(?:async )?(\w+)\("),
               "sandbox_for": ("offscreen/code-sandboxes/code-sandbox.js", r"^\s{2}(?:async )?(\w+)\(")}
    for lent, (file, pattern) in sources.items():
        has = set(re.findall(pattern, (EXTENSION / file).read_text(), re.M))
        assert set(wire.LENT[lent]) <= has, (lent, set(wire.LENT[lent]) - has)
