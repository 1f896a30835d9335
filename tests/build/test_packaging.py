"""The build: what the packed zip holds, what lint says, what the repository root may hold.

The packages are staged and packed in a folder of their own, from the unpacked extension
`make check` built first, never in the tree the unit tests read (extension/shared/wire.js, dist/),
and never by a make target that installs. Packing both and linting them (web-ext: about 50 s of
CPU) is most of these tests' cost, so the tests that read the packages (`PACKED`) run in
`make test`, after `make check`; the rest run in `make check`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


VENDOR = ROOT / "extension" / "vendor"
PACKED = pytest.mark.after_check  # reads the packed packages: left to `make test`


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """`make build`'s packages, staged (scripts/browser_builds.py) and packed (`make zips`, the
    recipe `make build` runs) in a folder of this test's."""
    assert (VENDOR / "build-info.json").is_file(), "extension/vendor/ is not built: run `make unpacked` (make check does)"
    folder = tmp_path_factory.mktemp("dist")
    staged = subprocess.run([sys.executable, str(ROOT / "scripts" / "browser_builds.py"), str(folder)], capture_output=True, text=True)
    assert staged.returncode == 0, staged.stdout + staged.stderr
    packed = subprocess.run(["make", "--no-print-directory", "zips", f"DIST={folder}"], cwd=ROOT, capture_output=True, text=True)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    return folder


def _zip_files(browser: str, dist: Path) -> list[str]:
    version = json.loads((ROOT / "manifest.json").read_text())["version"]
    names = zipfile.ZipFile(dist / f"tabagent-{browser}-{version}.zip").namelist()
    return [n for n in names if not n.endswith("/")]


def _zip_manifest(browser: str, dist: Path) -> dict:
    version = json.loads((ROOT / "manifest.json").read_text())["version"]
    with zipfile.ZipFile(dist / f"tabagent-{browser}-{version}.zip") as archive:
        return json.loads(archive.read("manifest.json"))


def test_packing_installs_nothing_and_builds_nothing_in_the_tree():
    """`make build` ran here once: its prerequisites ran `npm ci` when package-lock.json was
    newer than the last install (emptying a node_modules other checkouts shared) and rewrote
    extension/shared/wire.js while the unit tests beside these read it."""
    plan = subprocess.run(["make", "--no-print-directory", "-n", "zips", "DIST=/elsewhere"], cwd=ROOT,
                          capture_output=True, text=True).stdout
    assert "build --source-dir /elsewhere/$browser --artifacts-dir /elsewhere" in plan
    assert not re.search(r"npm (ci|install)|pip install|scripts/(build|browser_builds)\.py", plan), plan


@PACKED
def test_each_browsers_zip_ships_the_extension_and_nothing_else(dist):
    for browser in ("chrome", "firefox"):
        files = _zip_files(browser, dist)
        assert "manifest.json" in files
        for needed in (
            # Chrome's service worker, bundled (scripts/build.py); Firefox's event page's modules
            "extension/vendor/service-worker.js" if browser == "chrome" else "extension/background/service-worker.js",
            "extension/offscreen/offscreen.html",
            "extension/sidepanel/sidepanel.html",
            f"extension/platform/{browser}/conversation-store.js",  # the panel's and the worker's
            "extension/vendor/pyodide/pyodide.asm.wasm",
            "extension/vendor/pyodide/python_stdlib.zip",
            "extension/vendor/tabagent.zip",
            "extension/vendor/python.snapshot",
            "extension/vendor/injected.js",  # the content scripts, bundled
        ):
            assert needed in files, f"{needed} is missing from the {browser} zip"
        unwanted = [n for n in files if n.split("/")[0] in {"tests", "scripts", "bench", "py", "node_modules", "dist", ".venv"} or "node_modules/" in n]
        assert not unwanted, unwanted
        assert all(n == "manifest.json" or n.startswith(("extension/", "_locales/")) for n in files), files
        assert "_locales/en/messages.json" in files and "_locales/de/messages.json" in files
        # Each package holds its own browser's modules; the other's are not shipped.
        other = "firefox" if browser == "chrome" else "chrome"
        assert not [n for n in files if n.startswith(f"extension/platform/{other}/")], browser
    # ... nor Chrome's service worker, bundled with Chrome's modules, in Firefox's; nor in
    # Chrome's the modules only Firefox's event page loads (tests/unit/test_chrome_package.py).
    assert "extension/vendor/service-worker.js" not in _zip_files("firefox", dist)
    assert not [n for n in _zip_files("chrome", dist) if n.startswith("extension/background/")]


