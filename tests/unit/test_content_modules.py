"""The content scripts are ES modules that import what they use, bundled into one file per
injection: nothing depends on the order they load in, and none shares anything with another
through a global (extension/content/injected.js leaves the one object the service worker calls).

Before, 24 classic scripts shared globalThis.TabAgentPage in the order of a files.json (and of a
comment repeating it): main-content.js broke if it loaded before content-quality.js.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.javascript_source import IMPORT, globals_made

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "extension"
CONTENT = EXTENSION / "content"
ENTRY = CONTENT / "injected.js"
RELAY = EXTENSION / "background" / "page-tool-relay.js"


def modules() -> list[Path]:
    return sorted(CONTENT.glob("*.js"))


def imports_of(path: Path) -> list[Path]:
    return [(path.parent / target).resolve() for target in IMPORT.findall(path.read_text())]


def test_every_content_module_is_in_the_one_injected_bundle():
    """Walking the imports from the entry reaches every module: none is injected on its own."""
    reached, waiting = set(), [ENTRY]
    while waiting:
        path = waiting.pop()
        if path not in reached:
            reached.add(path)
            waiting += [p for p in imports_of(path) if p.is_relative_to(CONTENT)]
    assert len(modules()) > 20
    assert sorted(p.name for p in set(modules()) - reached) == []


def test_nothing_lists_the_content_scripts_in_an_order():
    """No files.json (or any list) beside the modules, and nothing in the extension, the build or
    the test helpers reads one: the order is the imports', which esbuild follows."""
    assert sorted(p.name for p in CONTENT.iterdir() if p.suffix != ".js") == []
    readers = [*EXTENSION.rglob("*.js"), *(ROOT / "scripts").glob("*.py"), *(ROOT / "tests" / "helpers").glob("*.py")]
    readers = [p for p in readers if "vendor" not in p.relative_to(ROOT).parts]
    assert len(readers) > 100
    assert [str(p.relative_to(ROOT)) for p in readers if "files.json" in p.read_text()] == []


def test_the_service_worker_injects_the_bundle_the_build_makes():
    """One executeScript of files: the browser's own file (Firefox's storage guard) and the bundle."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import build
    relay = RELAY.read_text()
    assert re.findall(r"files: (\w+)", relay) == ["FILES_TO_INJECT"]
    assert re.search(r"const FILES_TO_INJECT = \[\.\.\.FIRST_IN_EVERY_PAGE, CONTENT_SCRIPTS\];", relay)
    assert re.search(r'const CONTENT_SCRIPTS = "([^"]+)";', relay)[1] == str(build.CONTENT_BUNDLE.relative_to(ROOT))
    assert build.CONTENT_ENTRY == ENTRY
    for world in (EXTENSION / "platform" / "chrome" / "first-in-pages.js", EXTENSION / "platform" / "firefox" / "first-in-pages.js"):
        first = re.search(r"FIRST_IN_EVERY_PAGE = \[([^\]]*)\]", world.read_text())[1]
        assert "content/" not in first, world


def test_only_the_entry_makes_a_global_and_no_module_reads_one():
    """TabAgentPage is made by injected.js, for the service worker; no module reads it or any other
    global a content module makes."""
    made = {p.name: set(globals_made(p.read_text())) for p in modules()}
    assert {name: found for name, found in made.items() if found} == {"injected.js": {"TabAgentPage"}}
    readers = [p.name for p in modules() if p != ENTRY and re.search(r"\bTabAgentPage\b", p.read_text())]
    assert readers == []


# Each module imported alone, in a fresh Node.js whose global object takes no new property but
# TabAgentPage (and the DOM constant that modules read as they load): a module that set a global
# for another, or needed one set before it, fails to load.
ALONE = """
globalThis.NodeFilter = { SHOW_ELEMENT: 1, SHOW_TEXT: 4, SHOW_CDATA_SECTION: 8 };
globalThis.TabAgentPage = undefined;
Object.preventExtensions(globalThis);
await import(process.argv[1]);
"""


def load_alone(module: Path) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to check the JavaScript modules")
    return subprocess.run([node, "--input-type=module", "-e", ALONE, module.as_uri()], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("module", modules(), ids=[p.name for p in modules()])
def test_each_module_loads_alone_without_making_a_global(module):
    done = load_alone(module)
    assert done.returncode == 0, done.stderr


def test_loading_alone_fails_for_a_module_that_makes_a_global(tmp_path):
    (tmp_path / "sets.mjs").write_text("globalThis.sharedWithTheNext = {};\n")
    (tmp_path / "needs.mjs").write_text("globalThis.TabAgentPage.lexicon.words;\n")
    (tmp_path / "fine.mjs").write_text("const kept = new Map();\nexport { kept };\n")
    assert [load_alone(tmp_path / name).returncode != 0 for name in ("sets.mjs", "needs.mjs", "fine.mjs")] == [True, True, False]
