#!/usr/bin/env python3
"""Stage one unpacked extension per browser, from the one source tree (after build.py).

dist/chrome/ and dist/firefox/ each hold the manifest for that browser (scripts/manifests.py),
_locales/ and extension/. Browser differences live in small modules, one per concern:
extension/browser/ holds Chrome's (what the repository root loads unpacked), and
extension/firefox/ holds Firefox's, which are dist/firefox/extension/browser/ (Chrome's
side-panel code is not in Firefox's package at all).
`make build` zips each folder; the e2e tests load dist/firefox/ into Firefox. Given a folder
(`browser_builds.py FOLDER`), it stages there instead: tests/build does, so that it never
writes into the tree other tests read.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from manifests import chrome_manifest, firefox_manifest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
EXTENSION = ROOT / "extension"
BROWSER_MODULES = EXTENSION / "browser"  # Chrome's modules, one per concern
FIREFOX_MODULES = EXTENSION / "firefox"  # Firefox's, with the same names and exports
SHARED_FOLDERS = ("_locales", "extension")


def _copy_tree(source: Path, target: Path, skip: set[Path]) -> set[Path]:
    """Copies what changed (by size and time), returns every file the target should hold."""
    kept = set()
    for path in sorted(source.rglob("*")):
        if path.is_dir() or any(path.is_relative_to(s) for s in skip) or "__pycache__" in path.parts:
            continue
        copied = target / path.relative_to(source)
        kept.add(copied)
        if copied.exists() and copied.stat().st_size == path.stat().st_size and copied.stat().st_mtime >= path.stat().st_mtime:
            continue
        copied.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, copied)
    return kept


def _remove_others(folder: Path, kept: set[Path]) -> None:
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_file() and path not in kept:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def stage(browser: str, manifest: dict, dist: Path = DIST) -> Path:
    folder = dist / browser
    kept = {folder / "manifest.json"}
    modules = BROWSER_MODULES if browser == "chrome" else FIREFOX_MODULES
    left_out = {FIREFOX_MODULES, BROWSER_MODULES}
    for name in SHARED_FOLDERS:
        kept |= _copy_tree(ROOT / name, folder / name, skip=left_out)
    kept |= _copy_tree(modules, folder / "extension" / "browser", skip=set())
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    _remove_others(folder, kept)
    return folder


def main(dist: Path = DIST) -> None:
    source = json.loads((ROOT / "manifest.json").read_text())
    for browser, manifest in (("chrome", chrome_manifest(source)), ("firefox", firefox_manifest(source))):
        print(f"browser_builds: {stage(browser, manifest, dist)}/ staged")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else DIST)
