#!/usr/bin/env python3
"""Stage one unpacked extension per browser, from the one source tree (after build.py).

dist/chrome/ and dist/firefox/ each hold the manifest for that browser (scripts/manifests.py),
_locales/ and extension/. Browser differences live in small modules, one per concern, a
folder per browser: extension/platform/chrome/ and extension/platform/firefox/, with the same
names and exports. The source imports Chrome's (the repository root is what Chrome loads
unpacked); each package holds its own browser's folder only, and Firefox's package has those
imports pointed at platform/firefox/ (Chrome's side-panel code is not in it at all). Chrome's
service worker is build.py's bundle of extension/background/ (extension/vendor/service-worker.js);
Firefox's event page loads those modules themselves, and its package leaves the bundle out.
`make build` zips each folder; the e2e tests load dist/firefox/ into Firefox. Given a folder
(`browser_builds.py FOLDER`), it stages there instead: tests/build does, so that it never
writes into the tree other tests read.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from manifests import chrome_manifest, firefox_manifest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
EXTENSION = ROOT / "extension"
PLATFORM = EXTENSION / "platform"  # a folder per browser: its module for each concern
SHARED_FOLDERS = ("_locales", "extension")
# Built files for one browser only: Chrome's service worker, bundled with Chrome's modules.
CHROME_ONLY_FILES = (EXTENSION / "vendor" / "service-worker.js",)
# An import of Chrome's module for a concern, as the source writes it: "../platform/chrome/x.js".
CHROMES_MODULE = re.compile(r"""(["'`](?:\.\./)+platform/)chrome/""")


def importing_from(browser: str) -> Callable[[bytes], bytes] | None:
    """What staging does to a script for `browser`: Firefox's imports its own modules."""
    if browser == "chrome":
        return None
    return lambda script: CHROMES_MODULE.sub(rf"\g<1>{browser}/", script.decode()).encode()


def _copy_tree(source: Path, target: Path, skip: set[Path], rewrite: Callable[[bytes], bytes] | None) -> set[Path]:
    """Copies what changed (by size and time; scripts through `rewrite`, by content), returns
    every file the target should hold."""
    kept = set()
    for path in sorted(source.rglob("*")):
        if path.is_dir() or any(path.is_relative_to(s) for s in skip) or "__pycache__" in path.parts:
            continue
        copied = target / path.relative_to(source)
        kept.add(copied)
        if rewrite and path.suffix == ".js" and not path.is_relative_to(EXTENSION / "vendor"):
            _write_if_changed(copied, rewrite(path.read_bytes()))
            continue
        if copied.exists() and copied.stat().st_size == path.stat().st_size and copied.stat().st_mtime >= path.stat().st_mtime:
            continue
        copied.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, copied)
    return kept


def _write_if_changed(target: Path, data: bytes) -> None:
    if target.exists() and target.read_bytes() == data:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def _remove_others(folder: Path, kept: set[Path]) -> None:
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_file() and path not in kept:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def stage(browser: str, manifest: dict, dist: Path = DIST) -> Path:
    folder = dist / browser
    kept = {folder / "manifest.json"}
    others = {path for path in PLATFORM.iterdir() if path.name != browser}
    if browser != "chrome":
        others |= set(CHROME_ONLY_FILES)
    for name in SHARED_FOLDERS:
        kept |= _copy_tree(ROOT / name, folder / name, skip=others, rewrite=importing_from(browser))
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
