"""Python starts as soon as the panel opens, not once the panel and the offscreen document have
loaded all they load (bench/bench_boot.py's later start, issue 51).

Each test loads a copy of the built extension in which one resource of a page's start comes
from a local server that holds it for a few seconds: a style sheet of the panel's, a module of
offscreen.js's graph (the copy's policy lets those pages load from that server, as an unpacked
extension may). What is asserted is an order, not a duration: the service worker had the
panel's ping, or Python's worker had started, before the held resource was let go. A ping sent
once the panel's style sheets have loaded, or a worker started by offscreen.js once its graph
has, comes after."""

from __future__ import annotations

import json
import shutil
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.helpers.browser import ROOT, Browser

HOLD_S = 4  # under the 5 s the service worker waits for a new document to say it listens

PING = """
const done = arguments[arguments.length - 1];
chrome.runtime.sendMessage({ target: "background", type: "ping" }).then(done, (e) => done({ ok: false, error: String(e) }));
"""


class Held:
    """A server whose every answer comes HOLD_S seconds after its request; `released` is when
    the first one went (Unix ms)."""

    def __init__(self):
        held = self
        self.released = None
        self.asked = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                held.asked.append(self.path)
                time.sleep(HOLD_S)
                held.released = held.released or time.time() * 1000
                body = b"/* held */" if self.path.endswith(".css") else b"export const held = true;\n"
                self.send_response(200)
                self.send_header("Content-Type", "text/css" if self.path.endswith(".css") else "text/javascript")
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def held():
    server = Held()
    yield server
    server.close()


def copy_allowing(tmp_path, origin: str):
    """The built extension copied, its pages allowed scripts and style sheets from `origin`."""
    copy = tmp_path / "extension-copy"
    shutil.copytree(ROOT / "extension", copy / "extension")
    shutil.copytree(ROOT / "_locales", copy / "_locales")
    manifest = json.loads((ROOT / "manifest.json").read_text())
    policy = manifest["content_security_policy"]["extension_pages"]
    policy = policy.replace("script-src 'self'", f"script-src 'self' {origin}").replace("style-src 'self'", f"style-src 'self' {origin}")
    manifest["content_security_policy"]["extension_pages"] = policy
    (copy / "manifest.json").write_text(json.dumps(manifest))
    return copy


def started(copy, tmp_path) -> dict:
    """The copy's panel opened in a browser of its own; the ping's answer once Python is up."""
    browser = Browser(tmp_path / "profile").start(extension_dir=copy)
    try:
        browser.open_side_panel()
        reply = browser.driver.execute_async_script(PING)
        assert reply["ok"], reply
        problems = browser.take_problems()
        assert not problems, problems
        return reply["result"]
    finally:
        browser.quit()


def test_the_panel_pings_while_its_style_sheets_still_load(built_extension, held, tmp_path):
    copy = copy_allowing(tmp_path, held.origin)
    page = copy / "extension" / "sidepanel" / "sidepanel.html"
    sheet = '<link rel="stylesheet" href="sidepanel.css" />'
    page.write_text(page.read_text().replace(sheet, f'<link rel="stylesheet" href="{held.origin}/held.css" />\n    {sheet}'))
    info = started(copy, tmp_path)
    assert held.asked == ["/held.css"] and held.released
    assert info["phases"]["firstPing"] < held.released, (info["phases"]["firstPing"], held.released)


def test_the_offscreen_document_starts_python_before_its_own_modules_load(built_extension, held, tmp_path):
    copy = copy_allowing(tmp_path, held.origin)
    module = copy / "extension" / "offscreen" / "offscreen.js"
    module.write_text(f'import "{held.origin}/held.js";\n' + module.read_text())
    info = started(copy, tmp_path)
    assert held.asked == ["/held.js"] and held.released
    phases = info["phases"]
    assert phases["documentModuleRan"] > held.released  # offscreen.js ran only once its graph was in
    assert phases["workerStarted"] < held.released, (phases["workerStarted"], held.released)
