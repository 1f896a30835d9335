#!/usr/bin/env python3
"""`make run`: Chromium with TabAgent loaded and the side panel page open.

web-ext runs Chromium and reloads the extension; this script decides when. It looks at what
the extension is made of (manifest.json, _locales/, extension/) and at py/, which it
rebuilds into extension/vendor/, and after a saved edit touches a stamp file, the one file
web-ext watches. web-ext is not left to watch the repository itself: its ignore globs are
matched against absolute paths (a relative `.cache/**` ignores nothing), and its own filter
lets through the dot-named files Chromium's profile writes (`.org.chromium.Chromium.*`), so
the profile under .cache/ reloaded the extension every 11 s, each reload writing the profile
again. With no display, Chromium runs headless (DevTools on a local port) and the script
says how to load the extension in your own Chrome instead.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import run_model  # noqa: E402  (beside this script: the on-device model a fresh profile answers with)
CHROMIUM = os.environ.get("TABAGENT_CHROMIUM", "/usr/bin/chromium")
DEVTOOLS_PORT = int(os.environ.get("TABAGENT_DEVTOOLS_PORT", "9222"))
PROFILE = Path(os.environ.get("TABAGENT_PROFILE", ROOT / ".cache" / "chromium-profile"))
EXTENSION_SOURCES = [ROOT / "manifest.json", ROOT / "_locales", ROOT / "extension"]  # what Chromium loads
PYTHON_SOURCES = [ROOT / "py"]
VENDOR = ROOT / "extension" / "vendor"  # what scripts/build.py writes: py/ and the bundled modules
OFFER_TRIES = 40  # looks (every half second) at handing the extension its on-device model before giving up  # built into extension/vendor/ by scripts/build.py


def extension_id(path: Path) -> str:
    """Chrome names an unpacked extension after the SHA-256 of its folder's path."""
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:32]
    return "".join(chr(ord("a") + int(c, 16)) for c in digest)


def chromium_args(headless: bool) -> list[str]:
    args = [
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-features=DisableLoadExtensionCommandLineSwitch",
        f"--remote-debugging-port={DEVTOOLS_PORT}",
    ]
    if headless:
        args += ["--headless=new", "--disable-gpu"]
    if os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    return args


def start_web_ext(headless: bool, stamp: Path) -> subprocess.Popen:
    """web-ext reloads the extension when `stamp` changes, and on nothing else."""
    PROFILE.mkdir(parents=True, exist_ok=True)
    command = [
        str(ROOT / "node_modules" / ".bin" / "web-ext"), "run",
        "--source-dir", str(ROOT), "--target", "chromium",
        "--chromium-binary", CHROMIUM, "--chromium-profile", str(PROFILE),
        "--profile-create-if-missing", "--keep-profile-changes", "--no-input",
        "--watch-file", str(stamp),
    ]
    command += [f"--arg={arg}" for arg in chromium_args(headless)]
    return subprocess.Popen(command, cwd=ROOT)


def devtools(path: str, method: str = "GET"):
    request = urllib.request.Request(f"http://127.0.0.1:{DEVTOOLS_PORT}{path}", method=method)
    return json.load(urllib.request.urlopen(request, timeout=2))


def keep_side_panel_open(ext_id: str, panel_url: str, model: dict) -> None:
    """Opens the panel page once the extension is up, and again after each reload closes it;
    before the first, hands the extension the on-device model (run_model.py)."""
    try:
        targets = devtools("/json/list")
    except OSError:
        return  # Chromium is still starting
    urls = [target["url"] for target in targets]
    worker = next((t for t in targets if t["url"].startswith(f"chrome-extension://{ext_id}/") and t["url"].endswith("service-worker.js")), None)
    if worker and not model.get("offered") and worker.get("webSocketDebuggerUrl"):
        try:
            run_model.offer(worker["webSocketDebuggerUrl"], model["record"])
            model["offered"] = True
            print(f"run: the on-device model ({model['record']['name']}) is served from {model['record']['url']}", flush=True)
        except Exception as error:  # the worker between lives, a refusal: asked again, a few times
            model["tries"] = model.get("tries", 0) + 1
            if model["tries"] < OFFER_TRIES:
                return
            model["offered"] = True  # the panel opens all the same; settings can still choose a model
            print(f"run: could not hand the on-device model to the extension ({error}): choose a model in settings", flush=True)
    if worker and panel_url not in urls:
        devtools(f"/json/new?{panel_url}", method="PUT")


