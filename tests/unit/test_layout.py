"""The seam in the layout: the agent framework (py/tabagent/*.py, hosts/) never imports the
application built on it (py/tabagent/app/), so the framework runs and is read on its own."""

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "py" / "tabagent"
APP = PACKAGE / "app"
# `python -m tabagent` starts the command line, which is the application: its one way in.
ENTRY_POINT = PACKAGE / "__main__.py"


def framework_modules():
    return [p for p in sorted(PACKAGE.rglob("*.py"))
            if APP not in p.parents and p != ENTRY_POINT and "__pycache__" not in p.parts]


def imported_names(source: str, package: str) -> list[str]:
    """Every module `source` (a module of `package`) imports, as an absolute dotted name."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.append(module)
            names += [f"{module}.{alias.name}" for alias in node.names]
    return names


def test_the_framework_never_imports_the_app():
    modules = framework_modules()
    assert len(modules) > 15, "the walk found too few framework modules to mean anything"
    offending = {str(p.relative_to(PACKAGE)): [n for n in imported_names(p.read_text(), package_of(p)) if is_app(n)]
                 for p in modules}
    assert {name: found for name, found in offending.items() if found} == {}


def package_of(path: Path) -> str:
    return ".".join(("tabagent", *path.parent.relative_to(PACKAGE).parts))


def is_app(name: str) -> bool:
    return name == "tabagent.app" or name.startswith("tabagent.app.")


def test_the_check_sees_relative_and_absolute_imports():
    """The walk itself: every spelling of an import of the app is caught, other imports are not."""
    for source in ("from .app import turns\n", "from .app.turns import Turns\n", "import tabagent.app.cli\n",
                   "from tabagent.app import cli\n", "def f():\n    from .app import cli\n", "from . import app\n"):
        assert any(is_app(n) for n in imported_names(source, "tabagent")), source
    assert any(is_app(n) for n in imported_names("from ..app import cli\n", "tabagent.hosts"))
    assert not any(is_app(n) for n in imported_names("from . import tools\nfrom .hosts.cpython import CPythonHost\n"
                                                     "import apple\n", "tabagent"))


TESTS = Path(__file__).resolve().parents[1]
# A path outside the checkout: the shared test data beside it, or any absolute location.
OUTSIDE = re.compile(r"""\.\./shared|/work/|(?:Path|open)\(\s*["'](?:/|~)""")


def test_nothing_in_tests_reads_outside_the_checkout():
    """`git clone` then `make test` passes anywhere: what the tests need is vendored under tests/."""
    sources = [p for p in TESTS.rglob("*") if p.suffix in {".py", ".mjs", ".js", ".json"}
               and "pages" not in p.parts and p != Path(__file__).resolve()]  # this file names the patterns
    assert len(sources) > 30
    found = {str(p.relative_to(TESTS)): OUTSIDE.findall(p.read_text()) for p in sources}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_outside_pattern_catches_what_it_must():
    shared = "shared"  # spelled apart so that this file itself holds no such path
    for text in (f'Path("/work/{shared}/testdata/pages")', f"ROOT / '../{shared}/testdata'", "open('/etc/passwd')"):
        assert OUTSIDE.search(text), text
    assert not OUTSIDE.search('Path(__file__).parent / "pages" / "readability"')


EXTENSION = Path(__file__).resolve().parents[2] / "extension"
IMPORT = re.compile(r"""(?:\bimport\b[^"'();]*?\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")


def test_each_context_imports_only_its_own_folder_and_shared():
    """extension/<context>/ imports its own files, extension/shared/, extension/vendor/ and
    extension/browser/ only (the browser's module for each concern, which the build chooses):
    code that runs in one context lives in that context's folder."""
    crossing = {}
    for path in sorted(EXTENSION.rglob("*.js")):
        folder = path.parent.relative_to(EXTENSION).parts[0] if path.parent != EXTENSION else ""
        if folder == "vendor":
            continue
        for target in IMPORT.findall(path.read_text()):
            reached = (path.parent / target).resolve().relative_to(EXTENSION).parts[0]
            if reached not in {folder, "shared", "vendor", "browser"}:
                crossing.setdefault(str(path.relative_to(EXTENSION)), []).append(target)
    assert crossing == {}


def test_the_import_pattern_sees_static_and_dynamic_imports():
    text = 'import { a } from "../offscreen/x.js";\nimport * as b from "./y.js";\nawait import("../sandbox/z.js");'
    assert IMPORT.findall(text) == ["../offscreen/x.js", "./y.js", "../sandbox/z.js"]
