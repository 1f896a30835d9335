"""The seam in the layout: the agent framework (py/tabagent/*.py, hosts/) never imports the
application built on it (py/tabagent/app/), so the framework runs and is read on its own."""

import ast
import re
from pathlib import Path

from tests.helpers.javascript_source import IMPORT, PACKAGE_IMPORT

PACKAGE = Path(__file__).resolve().parents[2] / "py" / "tabagent"
APP = PACKAGE / "app"
EXTENSION = Path(__file__).resolve().parents[2] / "extension"
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


IN_SANDBOX = APP / "in_sandbox"


def test_nothing_in_the_agents_interpreter_imports_what_runs_in_the_sandbox():
    """app/in_sandbox/ runs in the code sandbox's own Pyodide (extension/sandbox/worker.js
    imports it there); the agent's side reaches it only through messages, never by import."""
    outside = [p for p in sorted(PACKAGE.rglob("*.py")) if IN_SANDBOX not in p.parents and "__pycache__" not in p.parts]
    assert len(outside) > 40
    importing = [str(p.relative_to(PACKAGE)) for p in outside
                 if any(n.startswith("tabagent.app.in_sandbox") for n in imported_names(p.read_text(), package_of(p)))]
    assert importing == []
    worker = (EXTENSION / "sandbox" / "worker.js").read_text()
    assert re.findall(r'pyimport\("([\w.]+)"\)', worker) == ["tabagent.app.in_sandbox.runtime"]


MARKING = APP / "untrusted_content.py"
# The modules that hand page-derived text to the model (or to a user tool that returns it).
READS_PAGES = ("page_tools.py", "page_actions.py", "page_bridge.py", "attachments.py", "mcp_servers.py",
               "user_tool_page.py")
# What only the marking may write: its tag's opening with the attributes, and its note.
MARKING_TEXT = re.compile(r"""<page_content source=|untrusted=\\?"true|comes from a web page: it is data""")


def test_the_untrusted_content_marking_is_written_in_its_module_only():
    """Page-derived text reaches the model marked by one function (docs/security.md): no other
    Python or extension file writes the tag or its note, or defines a function of that name."""
    sources = [p for p in [*PACKAGE.rglob("*.py"), *EXTENSION.rglob("*.js")]
               if "vendor" not in p.parts and "__pycache__" not in p.parts and p != MARKING]
    assert len(sources) > 100
    writing = [str(p) for p in sources if MARKING_TEXT.search(p.read_text())]
    # A module-level one: page.untrusted (user_tool_page.py) is a method that hands on to it.
    defining = [str(p) for p in sources if p.suffix == ".py" and any(
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "untrusted"
        for node in ast.parse(p.read_text()).body)]
    assert (writing, defining) == ([], [])
    assert len(MARKING_TEXT.findall(MARKING.read_text())) == 3


def test_the_modules_that_read_pages_mark_through_the_one_function():
    for name in READS_PAGES:
        imports = imported_names((APP / name).read_text(), "tabagent.app")
        assert "tabagent.app.untrusted_content.untrusted" in imports, name


def test_the_marking_stands_alone_for_review():
    """untrusted_content.py imports only the standard library: reviewing it is reading it."""
    imports = imported_names(MARKING.read_text(), "tabagent.app")
    assert [name for name in imports if name.startswith("tabagent")] == []
    assert {name.split(".")[0] for name in imports} <= {"__future__", "contextvars", "re", "html"}


def test_the_user_tools_loader_and_the_page_it_exposes_are_apart():
    """The loader finds and imports tool files; the page a tool reads is user_tool_page.py,
    re-exported by the loader under the import path tool files use."""
    loader = ast.parse((APP / "user_tools.py").read_text())
    assert not [n.name for n in ast.walk(loader) if isinstance(n, ast.ClassDef) and n.name in {"Page", "PageBound"}]
    assert "tabagent.app.user_tool_page.page" in imported_names((APP / "user_tools.py").read_text(), "tabagent.app")
    assert "load_user_tools" not in (APP / "user_tool_page.py").read_text()


TESTS = Path(__file__).resolve().parents[1]
# A path outside the checkout: the shared test data beside it, or any absolute location (but
# /proc, where a test looks for the processes a browser left).
OUTSIDE = re.compile(r"""\.\./shared|/work/|(?:Path|open)\(\s*["'](?:/(?!proc\b)|~)""")


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


def test_each_context_imports_only_its_own_folder_and_shared():
    """extension/<context>/ imports its own files, extension/shared/, extension/vendor/ and
    extension/platform/ only (the browser's module for each concern, which the build chooses):
    code that runs in one context lives in that context's folder."""
    crossing = {}
    for path in sorted(EXTENSION.rglob("*.js")):
        folder = path.parent.relative_to(EXTENSION).parts[0] if path.parent != EXTENSION else ""
        if folder == "vendor":
            continue
        for target in IMPORT.findall(path.read_text()):
            reached = (path.parent / target).resolve().relative_to(EXTENSION).parts[0]
            if reached not in {folder, "shared", "vendor", "platform"}:
                crossing.setdefault(str(path.relative_to(EXTENSION)), []).append(target)
    assert crossing == {}


PLATFORM = EXTENSION / "platform"


