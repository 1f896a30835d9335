"""The build: what the packed zip holds, what lint says, what the repository root may hold."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def make(target: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "--no-print-directory", target], cwd=ROOT, capture_output=True, text=True)


def test_zip_ships_the_extension_and_nothing_else():
    result = make("build")
    assert result.returncode == 0, result.stdout + result.stderr
    version = json.loads((ROOT / "manifest.json").read_text())["version"]
    names = zipfile.ZipFile(ROOT / "dist" / f"tabagent-{version}.zip").namelist()
    files = [n for n in names if not n.endswith("/")]
    assert "manifest.json" in files
    for needed in (
        "extension/background/service-worker.js",
        "extension/offscreen/offscreen.html",
        "extension/sidepanel/sidepanel.html",
        "extension/vendor/pyodide/pyodide.asm.wasm",
        "extension/vendor/pyodide/python_stdlib.zip",
        "extension/vendor/tabagent.zip",
        "extension/vendor/python.snapshot",
    ):
        assert needed in files, f"{needed} is missing from the zip"
    unwanted = [n for n in files if n.split("/")[0] in {"tests", "scripts", "bench", "py", "node_modules", "dist", ".venv"} or "node_modules/" in n]
    assert not unwanted, unwanted
    assert all(n == "manifest.json" or n.startswith(("extension/", "_locales/")) for n in files), files
    assert "_locales/en/messages.json" in files and "_locales/de/messages.json" in files


def test_lint_finds_no_errors():
    result = make("lint")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "errors          0" in result.stdout


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
    for path in [manifest["side_panel"]["default_path"], manifest["background"]["service_worker"], *manifest["icons"].values()]:
        assert (ROOT / path).is_file(), path
