#!/usr/bin/env python3
"""Stage one unpacked extension per browser, from the one source tree (after build.py).

dist/chrome/ and dist/firefox/ each hold the manifest for that browser (scripts/manifests.py),
_locales/ and extension/. Browser differences live in small modules, one per concern, a
folder per browser: extension/platform/chrome/ and extension/platform/firefox/, with the same
names and exports. The source imports Chrome's (the repository root is what Chrome loads
unpacked); each package holds its own browser's folder only, and Firefox's package has those
imports pointed at platform/firefox/ (Chrome's side-panel code is not in it at all). Chrome's
service worker is build.py's bundle of extension/background/ (extension/vendor/service-worker.js);
Firefox's event page loads those modules themselves, and its package leaves the bundle out;
Chrome's leaves out the modules only Firefox loads (`firefox_only_modules`: in the event
page's import graph, or platform/firefox/'s, and in no other page's, worker's or script's).
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
# Firefox's event page (manifest.json's background.scripts), the entry of Chrome's bundle.
EVENT_PAGE = EXTENSION / "background" / "service-worker.js"
# A relative module a script imports or re-exports, statically or not: `import { a } from "./x.js"`,
# `export { b } from "../y.js"`, `import("./z.js")`.
IMPORT = re.compile(r"""(?:\b(?:import|export)\b[^"'();]*?\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")


def _imports_reached(starts: set[Path]) -> set[Path]:
    """The scripts `starts` are and every module their imports reach, in extension/ outside vendor/."""
    reached, waiting = set(), list(starts)
    while waiting:
        path = waiting.pop()
        if path in reached or path.is_relative_to(EXTENSION / "vendor"):
            continue
        reached.add(path)
        waiting += [(path.parent / target).resolve() for target in IMPORT.findall(path.read_text())]
    return reached


def firefox_only_modules() -> set[Path]:
    """The modules only Firefox loads: those of its event page's import graph, and of its
    platform modules' (platform/firefox/, left out whole), that no other script of Chrome's
    package imports, however indirectly (the side panel, the offscreen document and the pages
    share many of shared/ and platform/chrome/ with the event page). In Chrome the service
    worker's bundle holds the event page's, and nothing loads them."""
    scripts = {path for path in EXTENSION.rglob("*") if path.suffix in (".js", ".mjs") and not path.is_relative_to(EXTENSION / "vendor")}
    firefox = _imports_reached({EVENT_PAGE} | {path for path in scripts if path.is_relative_to(PLATFORM / "firefox")})
    return firefox - _imports_reached(scripts - firefox)


def importing_from(browser: str) -> Callable[[bytes], bytes] | None:
    """What staging does to a script for `browser`: Firefox's imports its own modules."""
    if browser == "chrome":
        return None
    return lambda script: CHROMES_MODULE.sub(rf"\g<1>{browser}/", script.decode()).encode()


def left_out(browser: str) -> set[Path]:
    """The files and folders of SHARED_FOLDERS that `browser`'s package does not hold."""
    others = {path for path in PLATFORM.iterdir() if path.name != browser}
    return others | (firefox_only_modules() if browser == "chrome" else set(CHROME_ONLY_FILES))


def packaged(source: Path, skip: set[Path]) -> list[Path]:
    """The files of `source` a package holds, but those in or under `skip`."""
    return [path for path in sorted(source.rglob("*")) if path.is_file() and "__pycache__" not in path.parts
            and not any(path.is_relative_to(s) for s in skip)]


def _copy_tree(source: Path, target: Path, skip: set[Path], rewrite: Callable[[bytes], bytes] | None) -> set[Path]:
    """Copies what changed (by size and time; scripts through `rewrite`, by content), returns
    every file the target should hold."""
    kept = set()
    for path in packaged(source, skip):
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
    others = left_out(browser)
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