@PACKED
def test_each_package_has_its_browsers_modules(dist):
    chrome, firefox = (dist / "chrome" / "extension" / "platform" / "chrome"), (dist / "firefox" / "extension" / "platform" / "firefox")
    source = ROOT / "extension" / "platform"
    assert (chrome / "conversation-store.js").read_text() == (source / "chrome" / "conversation-store.js").read_text()
    assert not (chrome / "python-page.js").exists()  # the service worker's alone: in its bundle
    assert (firefox / "python-page.js").read_text() == (source / "firefox" / "python-page.js").read_text()
    assert "chrome.offscreen" not in (firefox / "python-page.js").read_text()
    assert not (firefox / "side-panel-shortcut.js").exists()  # Chrome's side panel only
    # Every concern has both versions, with the same exports.
    export = re.compile(r"^export (?:async )?(?:function|const) (\w+)", re.M)
    for module in (source / "chrome").glob("*.js"):
        twin = source / "firefox" / module.name
        if module.name == "side-panel-shortcut.js":
            continue  # used by Chrome's panel.js only
        assert twin.exists(), f"extension/platform/firefox/{module.name} is missing"
        assert set(export.findall(module.read_text())) == set(export.findall(twin.read_text())), module.name


IMPORT = re.compile(r"""(?:\bimport\b[^"'();]*?\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")
# A file named beside the script (a worker's, the sandbox page's), or in an HTML page.
BESIDE = re.compile(r"""new URL\(\s*["']([^"':]+)["']\s*,\s*import\.meta\.url|\bsrc=["']([^"':]+)["']""")
# A file named from the package's root (chrome.runtime.getURL, scripting.executeScript's files).
FROM_ROOT = re.compile(r"""["'](extension/[\w./-]+\.(?:js|html|json))["']""")


def _named_files(page: Path, extension: Path) -> list[Path]:
    text = page.read_text()
    named = [page.parent / target for target in IMPORT.findall(text)]
    named += [page.parent / (a or b) for a, b in BESIDE.findall(text)]
    return named + [extension.parent / path for path in FROM_ROOT.findall(text)]


@PACKED
def test_every_file_each_package_names_is_a_file_it_holds(dist):
    """What a package's scripts and pages import, start or inject is in that package: Firefox's
    imports its own platform modules (the source imports Chrome's), and no move left a name
    behind (a 404 at run time)."""
    for browser in ("chrome", "firefox"):
        extension = dist / browser / "extension"
        pages = [p for p in extension.rglob("*") if p.suffix in {".js", ".html"} and "vendor" not in p.relative_to(extension).parts]
        assert len(pages) > 50, browser
        missing = [f"{p.relative_to(extension)}: {named}" for p in pages for named in _named_files(p, extension)
                   if not named.resolve().exists()]
        assert missing == [], browser
        assert f"/platform/{browser}/" in "\n".join(p.read_text() for p in pages), browser


def test_the_named_files_pattern_sees_each_way_a_file_is_named(tmp_path):
    page = tmp_path / "extension" / "offscreen" / "x.js"
    page.parent.mkdir(parents=True)
    page.write_text('import { a } from "../background/a.js";\nnew Worker(new URL("w.js", import.meta.url));\n'
                    'chrome.runtime.getURL("extension/offscreen/offscreen.html");\n<script src="s.js">')
    assert [p.resolve().relative_to(tmp_path) for p in _named_files(page, tmp_path / "extension")] == [
        Path("extension/background/a.js"), Path("extension/offscreen/w.js"), Path("extension/offscreen/s.js"),
        Path("extension/offscreen/offscreen.html")]


@PACKED
def test_chromes_manifest_is_the_source_without_firefoxs_sidebar(dist):
    source = json.loads((ROOT / "manifest.json").read_text())
    chrome = _zip_manifest("chrome", dist)
    assert chrome["side_panel"] == source["side_panel"] and chrome["sandbox"] == source["sandbox"]
    assert "sidebar_action" not in chrome
    assert {"sidePanel", "offscreen"} <= set(chrome["permissions"])
    assert chrome["background"]["service_worker"] == "extension/vendor/service-worker.js"


@PACKED
def test_firefoxs_manifest_has_a_sidebar_an_event_page_and_a_stable_id(dist):
    firefox = _zip_manifest("firefox", dist)
    assert firefox["sidebar_action"]["default_panel"] == "extension/sidepanel/sidepanel.html"
    assert firefox["background"] == {"type": "module", "scripts": ["extension/background/service-worker.js"]}
    gecko = firefox["browser_specific_settings"]["gecko"]
    assert gecko["id"] == "tabagent@tabagent.dev"
    # data_collection_permissions (which addons.mozilla.org asks of new add-ons) arrived in 140.
    assert int(gecko["strict_min_version"].split(".")[0]) >= 140
    for chrome_only in ("side_panel", "sandbox", "minimum_chrome_version"):
        assert chrome_only not in firefox
    assert not {"sidePanel", "offscreen"} & set(firefox["permissions"])
    assert "sandbox" not in firefox["content_security_policy"]
    # Firefox toggles its sidebar itself on this command, inside the key press.
    assert "_execute_sidebar_action" in firefox["commands"] and "toggle-panel" not in firefox["commands"]


def _lint(folder: Path) -> subprocess.Popen:
    return subprocess.Popen([str(ROOT / "node_modules" / ".bin" / "web-ext"), "lint", "--source-dir", str(folder), "--output", "json",
                             "--ignore-files", "!extension/vendor/**/*.zip"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def lint_reports(dist):
    """What `make lint` reports on each package, read once, both at the same time (web-ext
    lint takes 10-30 s a package, mostly waiting on one core)."""
    running = {browser: _lint(dist / browser) for browser in ("chrome", "firefox")}
    return {browser: json.loads(linting.communicate()[0]) for browser, linting in running.items()}


def test_make_lint_lints_both_packages_as_these_tests_do():
    recipe = subprocess.run(["make", "--no-print-directory", "-n", "lint"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "lint --source-dir dist/$browser --ignore-files '!extension/vendor/**/*.zip'" in recipe
    assert "for browser in chrome firefox" in recipe


@PACKED
def test_lint_finds_no_errors_in_either_package(lint_reports):
    for browser, report in lint_reports.items():
        assert report["errors"] == [], (browser, report["errors"])


@PACKED
def test_firefoxs_package_uses_no_api_firefox_lacks(lint_reports):
    report = lint_reports["firefox"]
    unsupported = [m for m in report["warnings"] if m["code"] in {"UNSUPPORTED_API", "MANIFEST_PERMISSIONS"} or "UNSUPPORTED" in m["code"] and "ANDROID" not in m["code"]]
    assert not unsupported, unsupported


def test_nothing_at_the_root_starts_with_an_underscore():
    # Chrome refuses to load an extension whose root holds such a file or folder, except
    # _locales/ (its place for translations).
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert not [path for path in tracked if path.startswith("_") and not path.startswith("_locales/")]


def test_manifest_is_what_the_extension_needs():
    manifest = json.loads((ROOT / "manifest.json").read_text())
    assert manifest["manifest_version"] == 3
    assert manifest["background"]["type"] == "module"
    for permission in ("sidePanel", "offscreen", "storage", "unlimitedStorage", "contextMenus", "scripting", "tabs", "activeTab"):
        assert permission in manifest["permissions"]
    assert manifest["content_security_policy"]["extension_pages"].startswith("script-src 'self' 'wasm-unsafe-eval'")
    for path in [manifest["side_panel"]["default_path"], manifest["sidebar_action"]["default_panel"],
                 manifest["background"]["service_worker"], *manifest["icons"].values()]:
        assert (ROOT / path).is_file(), path


def test_only_chromes_package_asks_for_the_debugger_and_at_install():
    """Real input (docs/security.md, "Real input"): Chrome's package asks for "debugger" among
    the install permissions, where Chrome grants it (listed as optional, Chrome drops it), and
    Firefox's, which has no chrome.debugger, does not ask for it at all."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from manifests import chrome_manifest, firefox_manifest

    source = json.loads((ROOT / "manifest.json").read_text())
    for manifest in (source, chrome_manifest(source)):
        assert "debugger" in manifest["permissions"] and "debugger" not in manifest.get("optional_permissions", [])
    firefox = firefox_manifest(source)
    assert "debugger" not in [*firefox["permissions"], *firefox.get("optional_permissions", [])]
