"""The shared vocabulary is written in one place and imported everywhere else.

Message types are named in extension/shared/protocol/messages.js (between the extension's contexts)
and sandbox-protocol.js (between the offscreen document, the sandbox page and its worker);
everything that crosses between JavaScript and Python is declared in py/tabagent/app/wire.py
and reaches JavaScript as the generated wire.js. These tests fail when a file writes one of those names or values by hand
instead of importing it: a renamed event kind or a changed default would otherwise be
missed silently where it was copied.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
from pathlib import Path

import pytest

from tabagent import providers
from tabagent.app import wire

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "extension"
GENERATED = {EXTENSION / "shared" / "wire.js"}
WIRE_PY = ROOT / "py" / "tabagent" / "app" / "wire.py"
PROVIDERS_PY = ROOT / "py" / "tabagent" / "providers.py"


def javascript_files() -> dict[Path, str]:
    """Every JavaScript file of ours but the generated ones, without its comments (a comment
    may say "start-turn"; only code must not)."""
    files = [p for p in EXTENSION.rglob("*.js") if "vendor" not in p.parts and p not in GENERATED]
    return {p: re.sub(r"(^|\s)//.*$", r"\1", p.read_text(), flags=re.M) for p in files}


def python_strings() -> dict[Path, list[str]]:
    """The string constants of each Python module of ours, docstrings left out."""
    found = {}
    for path in (ROOT / "py").rglob("*.py"):
        tree = ast.parse(path.read_text())
        docstrings = {id(node.value) for node in ast.walk(tree)
                      if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
        found[path] = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                       and isinstance(node.value, str) and id(node) not in docstrings]
    return found


def quoted(values) -> re.Pattern:
    return re.compile(r"""["'`](%s)["'`]""" % "|".join(re.escape(v) for v in values))


def where(pattern: re.Pattern, files: dict[Path, str], allowed=()) -> dict[str, list]:
    return {str(p.relative_to(ROOT)): pattern.findall(text) for p, text in files.items()
            if p.name not in allowed and pattern.search(text)}


def message_names() -> dict:
    script = """
      import { Broadcast, MessageType, Target } from "./extension/shared/protocol/messages.js";
      console.log(JSON.stringify({ messages: [...Object.values(Broadcast), ...Object.values(MessageType)],
                                   targets: Object.values(Target) }));
    """
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def naming(field: str, values) -> re.Pattern:
    """`type: "start-turn"`, `type === "start-turn"`, `case "start-turn":`: a message named by hand."""
    alternatives = "|".join(re.escape(v) for v in values)
    return re.compile(rf"""\b{field}\s*(?:===?|!==?|:)\s*["']({alternatives})["']|\bcase\s+["']({alternatives})["']""")


def test_message_types_are_spelled_only_in_messages_js():
    names = message_names()
    assert where(naming("type", names["messages"]), javascript_files(), allowed={"messages.js"}) == {}
    # `target` too: every message names its context as Target.offscreen, never "offscreen".
    assert where(naming("target", names["targets"]), javascript_files(), allowed={"messages.js"}) == {}


def test_sandbox_message_types_are_spelled_only_where_they_are_declared():
    types = [*wire.SANDBOX_MESSAGES, "boot", "boot-failed", "memory-exceeded", "settled", "ready"]
    # sandbox-protocol.js names the JavaScript-only ones; the Python ones come from wire.js.
    assert where(naming("type", types), javascript_files()) == {}
    protocol = (EXTENSION / "shared" / "protocol" / "sandbox-protocol.js").read_text()
    assert not quoted(wire.SANDBOX_MESSAGES).search(protocol)
    python = {str(p.relative_to(ROOT)): [s for s in strings if s in wire.SANDBOX_MESSAGES and "-" in s]
              for p, strings in python_strings().items() if p != WIRE_PY}
    assert {p: found for p, found in python.items() if found} == {}


def test_event_kinds_statuses_and_error_kinds_are_compared_through_wire_js():
    kinds = quoted([*wire.EVENT_KINDS, *wire.NOT_FATAL_ERRORS, *wire.FATAL_ERRORS]).pattern
    statuses = quoted(wire.STATUSES).pattern
    compared = re.compile(rf"""\bkind\s*(?:===?|!==?|:)\s*{kinds}|\bstatus\s*(?:===?|!==?|:)\s*{statuses}""")
    assert where(compared, javascript_files()) == {}


def test_a_stored_turns_own_statuses_are_compared_through_turn_status():
    """running and interrupted are storage's words (conversation-schema.js TurnStatus)."""
    compared = re.compile(r"""\b(?:status|\.status)\s*(?:===?|!==?|:)\s*["'`](running|interrupted)["'`]""")
    assert where(compared, javascript_files(), allowed={"conversation-schema.js"}) == {}


def test_every_name_javascript_takes_from_wire_js_exists():
    """EventKind.tokn is undefined, not an error: each one used must be declared."""
    declared = {"EventKind": wire.EVENT_KINDS, "Status": wire.STATUSES, "NotFatal": wire.NOT_FATAL_ERRORS,
                "Fatal": wire.FATAL_ERRORS,
                "Decision": wire.CONFIRMATION_DECISIONS, "Provider": providers.PROVIDERS,
                "SandboxMessage": {kind.replace("-", "_") for kind in wire.SANDBOX_MESSAGES}}
    used = {(name, key) for text in javascript_files().values()
            for name, key in re.findall(r"\b(%s)\.(\w+)" % "|".join(declared), text)}
    assert used and {(name, key) for name, key in used if key not in declared[name]} == set()


def test_provider_ids_are_spelled_only_in_providers_py():
    """Python compares with OLLAMA, JavaScript with Provider.ollama (wire.js): a provider's id
    copied by hand (`provider === "builtin"`, a preset table of its own) would keep the old
    spelling, or the old list, when one changes."""
    ids = list(providers.PROVIDERS)
    pages = {p: re.sub(r"<!--.*?-->", "", p.read_text(), flags=re.S) for p in EXTENSION.rglob("*.html") if "vendor" not in p.parts}
    assert where(quoted(ids), {**javascript_files(), **pages}) == {}
    assert where(re.compile(r"^\s*(%s)\s*:" % "|".join(ids), re.M), javascript_files()) == {}  # keys of a table
    python = {str(p.relative_to(ROOT)): [s for s in strings if s in ids]
              for p, strings in python_strings().items() if p != PROVIDERS_PY}
    assert {p: found for p, found in python.items() if found} == {}


def test_the_answers_to_a_confirmation_are_named_through_wire_js():
    """Where a confirmation is answered (the panel's box, the offscreen document's bridge)."""
    answering = {p: text for p, text in javascript_files().items() if p.name in {"confirmation-view.js", "page-bridge.js"}}
    assert len(answering) == 2 and where(quoted(wire.CONFIRMATION_DECISIONS), answering) == {}


def test_only_wire_py_lists_the_errors_after_which_a_turn_goes_on():
    """The panel, the command line and the export each kept a list of their own, which disagreed."""
    not_fatal = set(wire.NOT_FATAL_ERRORS)
    lists = [(str(path.relative_to(ROOT)), node.lineno) for path in (ROOT / "py").rglob("*.py") if path != WIRE_PY
             for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, (ast.Tuple, ast.List, ast.Set))
             and len({e.value for e in node.elts if isinstance(e, ast.Constant)} & not_fatal) >= 2]
    assert lists == []
    assert where(re.compile(r"new Set\(\[[^\]]*%s[^\]]*\]\)" % quoted(not_fatal).pattern), javascript_files()) == {}


