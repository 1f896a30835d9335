"""`tabagent-mcp register`: makes the browsers know TabAgent's native messaging host, for this
user only. It writes a small launcher (the manifests need one executable path) and the host
manifest in each browser's per-user folder, naming the extension allowed to start it:
Chrome's and Chromium's by extension id (`allowed_origins`), Firefox's by add-on id
(`allowed_extensions`, manifest.json's browser_specific_settings).

TabAgent's manifest has no "key", so Chrome gives an unpacked copy an id made from its folder:
`--extension-dir` (the repository root, found from here when run from a checkout) gives it, or
`--chrome-extension-id` says it (chrome://extensions shows it). Windows keeps these in the
registry instead, which this command does not write.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from pathlib import Path

from . import HOST_NAME

FIREFOX_ADDON_ID = "tabagent@tabagent.dev"  # manifest.json: browser_specific_settings.gecko.id
DESCRIPTION = "TabAgent's page tools for MCP clients"
CHECKOUT = Path(__file__).resolve().parents[2]  # mcp-server/tabagent_mcp/ -> the repository


def unpacked_extension_id(folder: Path) -> str:
    """The id Chrome gives an extension loaded unpacked from `folder` (a hash of its path)."""
    digest = hashlib.sha256(str(Path(folder).resolve()).encode("utf-8")).hexdigest()[:32]
    return digest.translate(str.maketrans("0123456789abcdef", "abcdefghijklmnop"))


def chromium_folders(home: Path) -> list[Path]:
    """The per-user data folders of the Chromium browsers, where NativeMessagingHosts/ goes."""
    if sys.platform == "darwin":
        base = home / "Library" / "Application Support"
        return [base / "Google" / "Chrome", base / "Chromium"]
    return [home / ".config" / "google-chrome", home / ".config" / "chromium"]


def firefox_hosts_folder(home: Path) -> Path:
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Mozilla" / "NativeMessagingHosts"
    return home / ".mozilla" / "native-messaging-hosts"


def write_launcher(folder: Path, socket_dir: str | None) -> Path:
    """The executable the manifests name: this Python, this package, the host."""
    folder.mkdir(parents=True, exist_ok=True)
    launcher = folder / "tabagent-mcp-host"
    place = f"export TABAGENT_MCP_DIR={json.dumps(socket_dir)}\n" if socket_dir else ""
    path = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[1])]))
    launcher.write_text(f"#!/bin/sh\n{place}export PYTHONPATH={json.dumps(path)}\n"
                        f"exec {json.dumps(sys.executable)} -m tabagent_mcp host \"$@\"\n")
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    return launcher


def chromium_manifest(launcher: Path, extension_ids: list[str]) -> dict:
    return {"name": HOST_NAME, "description": DESCRIPTION, "path": str(launcher), "type": "stdio",
            "allowed_origins": [f"chrome-extension://{one}/" for one in extension_ids]}


def firefox_manifest(launcher: Path) -> dict:
    return {"name": HOST_NAME, "description": DESCRIPTION, "path": str(launcher), "type": "stdio",
            "allowed_extensions": [FIREFOX_ADDON_ID]}


def write_manifest(folder: Path, manifest: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{HOST_NAME}.json"
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    return path


def chrome_ids(given: list[str], extension_dir: str | None) -> list[str]:
    ids = list(given)
    folder = Path(extension_dir) if extension_dir else (CHECKOUT if (CHECKOUT / "manifest.json").exists() else None)
    if folder is not None:
        ids.append(unpacked_extension_id(folder))
    return list(dict.fromkeys(ids))


def register(home: Path, *, chrome_extension_ids=(), extension_dir=None, chrome_profiles=(),
             socket_dir=None, data_dir: Path | None = None) -> list[Path]:
    """Writes the launcher and every manifest; returns the manifests written. A browser whose
    folder is not there (not installed for this user) is left alone, unless named."""
    launcher = write_launcher(data_dir or home / ".local" / "share" / "tabagent-mcp", socket_dir)
    ids = chrome_ids(list(chrome_extension_ids), extension_dir)
    written = []
    chromiums = [Path(p) for p in chrome_profiles] or [f for f in chromium_folders(home) if f.is_dir()]
    if ids:
        written += [write_manifest(f / "NativeMessagingHosts", chromium_manifest(launcher, ids)) for f in chromiums]
    firefox = firefox_hosts_folder(home)
    if firefox.parent.is_dir():
        written.append(write_manifest(firefox, firefox_manifest(launcher)))
    return written
