#!/usr/bin/env python3
"""Build the unpacked extension: fill extension/vendor/ from node_modules and py/.

vendor/ is generated, never edited and never committed. It holds:
- pyodide/      the Pyodide runtime from the pinned npm package (no CDN at run time)
- tabagent.zip  py/tabagent and py/user_tools packed (stored, not compressed: the offscreen
                document's worker writes its files straight into Pyodide's file system at start)
- build-info.json  versions and the package hash (keys the memory snapshot)
- python.snapshot  Pyodide's memory with tabagent imported, made under Node.js
- injected.js   the content scripts: extension/content/injected.js and every module it imports
                (Readability and turndown among them), bundled by esbuild into the one file
                the service worker injects into a tab
- service-worker.js  Chrome's service worker: extension/background/service-worker.js and every
                module it imports, bundled by esbuild into one module (each module a service
                worker loads costs about 30 KB of the browser's memory at rest, for as long as
                the worker runs: 62 of them took 2 MB more than their one bundle, issue 51);
                Firefox's event page loads the modules themselves (scripts/browser_builds.py)
- the rendering libraries, copied as the browser files they ship
- ext-apps/app-bridge.mjs  the host side of MCP Apps (@modelcontextprotocol/ext-apps' AppBridge
                and PostMessageTransport, with the MCP SDK parts they use), bundled by esbuild:
                the panel talks to an MCP App's frame through it (sidepanel/app-view.js)
- wheels/       pure-Python libraries for the sandbox (beautifulsoup4...), from PyPI, pinned

Run it again after editing py/ and reload the extension. Unchanged files are not copied.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vendor_wllama  # noqa: E402  (beside this script)

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
VENDOR = ROOT / "extension" / "vendor"
PACKAGE = ROOT / "py" / "tabagent"
# The developer's own tools: packed next to tabagent/ (so in the package hash), imported at
# turn time by tabagent.app.user_tools, never at import (the snapshot must not depend on them).
USER_TOOLS = ROOT / "py" / "user_tools"
# The wire contract, declared in Python and mirrored for JavaScript by this build (committed,
# so that the unbuilt tree reads true; tests/unit/test_wire.py fails when it drifts).
PYTHON_SETUP = ROOT / "extension" / "shared" / "python" / "interpreter-setup.js"
WIRE_JS = ROOT / "extension" / "shared" / "wire.js"
# The content scripts: one entry module, one bundled file per injection (page-tool-relay.js).
CONTENT_ENTRY = ROOT / "extension" / "content" / "injected.js"
CONTENT_BUNDLE = VENDOR / "injected.js"
ESBUILD = NODE_MODULES / ".bin" / "esbuild"
# Chrome's service worker: one entry module, one bundled module that the manifest names.
SERVICE_WORKER_ENTRY = ROOT / "extension" / "background" / "service-worker.js"
SERVICE_WORKER_BUNDLE = VENDOR / "service-worker.js"
# MCP Apps' host-side bridge: the official package's, as one ES module the panel imports.
APP_BRIDGE = VENDOR / "ext-apps" / "app-bridge.mjs"
APP_BRIDGE_ENTRY = 'export { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";\n'
APP_BRIDGE_LICENSES = {"@modelcontextprotocol/ext-apps/LICENSE": "ext-apps/LICENSE",
                       "@modelcontextprotocol/client/LICENSE": "ext-apps/LICENSE-mcp-sdk",
                       "zod/LICENSE": "ext-apps/LICENSE-zod"}

PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]

# npm file -> vendor path: browser builds. (Readability and turndown are bundled into
# injected.js from their npm packages; their licences ship beside it.)
LIBRARIES = {
    "@mozilla/readability/LICENSE.md": "readability/LICENSE.md",
    "turndown/LICENSE": "turndown/LICENSE",
    "marked/lib/marked.esm.js": "marked/marked.esm.js",
    "marked/LICENSE": "marked/LICENSE",
    "dompurify/dist/purify.es.mjs": "dompurify/purify.es.mjs",
    "dompurify/LICENSE": "dompurify/LICENSE",
    # The chat's answers: code highlighting, math (KaTeX with its fonts: nothing remote).
    "marked-highlight/src/index.js": "marked-highlight/marked-highlight.mjs",
    "marked-highlight/LICENSE": "marked-highlight/LICENSE",
    "highlight.js/LICENSE": "highlight/LICENSE",
    "highlight.js/styles/github.min.css": "highlight/github.min.css",
    "highlight.js/styles/github-dark.min.css": "highlight/github-dark.min.css",
    "katex/dist/katex.mjs": "katex/katex.mjs",
    "katex/dist/katex.min.css": "katex/katex.min.css",
    "katex/LICENSE": "katex/LICENSE",
    # pdf.js reads PDF tabs in the offscreen document (ES modules; its worker runs from 'self').
    "pdfjs-dist/build/pdf.min.mjs": "pdfjs/pdf.min.mjs",
    "pdfjs-dist/build/pdf.worker.min.mjs": "pdfjs/pdf.worker.min.mjs",
    "pdfjs-dist/LICENSE": "pdfjs/LICENSE",
    # The on-device model's file checks: SHA-256 a piece at a time (WebCrypto hashes only whole buffers).
    "hash-wasm/dist/index.esm.min.js": "hash-wasm/hash-wasm.mjs",
    "hash-wasm/LICENSE": "hash-wasm/LICENSE",
}
# llama.cpp in WebAssembly, the on-device model's runtime: scripts/vendor_wllama.py.
# npm folder -> vendor folder, every file in it: pdf.js's character maps, for the text of
# PDFs in Chinese, Japanese and Korean fonts.
LIBRARY_FOLDERS = {
    "pdfjs-dist/cmaps": "pdfjs/cmaps",
}
# What builds before the bundle copied for the classic content scripts.
NO_LONGER_VENDORED = ("readability/Readability.js", "readability/Readability-readerable.js", "turndown/turndown.js")
# KaTeX's fonts: woff2 is the first source its CSS names, the only one Chrome fetches.
LIBRARIES.update({f"katex/dist/fonts/{font.name}": f"katex/fonts/{font.name}"
                  for font in sorted((NODE_MODULES / "katex" / "dist" / "fonts").glob("*.woff2"))})


# Pure-Python wheels the sandbox's Pyodide installs at start (it has no network to get them):
# file name -> sha256. Downloaded once from PyPI into .cache/wheels, checked, then copied.
SANDBOX_WHEELS = {
    "beautifulsoup4-4.15.0-py3-none-any.whl": "d6f88de62e1d4e38ecb1077eb9724cd0eff29d2a08ca16a401e9b9e93f117cf9",
    "soupsieve-4.1.3-py3-none-any.whl": "7a390d1a57d1ab7bb228531e9b8a750a5ebf87db774e0ef6faeeac057d22a5bf",
    "typing_extensions-4.16.0-py3-none-any.whl": "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8",
}
WHEEL_CACHE = ROOT / ".cache" / "wheels"


def fail(message: str) -> None:
    print(f"build: {message}", file=sys.stderr)
    sys.exit(1)


def copy_if_changed(source: Path, target: Path) -> bool:
    if not source.exists():
        fail(f"{source.relative_to(ROOT)} is missing: run `npm ci` (make does it for you)")
    if target.exists() and target.stat().st_size == source.stat().st_size and target.stat().st_mtime >= source.stat().st_mtime:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
    return True


def package_files() -> list[Path]:
    package = [p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts]
    return sorted(package + list(USER_TOOLS.glob("*.py")))


def pack_package() -> bytes:
    """A reproducible zip of py/tabagent and py/user_tools: same sources, same bytes, same hash.
    Stored, not deflated: extension/offscreen/python/package-files.js reads the files as views."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for path in package_files():
            info = zipfile.ZipInfo(str(path.relative_to(PACKAGE.parent)), date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def write_if_changed(target: Path, data: bytes) -> bool:
    if target.exists() and target.read_bytes() == data:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return True


def highlight_module() -> bytes:
    """highlight.js ships its core and languages as CommonJS only: wrap them into one ES
    module (the core plus the languages of its own "common" set) the panel can import."""
    lib = NODE_MODULES / "highlight.js" / "lib"
    if not lib.exists():
        fail("node_modules/highlight.js is missing: run `npm ci` (make does it for you)")
    languages = re.findall(r"registerLanguage\('([\w-]+)', require\('./languages/([\w-]+)'\)\)", (lib / "common.js").read_text())

    def wrapped(path: Path) -> str:
        return f"((module) => {{\n{path.read_text()}\nreturn module.exports;\n}})({{ exports: {{}} }})"

    parts = ["// Generated by scripts/build.py from node_modules/highlight.js (BSD-3-Clause): do not edit.",
             f"const hljs = {wrapped(lib / 'core.js')};"]
    parts += [f"hljs.registerLanguage({name!r}, {wrapped(lib / 'languages' / (file + '.js'))});" for name, file in languages]
    parts.append("export default hljs;")
    return ("\n".join(parts) + "\n").encode()


def make_snapshot(key: str, archive: bytes) -> bool:
    """Remakes the memory snapshot when the runtime or the package changed (about 2 s).

    It is made aside and moved in at the end, so `make run`'s watcher sees the new package and
    its snapshot land together and reloads the extension once, not twice."""
    sidecar = VENDOR / "python.snapshot.json"
    if sidecar.exists() and (VENDOR / "python.snapshot").exists() and json.loads(sidecar.read_text()).get("key") == key:
        return False
    with tempfile.TemporaryDirectory(prefix="tabagent-snapshot-") as work:
        package, snapshot = Path(work) / "tabagent.zip", Path(work) / "python.snapshot"
        package.write_bytes(archive)
        command = ["node", str(ROOT / "scripts" / "make-snapshot.mjs"), str(package), str(snapshot), key]
        if subprocess.run(command, cwd=ROOT).returncode != 0:
            # Not fatal: the extension starts without a snapshot and shows the import error itself.
            print("build: no memory snapshot this time (see the error above); Python will start slowly", file=sys.stderr)
            sidecar.unlink(missing_ok=True)
            return False
        shutil.move(str(snapshot), VENDOR / "python.snapshot")
        shutil.move(str(snapshot) + ".json", sidecar)
    return True


def wire_modules() -> dict[Path, str]:
    """extension/shared/wire.js, made from py/tabagent/app/wire.py (tabagent is pure Python:
    importing it needs nothing installed)."""
    sys.path.insert(0, str(PACKAGE.parent))
    try:
        wire = importlib.import_module("tabagent.app.wire")
    finally:
        sys.path.remove(str(PACKAGE.parent))
    return {WIRE_JS: wire.javascript_module()}


def content_bundle(entry: Path = CONTENT_ENTRY) -> bytes:
    """The content scripts as one classic script: `entry` and the modules it imports, bundled
    by esbuild (pinned in package.json) in an IIFE, unminified so that it reads as written."""
    if not ESBUILD.exists():
        fail("node_modules/.bin/esbuild is missing: run `npm ci` (make does it for you)")
    command = [str(ESBUILD), str(entry.relative_to(ROOT)), "--bundle", "--format=iife", "--platform=browser",
               "--target=chrome116,firefox140", "--charset=utf8", "--legal-comments=inline", "--log-level=warning"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True)
    if done.returncode != 0:
        fail(f"esbuild could not bundle {entry.relative_to(ROOT)}:\n{done.stderr.decode()}")
    return done.stdout


def service_worker_bundle(entry: Path = SERVICE_WORKER_ENTRY) -> bytes:
    """Chrome's service worker as one ES module: `entry` and the modules it imports, bundled by
    esbuild, unminified so that it reads as written. Nothing is left out (--tree-shaking=false:
    every module's exports are there, as when the worker loaded the modules themselves: tests
    find a module's function on the worker's heap by its name, tests/helpers/cdp.py). No
    --keep-names: it puts calls to a helper of the bundle inside functions, and a function
    the worker runs in a tab (executeScript's func) goes there as its text alone, without it."""
    if not ESBUILD.exists():
        fail("node_modules/.bin/esbuild is missing: run `npm ci` (make does it for you)")
    command = [str(ESBUILD), str(entry.relative_to(ROOT)), "--bundle", "--format=esm", "--platform=browser",
               "--target=chrome116", "--charset=utf8", "--tree-shaking=false", "--legal-comments=inline", "--log-level=warning"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True)
    if done.returncode != 0:
        fail(f"esbuild could not bundle {entry.relative_to(ROOT)}:\n{done.stderr.decode()}")
    return done.stdout


def app_bridge_bundle() -> bytes:
    """ext-apps' AppBridge and PostMessageTransport as one ES module (esbuild, from stdin, so
    that nothing of ours sits beside node_modules), minified: it is large (the MCP SDK's
    protocol layer and zod) and loaded only when a step shows an MCP App."""
    command = [str(ESBUILD), "--bundle", "--format=esm", "--platform=browser", "--minify", "--target=chrome116,firefox140",
               "--charset=utf8", "--legal-comments=eof", "--log-level=warning"]
    done = subprocess.run(command, cwd=ROOT, input=APP_BRIDGE_ENTRY.encode(), capture_output=True)
    if done.returncode != 0:
        fail(f"esbuild could not bundle the MCP Apps bridge (@modelcontextprotocol/ext-apps):\n{done.stderr.decode()}")
    return done.stdout


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def vendor_wheels() -> list[str]:
    """Puts the sandbox's wheels and their list in vendor/wheels/; returns what it wrote."""
    written = []
    for name, digest in SANDBOX_WHEELS.items():
        cached = WHEEL_CACHE / name
        if not cached.exists() or sha256_of(cached) != digest:
            project, version = name.split("-")[:2]
            command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                       "--dest", str(WHEEL_CACHE), f"{project}=={version}"]
            if subprocess.run(command, cwd=ROOT).returncode != 0 or not cached.exists():
                fail(f"could not download {name} from PyPI (the sandbox needs it); is the network up?")
            if sha256_of(cached) != digest:
                cached.unlink()
                fail(f"{name} from PyPI does not have the pinned sha256: refusing it")
        if copy_if_changed(cached, VENDOR / "wheels" / name):
            written.append(f"wheels/{name}")
    for old in (VENDOR / "wheels").glob("*.whl"):
        if old.name not in SANDBOX_WHEELS:
            old.unlink()  # an earlier pin: it must not ship
    if write_if_changed(VENDOR / "wheels" / "wheels.json", (json.dumps(sorted(SANDBOX_WHEELS)) + "\n").encode()):
        written.append("wheels/wheels.json")
    return written


