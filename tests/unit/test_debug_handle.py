"""One way in for tests: what tests and developers inspect in the extension goes through the
debug handle (extension/shared/debug-handle.js, globalThis.tabagentDebug), and production code
grows no global, entry-point export or content-script member of its own for them."""

import ast
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "extension"
HANDLE = EXTENSION / "shared" / "debug-handle.js"
PACKAGE = ROOT / "py" / "tabagent"

# A global made by assignment, Object.assign or Object.defineProperty on the page's global.
GLOBAL_MADE = re.compile(r"""\b(?:globalThis|window|self)\s*(?:\.\s*(\w+)|\[[^\]]*\])\s*(?:=(?!=)|\?\?=|\|\|=)"""
                         r"""|Object\.(?:assign|defineProperty|defineProperties)\(\s*(?:globalThis|window|self)\b""")
# The globals production code makes, each for a reason of its own and none for a test.
OWN_GLOBALS = {
    # The content scripts' shared namespace: classic scripts in the extension's isolated world
    # of the tab, which the page cannot see (extension/content/common.js).
    **{f"content/{p.name}": {"TabAgentPage"} for p in (EXTENSION / "content").glob("*.js")},
    # The code sandbox's worker replaces its own timers and fetch (what model code may use).
    "sandbox/worker.js": {"onmessage", "setTimeout", "setInterval", "fetch"},
    "sidepanel/math-worker.js": {"onmessage"},
}


def production_scripts() -> list[Path]:
    return [p for p in sorted(EXTENSION.rglob("*.js")) if "vendor" not in p.relative_to(EXTENSION).parts]


def globals_made(source: str) -> list[str]:
    return [match.group(1) or match.group(0) for match in GLOBAL_MADE.finditer(source)]


def test_production_code_makes_no_global_but_its_own_and_the_handle():
    scripts = production_scripts()
    assert len(scripts) > 80
    made = {str(p.relative_to(EXTENSION)): set(globals_made(p.read_text())) for p in scripts if p != HANDLE}
    unexpected = {name: found - OWN_GLOBALS.get(name, set()) for name, found in made.items()}
    assert {name: found for name, found in unexpected.items() if found} == {}


def test_the_global_check_sees_every_way_of_making_one():
    for source in ("globalThis.__test = 1;", "window.hook = x;", "self.probe ??= {};", "globalThis['x'] = 1;",
                   "Object.assign(globalThis, { a });", "Object.defineProperty(window, 'a', {});"):
        assert globals_made(source), source
    assert not globals_made("if (globalThis.TabAgentPage?.run === f) x = 1; const a = window.location;")
    assert globals_made(HANDLE.read_text()), "the handle itself makes tabagentDebug"


def entry_points() -> list[Path]:
    """The modules a page or the manifest starts: nothing imports them."""
    pages = [(html.parent / src).resolve() for html in EXTENSION.rglob("*.html")
             for src in re.findall(r'<script[^>]*type="module"[^>]*src="([^"]+)"', html.read_text())]
    worker = json.loads((ROOT / "manifest.json").read_text())["background"]["service_worker"]
    return [*pages, (ROOT / worker).resolve()]


def test_entry_points_export_nothing():
    """An export of a module nothing imports exists for someone outside: the handle is that way."""
    found = entry_points()
    assert {p.name for p in found} >= {"sidepanel.js", "offscreen.js", "options.js", "sandbox.js", "service-worker.js"}
    assert {p.name: re.findall(r"^export\b.*", p.read_text(), re.M) for p in found} == {p.name: [] for p in found}


def test_every_content_script_member_is_read_by_the_extension():
    """The content scripts share TabAgentPage; a member no other script reads is there for a test."""
    content = sorted((EXTENSION / "content").glob("*.js"))
    readers = [*content, *(EXTENSION / "background").glob("*.js")]
    members = {(name, path) for path in content for name in re.findall(r"^\s*page\.(\w+) = ", path.read_text(), re.M)}
    assert len(members) > 8
    unread = [(name, path.name) for name, path in members
              if not any(other != path and re.search(rf"(?:page|TabAgentPage)\??\.{name}\b", other.read_text())
                         for other in readers)]
    assert unread == []


def test_each_debug_entry_is_declared_registered_and_documented():
    declared = json.loads(re.search(r"const ENTRIES = Object\.freeze\((\[.*?\])\)", HANDLE.read_text())[1])
    registered = [name for p in production_scripts()
                  for name in re.findall(r'exposeForDebugging\("(\w+)"', p.read_text())]
    assert sorted(registered) == sorted(declared)
    documented = (ROOT / "docs" / "extending.md").read_text()
    assert [name for name in declared if f"tabagentDebug.{name}" not in documented] == []


def test_the_python_package_exports_nothing_for_tests():
    """What plays a model back for tests lives in tabagent.testing, not among the package's names
    nor in any module TabAgent runs for a user."""
    names = ast.literal_eval(re.search(r"__all__ = (\[.*?\])", (PACKAGE / "__init__.py").read_text(), re.S)[1])
    assert "ScriptedModel" not in names
    scripted = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if p.name != "testing.py"
                and any(isinstance(node, ast.ClassDef) and re.match(r"(Scripted|Fake|Mock|Stub)", node.name)
                        for node in ast.walk(ast.parse(p.read_text())))]
    assert scripted == []