def is_scratch(path: Path) -> bool:
    """Files no one edits: caches, and what editors keep beside a file (.x.swp, x~, #x#)."""
    return "__pycache__" in path.parts or any(part.startswith((".", "#")) or part.endswith("~") for part in path.parts)


def snapshot(roots: list[Path]) -> dict[Path, tuple[int, int]]:
    """When each file under `roots` was last written, and its size."""
    seen = {}
    for root in roots:
        for path in [root] if root.is_file() else root.rglob("*"):
            try:
                if path.is_file() and not is_scratch(path.relative_to(root)):
                    stat = path.stat()
                    seen[path] = (stat.st_mtime_ns, stat.st_size)
            except FileNotFoundError:
                pass  # removed while we looked; the next look sees it gone
    return seen


def changed(before: dict, after: dict) -> list[Path]:
    """The files written, added or removed between two snapshots."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def rebuild() -> None:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], cwd=ROOT)


def reload_extension(stamp: Path, edited: list[Path]) -> None:
    names = ", ".join(str(path.relative_to(ROOT)) for path in edited[:3]) + (" ..." if len(edited) > 3 else "")
    print(f"\nrun: reloading the extension ({names} saved)", flush=True)
    stamp.write_text(f"{time.time_ns()}\n")


def watch(browser: subprocess.Popen, stamp: Path, panel_url: str, model: dict) -> None:
    """Until the browser ends: a saved py/ file is rebuilt, then any change to the extension
    (by hand or by that build) reloads it once, and the panel page is opened again. A saved
    script is rebuilt first: Chrome's service worker and the content scripts are bundles."""
    python, extension = snapshot(PYTHON_SOURCES), snapshot(EXTENSION_SOURCES)
    while browser.poll() is None:
        time.sleep(0.5)
        keep_side_panel_open(extension_id(ROOT), panel_url, model)
        if (now := snapshot(PYTHON_SOURCES)) != python:
            python = now
            rebuild()
        if edited := changed(extension, now := snapshot(EXTENSION_SOURCES)):
            if any(path.suffix == ".js" and not path.is_relative_to(VENDOR) for path in edited):
                rebuild()  # a module of a bundle (Chrome's service worker, the content scripts)
                now = snapshot(EXTENSION_SOURCES)  # with what the build wrote: one reload
            extension = now
            reload_extension(stamp, edited)


def main() -> None:
    headless = not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    panel_url = f"chrome-extension://{extension_id(ROOT)}/extension/sidepanel/sidepanel.html"
    if headless:
        print(
            "run: there is no display here, so Chromium starts headless.\n"
            f"     Inspect it at http://127.0.0.1:{DEVTOOLS_PORT} (DevTools), or load TabAgent in your own Chrome:\n"
            "     chrome://extensions -> Developer mode -> Load unpacked -> choose this folder:\n"
            f"     {ROOT}\n"
            "     then click the TabAgent toolbar button to open the side panel."
        )
    try:
        server, record = run_model.serve_model()
    except Exception as error:  # no network for the first download, a full disk: TabAgent runs all the same
        print(f"run: the on-device model is not here ({error}); choose a model in settings", flush=True)
        server, record = None, None
    model = {"record": record, "offered": record is None}
    with tempfile.TemporaryDirectory(prefix="tabagent-run-") as work:
        stamp = Path(work) / "reload"
        stamp.write_text("\n")
        browser = start_web_ext(headless, stamp)
        print(f"run: side panel page: {panel_url}\n     Edits to extension/ reload it; edits to py/ or to scripts rebuild, then reload. Ctrl-C stops.")
        try:
            watch(browser, stamp, panel_url, model)
        except KeyboardInterrupt:
            pass
        finally:
            browser.terminate()
            browser.wait(timeout=10)
            if server:
                server.shutdown()


if __name__ == "__main__":
    main()