def error_kinds_python_names() -> dict[str, str]:
    """Each error kind a Python file gives an `error` event, with where: a class's `kind = "auth"`
    (the model errors), `{"kind": "mcp", ...}`, `kind="memory"` passed on, `getattr(error,
    "kind", "agent")`."""
    found = {}
    for path in (ROOT / "py").rglob("*.py"):
        if path == WIRE_PY:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            values = []
            if isinstance(node, ast.ClassDef):
                for statement in node.body:
                    if isinstance(statement, ast.Assign) and isinstance(target := statement.targets[0], (ast.Name, ast.Tuple)):
                        names = [target] if isinstance(target, ast.Name) else target.elts
                        given = [statement.value] if isinstance(target, ast.Name) else getattr(statement.value, "elts", [])
                        values += [v for n, v in zip(names, given) if getattr(n, "id", "") == "kind"]
            elif isinstance(node, ast.Dict) and any(getattr(k, "value", None) == "message" for k in node.keys):
                values += [v for k, v in zip(node.keys, node.values) if getattr(k, "value", None) == "kind"]
            elif isinstance(node, ast.Call):
                values += [k.value for k in node.keywords if k.arg == "kind"]
                if getattr(node.func, "id", "") == "getattr" and len(node.args) == 3 and getattr(node.args[1], "value", "") == "kind":
                    values.append(node.args[2])
            for value in values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found[value.value] = f"{path.relative_to(ROOT)}:{value.lineno}"
    return found


def test_every_error_kind_python_gives_is_declared_in_wire_py():
    """An error kind the panel has never heard of gets neither Open settings nor its styling."""
    named = error_kinds_python_names()
    assert {"auth", "not_found", "mcp", "memory", "agent", "truncated"} <= set(named)
    declared = set(wire.FATAL_ERRORS) | set(wire.NOT_FATAL_ERRORS)
    assert {kind: at for kind, at in named.items() if kind not in declared} == {}
    assert not set(wire.FATAL_ERRORS) & set(wire.NOT_FATAL_ERRORS)
    assert set(wire.FATAL_ERRORS.values()) == {"settings", "retry"}