def main() -> None:
    pyodide_package = json.loads((NODE_MODULES / "pyodide" / "package.json").read_text()) if (NODE_MODULES / "pyodide").exists() else None
    if pyodide_package is None:
        fail("node_modules/pyodide is missing: run `npm ci` (make does it for you)")
    changed = []
    for name in PYODIDE_FILES:
        if copy_if_changed(NODE_MODULES / "pyodide" / name, VENDOR / "pyodide" / name):
            changed.append(f"pyodide/{name}")
    for source, target in LIBRARIES.items():
        if copy_if_changed(NODE_MODULES / source, VENDOR / target):
            changed.append(target)
    if write_if_changed(VENDOR / "highlight" / "highlight.mjs", highlight_module()):
        changed.append("highlight/highlight.mjs")
    for source, target in LIBRARY_FOLDERS.items():
        if not (NODE_MODULES / source).is_dir():
            fail(f"node_modules/{source} is missing: run `npm ci` (make does it for you)")
        for path in sorted((NODE_MODULES / source).glob("*")):
            if copy_if_changed(path, VENDOR / target / path.name):
                changed.append(f"{target}/{path.name}")
    changed += vendor_wheels()
    try:
        on_device = vendor_wllama.vendored_files(NODE_MODULES)
    except (OSError, vendor_wllama.VendorError) as error:
        fail(f"the on-device model's runtime: {error} (run `npm ci` if node_modules is missing)")
    for target, data in on_device.items():
        if write_if_changed(VENDOR / target, data):
            changed.append(target)
    for target, text in wire_modules().items():
        if write_if_changed(target, text.encode()):
            changed.append(f"../{target.parent.name}/{target.name}")
    if write_if_changed(CONTENT_BUNDLE, content_bundle()):
        changed.append(CONTENT_BUNDLE.name)
    if write_if_changed(SERVICE_WORKER_BUNDLE, service_worker_bundle()):
        changed.append(SERVICE_WORKER_BUNDLE.name)
    if write_if_changed(APP_BRIDGE, app_bridge_bundle()):
        changed.append("ext-apps/app-bridge.mjs")
    for source, target in APP_BRIDGE_LICENSES.items():
        if copy_if_changed(NODE_MODULES / source, VENDOR / target):
            changed.append(target)
    for gone in NO_LONGER_VENDORED:
        (VENDOR / gone).unlink(missing_ok=True)  # an older build's copy: it must not ship
    archive = pack_package()
    info = {
        "pyodideVersion": pyodide_package["version"],
        # The snapshot holds what interpreter-setup.js imports too: a change there makes a new one.
        "packageHash": hashlib.sha256(archive + PYTHON_SETUP.read_bytes()).hexdigest()[:16],
        "packageFiles": len(package_files()),
    }
    VENDOR.mkdir(parents=True, exist_ok=True)
    if make_snapshot(f"{info['pyodideVersion']}/{info['packageHash']}", archive):
        changed.append("python.snapshot")
    if write_if_changed(VENDOR / "tabagent.zip", archive):
        changed.append("tabagent.zip")
    if write_if_changed(VENDOR / "build-info.json", (json.dumps(info, indent=2) + "\n").encode()):
        changed.append("build-info.json")
    print(f"build: extension/vendor up to date ({len(changed)} file(s) written{': ' + ', '.join(changed[:6]) if changed else ''})")


if __name__ == "__main__":
    main()
