"""The docs name only what the repository has (issue 23): every file or folder README.md and
docs/*.md name (in backticks or as a link) exists, a function named with its file
(`path: name()`) is in that file, a test they cite is defined, and a field, setting or
storage key they spell in code style (`attachedTabs`, `idle_close_minutes`) is spelled so
somewhere in the code. A file that moves or a field that is renamed takes its docs with it.

Paths are read from the repository root, from extension/ (the docs name the contexts' files
as background/…, offscreen/…) and from py/; a link in docs/ also from docs/. A bare file name
must be some file's name. What the build makes (extension/vendor/, dist/, node_modules/) and
what lies beside the repository (a path from ../) are not checked.
"""

from __future__ import annotations

import ast
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "py" / "user_tools" / "README.md"]
BASES = ("", "extension/", "py/")
MADE_BY_THE_BUILD = ("extension/vendor", "dist", "node_modules", ".venv", "screenshots")
CODE = ("extension/", "py/", "manifest.json", "_locales/", "scripts/", "bench/", "tests/", "Makefile")
FILE_NAME = re.compile(r"^[\w.-]+\.(py|js|mjs|json|md|html|css|toml|txt|sh|png|yml|yaml)$")
IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$|^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")
SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
WITH_FUNCTION = re.compile(r"^(\S+?):? ([\w.]+)(?:\(\))?$")  # `path: name()` in one span
PATH_THEN_NAME = re.compile(r"`([^`\s]+/[^`\s]+)` `([A-Za-z_][\w.]*)(?:\(\))?`")  # `path` `name`


@cache
def repository_files() -> tuple[str, ...]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return tuple(line for line in listed.splitlines() if (ROOT / line).is_file())


@cache
def repository_entries() -> frozenset[str]:
    """Every file and folder, as paths from the root."""
    return frozenset(str(p) for f in repository_files() for p in (Path(f), *Path(f).parents) if str(p) != ".")


@cache
def code_words() -> frozenset[str]:
    """Every word of the code: an identifier a doc spells is in it when it stands whole there
    (what `\\b{name}\\b` finds), looked up once instead of searched for per span."""
    return frozenset(re.findall(r"\w+", code_text()))


@cache
def defined_tests() -> frozenset[str]:
    return frozenset(re.findall(r"def (test_\w+)\(", code_text()))


@cache
def code_text() -> str:
    this_test = str(Path(__file__).resolve().relative_to(ROOT))  # it spells wrong names on purpose
    return "\n".join((ROOT / f).read_text(errors="replace") for f in repository_files()
                     if f.startswith(CODE) and f != this_test and not f.endswith((".png", ".zip", ".wasm")))


def is_path_like(word: str) -> bool:
    if not word or re.match(r"^(\w+:|/|\.\./|@|~|-)", word) or re.search(r"[<>*{}$=…|]", word):
        return False  # a URL, a URL's path, beside the repository, a package, an option, a placeholder
    return "/" in word or bool(FILE_NAME.match(word))


def found(doc: Path, name: str) -> bool:
    """Whether the path or file name `name` (as a doc writes it) is in the repository."""
    path = name.rstrip("/")
    if path.startswith(MADE_BY_THE_BUILD):
        return True
    if "/" not in path:
        return path in {Path(f).name for f in repository_files()} or path in repository_entries()
    beside_the_doc = (doc.parent / path).resolve()
    tries = [base + path for base in BASES]
    if beside_the_doc.is_relative_to(ROOT):
        tries.append(str(beside_the_doc.relative_to(ROOT)))
    return any(p in repository_entries() for p in tries)


def first_segment_known(path: str) -> bool:
    """`notifications/cancelled` (an MCP method) is no path: its first part is no folder of ours."""
    head = path.split("/")[0]
    return "/" not in path or any(base + head in repository_entries() for base in BASES)