def test_only_wire_py_says_which_errors_a_setting_fixes():
    """The panel kept its own list of the kinds that get an Open settings button."""
    fixed = [kind for kind, fix in wire.FATAL_ERRORS.items() if fix == "settings"]
    assert where(re.compile(r"new Set\(\[[^\]]*%s[^\]]*\]\)" % quoted(fixed).pattern), javascript_files()) == {}
    assert where(quoted(fixed), {p: t for p, t in javascript_files().items() if p.name == "error-actions.js"}) == {}


def camel(name: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m[1].upper(), name)


@pytest.mark.parametrize("name", [n for n, v in wire.SETTINGS.items() if isinstance(v, (int, float)) and not isinstance(v, bool)])
def test_a_settings_default_is_written_only_in_wire_py(name):
    """Not next to its name in JavaScript (`IDLE_CLOSE_MINUTES = 10`, `maxSteps: 10`), nor as
    the default of a read in Python (`settings.get("max_retries", 3)`)."""
    names = rf"(?:{name}|{camel(name)}|{name.upper()})"
    assert where(re.compile(rf"{names}\s*[:=]\s*{wire.SETTINGS[name]}\b"), javascript_files()) == {}
    reads = re.compile(rf"""\.get\(["']{name}["'],\s*[\d.]+\)""")
    assert {str(p.relative_to(ROOT)) for p in (ROOT / "py").rglob("*.py") if reads.search(p.read_text())} == set()


def test_python_reads_only_the_settings_wire_py_declares():
    """A setting read under a name nothing sends ("timeout") can never change."""
    read = re.compile(r"""\bsettings(?:\.get\(|\[)["'](\w+)["']""")
    # In the host glue `settings` are the user's (the framework reads servers' own, like n_ctx).
    names = {str(p.relative_to(ROOT)): set(read.findall(p.read_text())) - set(wire.SETTINGS)
             for p in (ROOT / "py" / "tabagent" / "app").rglob("*.py")}
    assert {p: found for p, found in names.items() if found} == {}


PAGE_TOOL_ARGUMENTS = sorted({a for args in wire.PAGE_TOOL_DEFAULTS.values() for a in args})


def test_no_page_tool_takes_a_number_default_javascript_writes_by_hand():
    """`max_tokens: arg("number", 6000)` disagreed with Python's 4,000; every number a page
    tool takes comes from wire.js (content scripts and the PDF reader alike)."""
    by_hand = re.compile(r"""\barg\(["']number["'],\s*\d|\b(?:%s)\s*=\s*\d""" % "|".join(PAGE_TOOL_ARGUMENTS))
    assert where(by_hand, javascript_files()) == {}
    assert re.search(r"\barg\(\s*[\"']number[\"']\s*,\s*PAGE_TOOL_DEFAULTS\.", "".join(javascript_files().values()))


@pytest.mark.parametrize("tool", sorted(wire.PAGE_TOOL_DEFAULTS))
def test_the_python_page_tools_give_wire_pys_defaults(tool):
    """So that page.read_page() in a user tool and page.run_page_tool("read_page") get the same answer."""
    import inspect
    from tabagent.app.page_tools import PageReader
    parameters = inspect.signature(getattr(PageReader, tool)).parameters
    for argument, default in wire.PAGE_TOOL_DEFAULTS[tool].items():
        if argument == "max_tokens":  # None there: a part sized to the model's window, at most this
            assert parameters[argument].default is None
        elif argument == "timeout_ms":  # Python takes seconds
            assert parameters["timeout"].default * 1000 == default
        elif argument == "longest_ms":  # a bound, not an argument: the model reads it in the docstring
            assert f"(up to {default // 1000})" in getattr(PageReader, tool).__doc__
        else:
            assert parameters[argument].default == default, argument


@pytest.mark.parametrize("tool, argument", [(t, a) for t, args in wire.PAGE_TOOL_DEFAULTS.items() for a, v in args.items() if v >= 1000])
def test_a_large_page_tools_default_is_not_written_again_in_the_host_glue(tool, argument):
    """Not the value itself in the host glue (`PART_TOKENS = 4000`)."""
    default = wire.PAGE_TOOL_DEFAULTS[tool][argument]
    value = re.compile(rf"\b{default // 1000}_?{default % 1000:03d}\b")
    glue = {p: p.read_text() for p in (ROOT / "py" / "tabagent" / "app").rglob("*.py") if p != WIRE_PY}
    assert where(value, glue) == {}


