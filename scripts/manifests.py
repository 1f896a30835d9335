"""One manifest source, a manifest per browser.

The repository root's manifest.json is the source: it holds the keys both browsers share
and each browser's own keys side by side, and stays loadable unpacked in Chrome (which
ignores the keys it does not know). Each package gets only the keys its browser reads.
"""

from __future__ import annotations

import copy

# Keys (or permissions) only one browser reads; the other package leaves them out.
# Cross-origin isolation (COOP/COEP) lets Chrome's extension pages run the on-device model on
# every core (SharedArrayBuffer); Firefox has no such keys (docs/on-device.md).
CHROME_ONLY_KEYS = ("side_panel", "sandbox", "minimum_chrome_version", "cross_origin_embedder_policy",
                    "cross_origin_opener_policy")
# (browser_specific_settings and background.scripts stay in Chrome's: Chrome ignores them, and
# web-ext lint, Firefox's linter, counts their absence as errors. Chrome's background.scripts
# names its service worker's bundle, a file its package holds: the modules of Firefox's event
# page are not in it, scripts/browser_builds.py.)
FIREFOX_ONLY_KEYS = ("sidebar_action",)
CHROME_ONLY_PERMISSIONS = ("sidePanel", "offscreen", "debugger")  # debugger: real input (docs/security.md)
# Firefox's PDF viewer keeps extension scripts out: the event page sees which tabs a PDF arrived
# in (extension/platform/firefox/pdf-viewer.js) before it downloads one with the site's cookies.
FIREFOX_ONLY_PERMISSIONS = ("webRequest",)
# Chrome's own shortcut toggles the side panel through code (platform/chrome/side-panel-shortcut.js);
# Firefox toggles its sidebar itself on this reserved command, from the key press.
CHROME_PANEL_COMMAND = "toggle-panel"
FIREFOX_PANEL_COMMAND = "_execute_sidebar_action"
# Firefox has no sandbox pages before 154: the sandbox page is framed with the sandbox attribute
# (an opaque origin), and Firefox lets an opaque origin load an extension file only when it is
# web accessible to every origin. So these, and only these, are: the scripts the sandbox page and
# its worker run (not its page, nor any other file). They are TabAgent's own code and
# Pyodide's, with nothing secret in them (extension/platform/firefox/code-sandbox.js).
FIREFOX_SANDBOX_SCRIPTS = (
    "extension/sandbox/sandbox.js",
    "extension/sandbox/worker.js",
    "extension/sandbox/no-way-out.js",
    "extension/shared/protocol/sandbox-protocol.js",
    "extension/shared/wire.js",
    "extension/shared/python/interpreter-setup.js",
    "extension/vendor/pyodide/pyodide.mjs",
    "extension/vendor/pyodide/pyodide.asm.mjs",
)
# MCP Apps' frame (extension/app-frame/), framed the same way in Firefox: its one script.
FIREFOX_APP_FRAME_SCRIPTS = ("extension/app-frame/app-frame.js",)


def _without(manifest: dict, keys: tuple[str, ...]) -> dict:
    return {key: value for key, value in manifest.items() if key not in keys}


def chrome_manifest(source: dict) -> dict:
    manifest = _without(copy.deepcopy(source), FIREFOX_ONLY_KEYS)
    manifest["background"]["scripts"] = [manifest["background"]["service_worker"]]
    return manifest


def firefox_manifest(source: dict) -> dict:
    """Firefox's MV3 background is an event page (background.scripts), its panel a sidebar; it
    has no sandbox pages before 154, so the sandbox CSP goes too: the sandbox page carries the
    same policy itself, and its scripts are web accessible (FIREFOX_SANDBOX_SCRIPTS)."""
    manifest = _without(copy.deepcopy(source), CHROME_ONLY_KEYS)
    manifest["background"] = {key: value for key, value in manifest["background"].items() if key != "service_worker"}
    manifest["permissions"] = [p for p in manifest["permissions"] if p not in CHROME_ONLY_PERMISSIONS] + list(FIREFOX_ONLY_PERMISSIONS)
    manifest["content_security_policy"] = _without(manifest["content_security_policy"], ("sandbox",))
    manifest["web_accessible_resources"] = [{"resources": [*FIREFOX_SANDBOX_SCRIPTS, *FIREFOX_APP_FRAME_SCRIPTS],
                                             "matches": ["<all_urls>"]}]
    commands = manifest.get("commands", {})
    if CHROME_PANEL_COMMAND in commands:
        commands[FIREFOX_PANEL_COMMAND] = commands.pop(CHROME_PANEL_COMMAND)
    return manifest
