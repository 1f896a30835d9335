"""Chrome's service worker is one module (issue 51): scripts/build.py bundles
extension/background/service-worker.js and every module it imports into
extension/vendor/service-worker.js, and the manifest names the bundle.

Each module a service worker loads costs the browser memory for as long as the worker runs: the
62 modules of its import graph took 3.7 MB of anonymous memory at rest over an empty worker's,
their one bundle 1.9 MB (a new profile, panel never opened, 5 s after the start; the same without
DevTools attached). At rest the worker is all there is of TabAgent, so this is its memory at rest.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from tests.helpers.javascript_source import IMPORT, PACKAGE_IMPORT

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "extension" / "background" / "service-worker.js"
sys.path.insert(0, str(ROOT / "scripts"))
import build  # noqa: E402  (scripts/build.py)

# A name a module exports: `export function a`, `export async function a`, `export const a`, `export class A`.
EXPORTED_NAME = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)", re.M)


def worker_modules() -> list[Path]:
    """The service worker's static import graph, from its entry module."""
    reached, waiting = set(), [ENTRY]
    while waiting:
        path = waiting.pop()
        if path not in reached:
            reached.add(path)
            waiting += [(path.parent / target).resolve() for target in IMPORT.findall(path.read_text())]
    return sorted(reached)


def test_chrome_loads_the_bundle_the_build_makes_and_firefox_the_modules():
    background = json.loads((ROOT / "manifest.json").read_text())["background"]
    assert background["service_worker"] == str(build.SERVICE_WORKER_BUNDLE.relative_to(ROOT))
    assert build.SERVICE_WORKER_ENTRY == ENTRY
    assert background["scripts"] == [str(ENTRY.relative_to(ROOT))]  # Firefox's event page
    # Messages from the worker are told by its address (shared/protocol/senders.js).
    chrome_page = (ROOT / "extension" / "platform" / "chrome" / "background-page.js").read_text()
    assert re.search(r'BACKGROUND_PATH = "([^"]+)"', chrome_page)[1] == background["service_worker"]


def test_the_bundle_is_one_module_with_every_modules_exports():
    modules = worker_modules()
    assert len(modules) > 40  # the graph the bundle replaces (62 modules on 2026-12-07)
    bundle = build.service_worker_bundle().decode()
    assert IMPORT.findall(bundle) == [] and PACKAGE_IMPORT.findall(bundle) == []
    # Nothing left out: an export nobody in the worker calls is there too (a name two modules
    # share is renamed with a number).
    exported = {name for path in modules for name in EXPORTED_NAME.findall(path.read_text())}
    assert len(exported) > 200
    missing = sorted(name for name in exported if not re.search(rf"\b(?:function\*?|var|let|const|class)\s+{name}\d*\b", bundle))
    assert missing == []


def test_the_functions_tests_find_by_name_keep_their_names():
    """Tests and benchmarks call a module's function, found on the worker's heap by its name
    (tests/helpers/cdp.py), platform/chrome/real-input.js's tabsUnderInput among them, which
    nothing in the worker calls."""
    callers = [*(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").glob("*.py")]
    names = {name for path in callers
             for name in re.findall(r'call_module_function\([^,]+,\s*"(\w+)"', path.read_text())}
    assert "tabsUnderInput" in names and len(names) >= 5
    bundle = build.service_worker_bundle().decode()
    assert sorted(n for n in names if not re.search(rf"\b(?:function|var|const|let)\s+{n}\b(?!\d)", bundle)) == []
    # ... and something in the worker refers to each: a module's top-level function nothing else
    # refers to is not kept once the bundle has run (a module's exports were), so not found.
    assert sorted(n for n in names if len(re.findall(rf"\b{n}\b", bundle)) < 2) == []


def test_the_bundle_adds_no_helper_of_its_own():
    """A function the worker runs in a tab (executeScript's func: page-tool-relay.js's runInPage)
    goes there as its text alone: a call in it to a helper the bundler added (--keep-names
    adds __name in every function) would fail in the page, every page tool with it."""
    bundle = build.service_worker_bundle().decode()
    injected = re.findall(r"\bfunc:\s*(\w+)", bundle)
    assert "runInPage" in injected
    assert re.findall(r"^(?:var|const|let|function)\s+(__\w+)", bundle, re.M) == []
    assert re.findall(r"\b__\w+\(", bundle) == []
