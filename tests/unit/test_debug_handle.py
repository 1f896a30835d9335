"""One way in for tests: what tests and developers inspect in the extension goes through the
debug handle (extension/shared/debug/debug-handle.js, globalThis.tabagentDebug), and production code
grows no global, entry-point export or content-module export of its own for them."""

import ast
import json
import re
from pathlib import Path

from tests.helpers.javascript_source import globals_made

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "extension"
HANDLE = EXTENSION / "shared" / "debug" / "debug-handle.js"
PACKAGE = ROOT / "py" / "tabagent"

# The globals production code makes, each for a reason of its own and none for a test.
OWN_GLOBALS = {
    # What the content scripts' bundle leaves for the service worker's calls, in the extension's
    # isolated world of the tab, which the page cannot see (extension/content/injected.js).
    "content/injected.js": {"TabAgentPage"},
    # The code sandbox's worker replaces its own timers and fetch (what model code may use).
    "sandbox/worker.js": {"onmessage", "setTimeout", "setInterval", "fetch"},
    "sidepanel/math-worker.js": {"onmessage"},
}


def production_scripts() -> list[Path]:
    return [p for p in sorted(EXTENSION.rglob("*.js")) if "vendor" not in p.relative_to(EXTENSION).parts]


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


def imported_modules() -> set[Path]:
    """Every module another of the extension's modules imports (relative specifiers)."""
    return {(source.parent / spec).resolve() for source in EXTENSION.rglob("*.js")
            if "vendor" not in source.relative_to(EXTENSION).parts
            for spec in re.findall(r"""(?:^|\s)(?:import|export)\b[^;]*?from\s*["'](\.{1,2}/[^"']+)["']""",
                                   source.read_text(), re.M)}


def entry_points() -> list[Path]:
    """The modules a page or the manifest starts and nothing imports (a page may start first a
    module others import too, as the offscreen document does its worker's start: not counted)."""
    pages = [(html.parent / src).resolve() for html in EXTENSION.rglob("*.html")
             for src in re.findall(r'<script[^>]*type="module"[^>]*src="([^"]+)"', html.read_text())]
    # The worker's entry module (Firefox loads it; Chrome, bundled by scripts/build.py).
    worker = json.loads((ROOT / "manifest.json").read_text())["background"]["scripts"][0]
    imported = imported_modules()
    return [p for p in (*pages, (ROOT / worker).resolve()) if p not in imported]


def test_entry_points_export_nothing():
    """An export of a module nothing imports exists for someone outside: the handle is that way."""
    found = entry_points()
    assert {p.name for p in found} >= {"sidepanel.js", "offscreen.js", "options.js", "sandbox.js", "service-worker.js"}
    assert {p.name: re.findall(r"^export\b.*", p.read_text(), re.M) for p in found} == {p.name: [] for p in found}


# `import { a, b as c } from "./x.js"`, `import * as x from "./x.js"`; `export { a, b }`, `export const a`.
NAMED_IMPORT = re.compile(r"""import\s*\{([^}]*)\}\s*from\s*["']\./([\w-]+\.js)["']""")
NAMESPACE_IMPORT = re.compile(r"""import\s*\*\s*as\s+(\w+)\s+from\s*["']\./([\w-]+\.js)["']""")
EXPORTED = re.compile(r"^export\s*(?:\{([^}]*)\}|(?:const|let|function|class)\s+(\w+))", re.M)


def exports_of(source: str) -> set[str]:
    names = set()
    for listed, one in EXPORTED.findall(source):
        names |= {n.split(" as ")[-1].strip() for n in listed.split(",") if n.strip()} if listed else {one}
    return names


def imported_from(source: str) -> set[tuple[str, str]]:
    """(file, name) for every name a content module takes from a module beside it."""
    taken = {(file, n.split(" as ")[0].strip()) for names, file in NAMED_IMPORT.findall(source) for n in names.split(",") if n.strip()}
    for alias, file in NAMESPACE_IMPORT.findall(source):
        taken |= {(file, member) for member in re.findall(rf"(?<![\w./]){alias}\.(\w+)", source)}
    return taken


def test_every_content_module_export_is_imported_by_another_module():
    """An export no other content module takes is there for a test (tests bundle their own entry:
    tests/helpers/content_bundle.py)."""
    content = sorted((EXTENSION / "content").glob("*.js"))
    taken = set().union(*(imported_from(p.read_text()) for p in content))
    exported = {(p.name, name) for p in content for name in exports_of(p.read_text())}
    assert len(exported) > 40
    assert sorted(exported - taken) == []


def test_the_export_check_sees_each_way_of_exporting_and_importing():
    assert exports_of("export { a, b as c };\nexport const d = 1;\nexport function e() {}\nexport class F {}") == {"a", "c", "d", "e", "F"}
    source = 'import { a, b as c } from "./x.js";\nimport * as y from "./y.js";\ny.z(); y.w;'
    assert imported_from(source) == {("x.js", "a"), ("x.js", "b"), ("y.js", "z"), ("y.js", "w")}


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
