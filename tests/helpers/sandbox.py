"""The offscreen document's code sandbox driven over CDP, and the ways out of it every
browser must close."""

from __future__ import annotations

import json
import time

OFFSCREEN = "extension/offscreen/offscreen.html"


PING_FROM_PANEL = """
const done = arguments[arguments.length - 1];
const started = performance.now();
chrome.runtime.sendMessage({ target: "background", type: "ping" }).then(
  (reply) => done({ ok: reply.ok, ms: performance.now() - started }),
  (error) => done({ ok: false, error: String(error) }));
"""


class Sandbox:
    """The offscreen document's CodeSandbox, driven from the test over CDP."""

    def __init__(self, browser):
        self.browser = browser

    def target(self) -> dict:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for target in self.browser.extension_targets():
                if target["url"].endswith(OFFSCREEN):
                    return target
            time.sleep(0.1)
        raise AssertionError("the offscreen document never appeared")

    def js(self, expression: str, timeout: float = 60):
        return self.browser.evaluate_in(self.target(), expression, timeout=timeout)

    def run(self, code: str, **options) -> dict:
        return self.js(f"globalThis.tabagent.sandbox.run({json.dumps(code)}, {json.dumps(options)})")

    def python(self, code: str):
        """Runs `code` (top-level await allowed) in the offscreen document's own Python (in its
        worker), where sandbox_for(name) is the test's CodeSandbox, globalThis.tabagent.sandbox."""
        return self.js(f"""(async () => {{
            const {{ run }} = await globalThis.tabagent.python;
            return await run({json.dumps(code)}, () => globalThis.tabagent.sandbox);
        }})()""")


def open_sandbox(browser) -> Sandbox:
    """The sandbox of the extension's offscreen document, once the side panel has started it."""
    browser.open_side_panel()
    assert browser.driver.execute_async_script(PING_FROM_PANEL)["ok"]
    sandbox = Sandbox(browser)
    browser.expose_offscreen_for_tests(sandbox.target())
    return sandbox


# Each is Python run in the sandbox; none may reach the tripwire or reach past the sandbox.
ESCAPES = {
    "fetch": "import js\nawait js.fetch(URL)",
    "pyodide_http": "from pyodide.http import pyfetch\nawait pyfetch(URL)",
    "pyodide_open_url": "from pyodide.http import open_url\nopen_url(URL)",
    "urllib": "import urllib.request\nurllib.request.urlopen(URL, timeout=2)",
    "xml_http_request": "import js\nrequest = js.XMLHttpRequest.new()\nrequest.open('GET', URL)\nrequest.send()",
    "websocket": "import js\njs.WebSocket.new(URL.replace('http', 'ws'))",
    "event_source": "import js\njs.EventSource.new(URL)",
    "import_scripts": "import js\njs.importScripts(URL)",
    "nested_worker": "import js\njs.Worker.new(URL)",
    "javascript_eval": "from pyodide.code import run_js\nrun_js(f'fetch({URL!r})')",
    "function_constructor": "import js\njs.Function.new(f'return fetch({URL!r})')()",
    "image_element": "import js\nimage = js.document.createElement('img')\nimage.src = URL",
    "script_element": "import js\nscript = js.document.createElement('script')\nscript.src = URL\njs.document.head.append(script)",
    "webrtc": "import js\nconnection = js.RTCPeerConnection.new()\nconnection.createDataChannel('out')",
    "window_open": "import js\njs.open(URL)",
    "navigate_top": "import js\njs.top.location.href = URL",
    "navigate_parent": "import js\njs.parent.location.href = URL",
    "read_parent_document": "import js\nprint(js.parent.document.body.innerHTML)",
    "chrome_runtime": "import js\njs.chrome.runtime.sendMessage({'target': 'background', 'type': 'ping'})",
    "chrome_storage": "import js\nawait js.chrome.storage.local.get(None)",
    "post_to_the_page": "import js\njs.postMessage({'type': 'result'})",
    "indexed_db": "import js\njs.indexedDB.open('loot')",
    "broadcast_channel": "import js\njs.BroadcastChannel.new('tabagent').postMessage('loot')",
    "send_beacon": "import js\njs.navigator.sendBeacon(URL, 'loot')",
}


# Code reaching for what the sandbox has not: the first six, what the 0.5B and 1.5B wrote to reach a
# page (issue 48's real-model bench); then a socket (by a bare name: only its error tells), pyodide's
# open_url, JavaScript's fetch and micropip. Each browser's sandbox fails each in words the CodeAgent
# tells as what cannot work here (tests/both/test_code_reaching_out.py).
REACHING_OUT = ["import requests", "response = requests.get('http://127.0.0.1:1/shop.html')", "pip install requests",
                "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:1/', timeout=2)",
                "import subprocess\nsubprocess.run(['pip', 'install', 'requests'])",
                "from pyodide.http import pyfetch\nawait pyfetch('http://127.0.0.1:1/')",
                "from socket import create_connection\nconnection = create_connection(('127.0.0.1', 1), timeout=2)",
                "from pyodide.http import open_url\nopen_url('http://127.0.0.1:1/')",
                "import js\nawait js.fetch('http://127.0.0.1:1/')", "import micropip"]