def test_only_the_turn_request_builder_names_the_turn_requests_fields():
    """offscreen/python/turn-request.js takes them from TURN_REQUEST; no JavaScript file spells them."""
    own = [name for name in wire.TURN_REQUEST if name not in wire.EVENT_KINDS["done"] and name != "conversation_id"
           and "_" in name]  # conversation_id is every event's field too
    assert where(re.compile(r"\b(%s)\s*:" % "|".join(own)), javascript_files(), allowed={"turn-request.js"}) == {}


def test_a_turn_request_made_in_python_has_only_the_declared_fields():
    """The command line makes its turn requests itself: with the fields wire.py declares."""
    made = [(str(path.relative_to(ROOT)), keys) for path in (ROOT / "py").rglob("*.py")
            for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Dict)
            for keys in [{k.value for k in node.keys if isinstance(k, ast.Constant)}] if {"conversation_id", "task"} <= keys]
    assert made and [(path, keys - set(wire.TURN_REQUEST)) for path, keys in made if keys - set(wire.TURN_REQUEST)] == []


def test_every_event_field_javascript_reads_is_declared():
    """`event.data.retry_in` must be a key of some kind in EVENT_KINDS: a field renamed in
    Python would otherwise read as undefined. (In the sandbox's pages and MCP Apps' frame `event` is a
    browser MessageEvent, whose data is a sandbox or JSON-RPC message, not the agent's event.)"""
    fields = {field for keys in wire.EVENT_KINDS.values() for field in keys}
    read = {(str(p.relative_to(ROOT)), field) for p, text in javascript_files().items() if p.parent.name not in ("sandbox", "app-frame")
            for field in re.findall(r"\bevent\??\.data\??\.(\w+)", text)}
    assert read and {(p, field) for p, field in read if field not in fields} == set()


def test_wire_py_takes_a_default_the_framework_declares_from_the_framework():
    """context_window's 8,192 was written in wire.py and in context_window.py's DEFAULT_WINDOW."""
    framework = {}
    for path in (ROOT / "py" / "tabagent").glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and any(
                    isinstance(t, ast.Name) and "DEFAULT" in t.id for t in node.targets):
                framework[node.value.value] = f"{path.name} {node.targets[0].id}"
    settings = next(node.value for node in ast.parse(WIRE_PY.read_text()).body
                    if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "SETTINGS")
    again = {key.value: framework[value.value] for key, value in zip(settings.keys, settings.values)
             if isinstance(value, ast.Constant) and not isinstance(value.value, bool) and value.value in framework}
    assert framework and again == {}


def test_the_picture_limits_are_written_only_in_wire_py():
    """Not in JavaScript (`MAX_PICTURES = 5`, `6 * 1024 * 1024`), nor in Python's host glue, nor
    in the UI's words ("up to 5 pictures of at most 6 MB"): those take the numbers as substitutions."""
    limits = wire.ATTACHED_PICTURES
    names = r"MAX_PICTURES|MAX_PICTURE_BYTES|MAX_PICTURE_MB|MAX_IMAGES|max_pictures|max_file_mb"
    by_hand = re.compile(rf"\b(?:{names})\s*[:=]\s*\d|\b{limits['max_file_mb']}\s*\*\s*1024\b")
    assert where(by_hand, javascript_files()) == {}
    glue = {p: p.read_text() for p in (ROOT / "py" / "tabagent" / "app").rglob("*.py") if p != WIRE_PY}
    assert where(by_hand, glue) == {}
    words = re.compile(rf"\b{limits['max_pictures']}\s+(?:pictures|Bilder)\b|\b{limits['max_file_mb']}\s*MB\b", re.I)
    strings = {p: p.read_text() for p in (ROOT / "_locales").glob("*/messages.json")}
    assert where(words, strings) == {}


def test_a_setting_has_one_spelling_outside_the_migration():
    """Settings are stored and read under wire.py's names; the camelCase second spelling an
    older version stored (baseUrl, maxSteps) is known to settings-migration.js alone, which
    respells it. Form fields take the setting's name too; _locales' message names may differ."""
    old = [camel(name) for name in wire.SETTINGS if camel(name) != name]
    spelled = re.compile(r"\b(%s)\b" % "|".join(old))
    pages = {p: re.sub(r"<!--.*?-->|data-i18n(?:-\w+)?=\"\w+\"", "", p.read_text(), flags=re.S)
             for p in EXTENSION.rglob("*.html") if "vendor" not in p.parts}
    assert where(spelled, {**javascript_files(), **pages}, allowed={"settings-migration.js"}) == {}
    # py/tabagent/mcp/ spells the MCP protocol's own fields (sampling's systemPrompt), no setting.
    python = {str(p.relative_to(ROOT)): [s for s in strings if spelled.search(s)] for p, strings in python_strings().items()
              if "mcp" not in p.relative_to(ROOT).parts[:3]}
    assert {p: found for p, found in python.items() if found} == {}