def problems(doc: Path, text: str) -> list[str]:
    """What `text`, a doc at `doc`, names that the repository does not have."""
    wrong = []
    for target in LINK.findall(text):
        target = target.split("#")[0]
        if is_path_like(target) and not found(doc, target):
            wrong.append(f"link to {target}")
        elif is_path_like(target) and doc.resolve() in {(doc.parent / target).resolve(), *((ROOT / (b + target)).resolve() for b in BASES)}:
            wrong.append(f"link to itself: {target}")
    for path, name in PATH_THEN_NAME.findall(text):
        wrong += name_missing_from(path, name)
    for span in SPAN.findall(text):
        wrong += problems_in_span(doc, span.strip())
    return wrong


def name_missing_from(path: str, name: str) -> list[str]:
    """[] if the file at `path` (from a base) spells every part of `name` (`Class.method`)."""
    file = next((ROOT / (base + path) for base in BASES if (ROOT / (base + path)).is_file()), None)
    if file is None:
        return []  # the path itself is checked, and reported, on its own
    text = file.read_text(errors="replace")
    return [] if all(re.search(rf"\b{part}\b", text) for part in name.split(".")) else [f"{name} in {path}"]


def problems_in_span(doc: Path, span: str) -> list[str]:
    if (named := WITH_FUNCTION.match(span)) and is_path_like(named[1]) and found(doc, named[1]):
        return name_missing_from(named[1], named[2])
    if span.startswith("test_") and IDENTIFIER.match(span):
        return [] if span in defined_tests() else [f"test {span}"]
    if IDENTIFIER.match(span):
        return [] if span in code_words() else [f"name {span}"]
    words = [w.rstrip(".,:;") for w in span.split()]
    return [w for w in words if is_path_like(w) and first_segment_known(w) and not found(doc, w)]


@pytest.mark.parametrize("doc", DOCS, ids=[d.relative_to(ROOT).as_posix() for d in DOCS])
def test_what_each_doc_names_is_in_the_repository(doc):
    assert problems(doc, doc.read_text()) == []


def camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part.title() for part in rest)


def test_the_docs_spell_each_setting_as_wire_py_does():
    """Settings cross to Python under wire.py's snake_case names; the panel's old camelCase ones
    (`ownTab`) are read only to move them (settings-migration.js). A dated record of a past run
    (docs/bench-issue-*.md) may quote what it saw."""
    from tabagent.app.wire import SETTINGS

    old = {camel(name): name for name in SETTINGS if camel(name) != name}
    said = {f"{doc.relative_to(ROOT)}: `{span}` (say `{old[span]}`)" for doc in DOCS if not doc.name.startswith("bench-issue-")
            for span in SPAN.findall(doc.read_text()) if span in old}
    assert said == set()


def test_each_module_s_docstring_names_files_the_repository_has():
    """A docstring that points the reader to a module that moved sends them nowhere."""
    names = {Path(f).name for f in repository_files()}
    stale = {f"{path.relative_to(ROOT)}: {name}" for path in sorted((ROOT / "py").rglob("*.py"))
             for name in re.findall(r"(?<![\w/.-])([a-z_]\w*\.py)\b", ast.get_docstring(ast.parse(path.read_text())) or "")
             if name not in names}
    assert stale == set()


def test_the_check_finds_a_moved_file_a_missing_function_a_renamed_field_and_test():
    doc = ROOT / "docs" / "security.md"
    text = ("`py/tabagent/page_bridge.py: untrusted()`, `extension/shared/wire.js`, `wire.py`, "
            "`py/tabagent/app/wire.py: no_such_function()`, [events](events.md), [gone](gone.md), [here](security.md), "
            "`attachedTabIds`, `idle_close_minutes`, `test_no_such_test_anywhere`, `offscreen/python/interpreter.js`, "
            "`offscreen/pdf/pdf-download.js` `download`, `shared/settings/connection.js` `Missing.fetchModels`")
    assert problems(doc, text) == ["link to gone.md", "link to itself: security.md", "Missing.fetchModels in shared/settings/connection.js",
                                   "py/tabagent/page_bridge.py", "no_such_function in py/tabagent/app/wire.py",
                                   "name attachedTabIds", "test test_no_such_test_anywhere"]
