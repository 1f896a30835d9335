"""The Firefox package's web-accessible files: exactly what the sandbox page and its worker load
(an opaque origin may load no other extension file in Firefox), and nothing else
(scripts/manifests.py FIREFOX_SANDBOX_SCRIPTS, extension/platform/firefox/code-sandbox.js)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from manifests import FIREFOX_APP_FRAME_SCRIPTS, FIREFOX_SANDBOX_SCRIPTS, chrome_manifest, firefox_manifest  # noqa: E402

# Static imports (`from "./x.js"`) and the sandbox's own dynamic ones (`new URL("x.js", import.meta.url)`).
IMPORTED = re.compile(r'''from\s+"(\.{1,2}/[^"]+\.m?js)"|new URL\("(\.{0,2}/?[^"]+\.m?js)", import\.meta\.url\)''')
PYODIDE = ("extension/vendor/pyodide/pyodide.mjs", "extension/vendor/pyodide/pyodide.asm.mjs")  # loaded by worker.js boot()


def _loaded_by_the_sandbox() -> set[str]:
    seen, todo = set(), ["extension/sandbox/sandbox.js"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for match in IMPORTED.finditer((ROOT / path).read_text()):
            imported = (ROOT / path).parent / (match.group(1) or match.group(2))
            todo.append(str(imported.resolve().relative_to(ROOT)))
    return seen | set(PYODIDE)


def test_firefox_makes_the_sandboxs_scripts_web_accessible_and_nothing_else():
    source = json.loads((ROOT / "manifest.json").read_text())
    (entry,) = firefox_manifest(source)["web_accessible_resources"]
    assert entry == {"resources": [*FIREFOX_SANDBOX_SCRIPTS, *FIREFOX_APP_FRAME_SCRIPTS], "matches": ["<all_urls>"]}
    assert set(FIREFOX_SANDBOX_SCRIPTS) == _loaded_by_the_sandbox()
    assert set(FIREFOX_APP_FRAME_SCRIPTS) == set(_scripts_of("extension/app-frame/app-frame.html"))
    assert not [path for path in FIREFOX_SANDBOX_SCRIPTS if not path.endswith((".js", ".mjs"))]  # no page


def test_chrome_makes_nothing_web_accessible():
    assert "web_accessible_resources" not in chrome_manifest(json.loads((ROOT / "manifest.json").read_text()))


def _page_policy(path: str) -> set[str]:
    (content,) = re.findall(r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"', (ROOT / path).read_text())
    return {d.strip() for d in content.split(";")}


def _scripts_of(page: str) -> list[str]:
    folder = (ROOT / page).parent
    return [str((folder / src).resolve().relative_to(ROOT)) for src in re.findall(r'<script[^>]*src="([^"]+)"', (ROOT / page).read_text())]


# The code sandbox's own policy: no connection, no script but the extension's, a worker from a blob.
CODE_SANDBOX_POLICY = {"default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "worker-src blob:",
                       "base-uri 'none'", "form-action 'none'"}


def test_the_sandbox_pages_carry_their_policies_themselves():
    """Firefox before 154 reads no manifest sandbox CSP: each page's own <meta> is the wall there.
    The manifest's (one for every sandbox page in Chrome) is the MCP App frame's, the most an app
    may have; the code sandbox's page narrows it to no network at all, in both browsers."""
    source = json.loads((ROOT / "manifest.json").read_text())
    manifest_policy = {d.strip() for d in source["content_security_policy"]["sandbox"].split(";")}
    # All of it but what a <meta> cannot say (the sandbox flags, frame-ancestors: the frame sets its flags).
    assert _page_policy("extension/app-frame/app-frame.html") == {d for d in manifest_policy if not d.startswith(("sandbox", "frame-ancestors"))}
    assert _page_policy("extension/sandbox/sandbox.html") == CODE_SANDBOX_POLICY
