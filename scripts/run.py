#!/usr/bin/env python3
"""`make run`: Chromium with TabAgent loaded and the side panel page open.

web-ext runs Chromium and reloads the extension whenever a file of it changes; this script
adds the one thing web-ext cannot see: an edit under py/ rebuilds extension/vendor/, which
web-ext then notices and reloads. With no display, Chromium runs headless (DevTools on a
local port) and the script says how to load the extension in your own Chrome instead.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("TABAGENT_CHROMIUM", "/usr/bin/chromium")
DEVTOOLS_PORT = int(os.environ.get("TABAGENT_DEVTOOLS_PORT", "9222"))
PROFILE = Path(os.environ.get("TABAGENT_PROFILE", ROOT / ".cache" / "chromium-profile"))
WATCHED = [ROOT / "py"]


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


def start_web_ext(headless: bool) -> subprocess.Popen:
    PROFILE.mkdir(parents=True, exist_ok=True)
    command = [
        str(ROOT / "node_modules" / ".bin" / "web-ext"), "run",
        "--source-dir", str(ROOT), "--target", "chromium",
        "--chromium-binary", CHROMIUM, "--chromium-profile", str(PROFILE),
        "--profile-create-if-missing", "--keep-profile-changes", "--no-input",
        "--watch-ignored", "py/**", "tests/**", "scripts/**", "node_modules/**", ".venv/**", "dist/**", "screenshots/**", ".cache/**",
    ]
    command += [f"--arg={arg}" for arg in chromium_args(headless)]
    return subprocess.Popen(command, cwd=ROOT)


def devtools(path: str, method: str = "GET"):
    request = urllib.request.Request(f"http://127.0.0.1:{DEVTOOLS_PORT}{path}", method=method)
    return json.load(urllib.request.urlopen(request, timeout=2))


def keep_side_panel_open(ext_id: str, panel_url: str) -> None:
    """Opens the panel page once the extension is up, and again after each reload closes it."""
    try:
        urls = [target["url"] for target in devtools("/json/list")]
    except OSError:
        return  # Chromium is still starting
    loaded = any(url.startswith(f"chrome-extension://{ext_id}/") and url.endswith("service-worker.js") for url in urls)
    if loaded and panel_url not in urls:
        devtools(f"/json/new?{panel_url}", method="PUT")


def snapshot(paths: list[Path]) -> dict[Path, float]:
    return {p: p.stat().st_mtime for root in paths for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


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
    browser = start_web_ext(headless)
    print(f"run: side panel page: {panel_url}\n     Edits to extension/ reload it; edits to py/ rebuild, then reload. Ctrl-C stops.")
    seen = snapshot(WATCHED)
    try:
        while browser.poll() is None:
            time.sleep(0.5)
            keep_side_panel_open(extension_id(ROOT), panel_url)
            now = snapshot(WATCHED)
            if now != seen:
                seen = now
                subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], cwd=ROOT)
    except KeyboardInterrupt:
        pass
    finally:
        browser.terminate()
        browser.wait(timeout=10)


if __name__ == "__main__":
    main()
