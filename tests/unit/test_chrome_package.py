"""What Chrome's package holds (scripts/browser_builds.py): the files something in it loads, and
no other script, page or style sheet. Chrome's service worker is the one bundle
extension/vendor/service-worker.js (test_service_worker_bundle.py); the modules of
extension/background/ it is made of are Firefox's event page, which Chrome's package leaves out,
as it leaves out the modules of shared/ and platform/chrome/ only Firefox's modules import. Those
the side panel, the offscreen document or a page import stay.

What is loaded is followed here from the manifest, as the browser does: each page's scripts and
style sheets, each script's imports (static or not), the workers and frames it starts
(`new URL("./x.js", import.meta.url)`), and the files it names from the package's root
("extension/...", as chrome.runtime.getURL takes them), the bundles' names included. What
extension/vendor/ holds besides (Pyodide, the wheels, pdf.js's files) is loaded by what was
vendored, and is not followed.

One exception is left as it was: the sources of the content scripts (extension/content/), which
build.py bundles into extension/vendor/injected.js, the file the service worker injects; both
packages hold them, and nothing in either loads them."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from tests.helpers.javascript_source import IMPORT

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "extension"
VENDOR = EXTENSION / "vendor"
sys.path.insert(0, str(ROOT / "scripts"))
import browser_builds  # noqa: E402  (scripts/browser_builds.py)
import build  # noqa: E402  (scripts/build.py)
from manifests import chrome_manifest  # noqa: E402

# A file named from the package's root: "extension/offscreen/offscreen.html", "extension/vendor/pdfjs/".
FROM_ROOT = re.compile(r"""["'`](extension/[\w./-]+)""")
# A worker's or a frame's file, relative to the module: new URL("./worker.js", import.meta.url).
RELATIVE_URL = re.compile(r"""new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url""")
# A page's scripts and style sheets.
PAGE_FILE = re.compile(r"""<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)\"""")
LOADED_KINDS = (".js", ".mjs", ".html", ".css")


def package() -> set[Path]:
    """The files of Chrome's package, as the source tree's paths (the manifest apart)."""
    skip = browser_builds.left_out("chrome")
    return {path for name in browser_builds.SHARED_FOLDERS for path in browser_builds.packaged(ROOT / name, skip)}


def named_in_manifest(value) -> list[str]:
    if isinstance(value, dict):
        return [name for item in value.values() for name in named_in_manifest(item)]
    if isinstance(value, list):
        return [name for item in value for name in named_in_manifest(item)]
    return [value] if isinstance(value, str) and value.startswith("extension/") else []


def loads(path: Path) -> set[str]:
    """What the file loads: paths of files, and of folders (ending in "/") it loads from."""
    text = path.read_text(errors="replace")
    named = [(ROOT, name) for name in FROM_ROOT.findall(text)]
    if path.suffix == ".html":
        named += [(path.parent, name) for name in PAGE_FILE.findall(text)]
    elif path.suffix in (".js", ".mjs") and not path.is_relative_to(VENDOR):
        named += [(path.parent, name) for name in IMPORT.findall(text) + RELATIVE_URL.findall(text)]
    return {str((folder / name).resolve()) + ("/" if name.endswith("/") else "") for folder, name in named}


def chromes_manifest() -> dict:
    return chrome_manifest(json.loads((ROOT / "manifest.json").read_text()))


def loaded_from_manifest() -> set[str]:
    """What Chrome loads, from what its manifest names: not background.scripts, which Chrome
    ignores (web-ext lint reads it, scripts/manifests.py)."""
    manifest = chromes_manifest()
    manifest["background"] = {key: value for key, value in manifest["background"].items() if key != "scripts"}
    reached, waiting = set(), [str(ROOT / name) for name in named_in_manifest(manifest)]
    while waiting:
        name = waiting.pop()
        if name in reached:
            continue
        reached.add(name)
        if name.endswith(LOADED_KINDS) and Path(name).is_file():
            waiting += loads(Path(name))
    return reached


def test_the_chrome_package_holds_every_file_it_loads_and_no_script_nothing_loads():
    assert (VENDOR / "build-info.json").is_file(), "extension/vendor/ is not built: run `make unpacked` (make check does)"
    files = {str(path) for path in package()}
    loaded = loaded_from_manifest()
    named = loaded | {str(ROOT / name) for name in chromes_manifest()["background"]["scripts"]}
    missing = sorted(name for name in named if name not in files and not (name.endswith("/") and any(f.startswith(name) for f in files)))
    assert missing == []
    content_sources = {str(path) for path in browser_builds._imports_reached({build.CONTENT_ENTRY})}
    unloaded = sorted(str(Path(name).relative_to(ROOT)) for name in files - loaded - content_sources
                      if name.endswith(LOADED_KINDS) and not Path(name).is_relative_to(VENDOR))
    assert unloaded == []
    # The worker is the bundle, and loads the offscreen document; the event page is not there.
    assert str(VENDOR / "service-worker.js") in files & loaded and str(browser_builds.EVENT_PAGE) not in files
    assert str(EXTENSION / "offscreen" / "offscreen.html") in loaded and str(EXTENSION / "vendor" / "injected.js") in loaded


def test_the_modules_left_out_are_those_only_firefox_loads():
    """Each module left out is the event page's or Firefox's own modules' (its import graph is
    what the bundle holds); those the other pages share with the event page stay."""
    left = browser_builds.firefox_only_modules()
    event_page = browser_builds._imports_reached({browser_builds.EVENT_PAGE})
    firefox = {path for path in left if path.is_relative_to(browser_builds.PLATFORM / "firefox")}
    assert browser_builds.EVENT_PAGE in left and len(left & event_page) > 30  # 38 of its 62 on 2026-12-07
    assert left - event_page - firefox == {EXTENSION / "shared" / "storage" / "key-value-database.js"}  # Firefox's stores
    shared = EXTENSION / "shared"
    kept = {shared / "storage" / "conversations.js", shared / "settings" / "settings.js", shared / "protocol" / "messages.js"}
    assert kept <= event_page and not kept & left