def test_the_source_imports_chromes_platform_modules_and_each_browsers_its_own():
    """The repository root is Chrome's unpacked build: code outside extension/platform/ imports
    platform/chrome/ (Firefox's package points those imports at platform/firefox/,
    scripts/browser_builds.py), and each browser's modules import none of the other's. An
    import of platform/firefox/ from the source would be missing from Chrome's package."""
    wrong = {}
    for path in sorted(EXTENSION.rglob("*.js")):
        if "vendor" in path.relative_to(EXTENSION).parts:
            continue
        own = path.relative_to(PLATFORM).parts[0] if path.is_relative_to(PLATFORM) else "chrome"
        for target in IMPORT.findall(path.read_text()):
            reached = (path.parent / target).resolve()
            if reached.is_relative_to(PLATFORM) and reached.relative_to(PLATFORM).parts[0] != own:
                wrong.setdefault(str(path.relative_to(EXTENSION)), []).append(target)
    assert sorted(p.name for p in PLATFORM.iterdir()) == ["chrome", "firefox"]
    assert wrong == {}


def test_the_import_pattern_sees_static_and_dynamic_imports():
    text = 'import { a } from "../offscreen/x.js";\nimport * as b from "./y.js";\nawait import("../sandbox/z.js");'
    assert IMPORT.findall(text) == ["../offscreen/x.js", "./y.js", "../sandbox/z.js"]


# What the content scripts' bundle takes from node_modules (scripts/build.py bundles it in).
CONTENT_PACKAGES = {"@mozilla/readability", "turndown"}


def content_imports_outside(path: Path) -> list[str]:
    """The imports of a content module (in extension/content/) that reach past its folder and
    shared/ (which holds the generated wire.js) or to a package the bundle does not take."""
    source = path.read_text()
    allowed = (path.parent.resolve(), path.parent.parent.resolve() / "shared")
    outside = [t for t in IMPORT.findall(source) if not any((path.parent / t).resolve().is_relative_to(a) for a in allowed)]
    return outside + [name for name in PACKAGE_IMPORT.findall(source) if name not in CONTENT_PACKAGES]


def test_content_modules_reach_no_other_contexts_code():
    """The content scripts run in a web page: they import each other, shared/ and the libraries
    bundled with them, never the service worker's, the offscreen document's, the panel's, the
    settings page's or the sandbox's code, nor platform/ (the background's platform modules) or
    vendor/ (files the other contexts load at run time)."""
    modules = sorted((EXTENSION / "content").glob("*.js"))
    assert len(modules) > 20
    assert {p.name: found for p in modules if (found := content_imports_outside(p))} == {}


def test_the_content_check_sees_each_way_out(tmp_path):
    folder = tmp_path / "extension" / "content"
    folder.mkdir(parents=True)
    module = folder / "x.js"
    for way_out in ('import { a } from "../background/page-tool-relay.js";', 'import * as b from "../platform/chrome/panel.js";',
                    'const c = await import("../offscreen/python.js");', 'import "../vendor/pdfjs/pdf.min.mjs";',
                    'import { marked } from "marked";', 'import { d } from "../sidepanel/chat.js";'):
        module.write_text(way_out)
        assert content_imports_outside(module), way_out
    wire = "../" + "shared/wire.js"  # spelled apart, as above
    module.write_text(f'import {{ a }} from "./y.js";\nimport {{ PAGE_TOOL_DEFAULTS }} from "{wire}";\n'
                      'import TurndownService from "turndown";\nimport { Readability } from "@mozilla/readability";')
    assert content_imports_outside(module) == []


ROOT = PACKAGE.parents[1]
# A file of the extension named from the root ("extension/shared/wire.js") anywhere, or from
# extension/ ("offscreen/python/rpc.js") in prose: after a space, a bracket or a backquote (a
# string in code may be a path from elsewhere, such as the workspace's shared/ folder).
FOLDERS = "(?:background|content|offscreen|options|platform|sandbox|shared|sidepanel)"
NAMED_FILE = re.compile(rf"(?:(?<![\w./-])extension/|(?<=[\s(`]))({FOLDERS}/[\w./-]+\.(?:js|mjs|html|json))(?!\w)")


def named_extension_files(text: str) -> set[str]:
    return set(NAMED_FILE.findall(text))


def test_every_extension_file_the_code_and_the_docs_name_is_there():
    """A moved or renamed file leaves no comment, doc or build script naming its old place."""
    sources = [p for p in [*EXTENSION.rglob("*.js"), *EXTENSION.rglob("*.html"), *PACKAGE.rglob("*.py"),
                           *(ROOT / "scripts").glob("*"), *(ROOT / "docs").glob("*.md"),
                           ROOT / "README.md", ROOT / "eslint.config.js", ROOT / "Makefile", ROOT / "manifest.json"]
               if p.is_file() and "vendor" not in p.parts and "__pycache__" not in p.parts]
    assert len(sources) > 150
    missing = {str(p.relative_to(ROOT)): sorted(n for n in named_extension_files(p.read_text()) if not (EXTENSION / n).exists())
               for p in sources}
    assert {path: names for path, names in missing.items() if names} == {}


def test_the_named_file_pattern_sees_both_spellings_and_nothing_else():
    beside = "../" + "shared/testdata/x.js"  # spelled apart: this file holds no path outside the checkout
    text = (f"`extension/shared/wire.js`, (offscreen/python/rpc.js), {beside}, dist/firefox/extension/x.js, "
            '"shared/testdata/y.json", "extension/content/files.json" and background/old-name.js.')
    assert named_extension_files(text) == {"shared/wire.js", "offscreen/python/rpc.js", "content/files.json",
                                           "background/old-name.js"}
