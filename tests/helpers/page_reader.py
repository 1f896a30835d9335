"""read_page's content scripts on pages in a real headless Chromium, driven over CDP alone.

For measuring extraction on hundreds of pages: no extension, side panel or Python in the
way, the same content-script modules the service worker injects (bundled as
helpers/content_bundle.py does), run in an isolated world as a content script is. Each page can be loaded with its scripts
off (CDP's Emulation.setScriptExecutionDisabled: the HTML as served) or on (the live page).

    with PageReader() as reader:
        result = reader.read(url, scripts=False)   # {"markdown", "title", "readability", "ms", "left_for"}
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from .browser import CHROMIUM, CHROMIUM_FLAGS
from .cdp import CDP
from .content_bundle import for_tests
from tests.helpers.processes import end_within

# The whole Markdown in one part (read_page's largest budget) and Readability.js alone, as
# Firefox's Reader View would give it, on a copy of the same document.
READ = """
(() => {
  const page = globalThis.TabAgentPage;
  const started = performance.now();
  const parts = [];
  let first = page.run("read_page", { page: 1, max_tokens: 100000 });
  if (!first.ok) return { error: first.error };
  parts.push(first.result.markdown);
  for (let n = 2; n <= first.result.pages; n++) parts.push(page.run("read_page", { page: n, max_tokens: 100000 }).result.markdown);
  const ms = performance.now() - started;
  let readability = null;
  try { readability = new TabAgentTest.Readability(document.cloneNode(true)).parse()?.textContent ?? ""; } catch (e) { readability = ""; }
  return { markdown: parts.join("\\n\\n"), title: first.result.title, extracted_by: first.result.extracted_by, ms, readability };
})()
"""

TIME_ONLY = """
(() => {
  const started = performance.now();
  const reply = globalThis.TabAgentPage.run("read_page", { page: 1 });
  return reply.ok ? performance.now() - started : -1;
})()
"""


class PageReader:
    def __init__(self, settle: float = 0.5, load_timeout: float = 20):
        self.settle = settle  # after the load event, for scripts that rewrite the page
        self.load_timeout = load_timeout
        self.scripts = for_tests()
        self.origin = None  # the page under test's (load sets it; _keep_on_page lets only it through)
        self.left_for = None

    def __enter__(self):
        self.profile = Path(tempfile.mkdtemp(prefix="tabagent-reader-"))
        flags = [f for f in CHROMIUM_FLAGS if not f.startswith("--disable-features=DisableLoad")]
        self.process = subprocess.Popen(
            [CHROMIUM, *flags, "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        address = self._debugger_address()
        self.cdp = CDP(address)
        self._loaded = threading.Event()
        self.cdp.on("Page.loadEventFired", lambda params, session: self._loaded.set())
        # A live page's alert() or "leave this page?" would hold every later command.
        self.cdp.on("Page.javascriptDialogOpening", lambda params, session: threading.Thread(
            target=self._dismiss_dialog, args=(session,), daemon=True).start())
        self.cdp.on("Fetch.requestPaused", lambda params, session: threading.Thread(
            target=self._keep_on_page, args=(params, session), daemon=True).start())
        self._open_tab()
        return self

    def _open_tab(self):
        self.target = self.cdp.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.cdp.attach(self.target)
        self.cdp.send("Page.enable", session_id=self.session)
        # Documents are held for _keep_on_page to judge.
        self.cdp.send("Fetch.enable", {"patterns": [{"resourceType": "Document"}]}, session_id=self.session)

    def _dismiss_dialog(self, session):
        try:
            self.cdp.send("Page.handleJavaScriptDialog", {"accept": True}, session_id=session, timeout=5)
        except Exception:
            pass

    # A live page's scripts may send the browser elsewhere: to https:// (the site's own redirect,
    # which our plain-HTTP server cannot answer) or to the site's real host (not reachable
    # here). A user reading the page on its site stays on it; so does the measurement: a
    # document from any other origin than the page's is not loaded, and the tab keeps the page.
    def _keep_on_page(self, params, session):
        url = params["request"]["url"]
        try:
            if url == "about:blank" or (self.origin and url.startswith(self.origin + "/")):
                self.cdp.send("Fetch.continueRequest", {"requestId": params["requestId"]}, session_id=session, timeout=5)
            else:
                if params.get("frameId") == self.target:  # the tab itself, not a frame in it
                    self.left_for = url
                self.cdp.send("Fetch.failRequest", {"requestId": params["requestId"], "errorReason": "Aborted"},
                              session_id=session, timeout=5)
        except Exception:
            pass

    def fresh_tab(self):
        """A new tab in place of one a page left stuck (a script that never yields)."""
        try:
            self.cdp.send("Target.closeTarget", {"targetId": self.target}, timeout=5)
        except Exception:
            pass
        self._open_tab()

    def _debugger_address(self) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            match = re.search(r"DevTools listening on ws://([^/]+)/", line)
            if match:
                threading.Thread(target=self.process.stderr.read, daemon=True).start()  # drain
                return match.group(1)
            if not line and self.process.poll() is not None:
                break
        raise RuntimeError("Chromium did not start (no DevTools address)")

    def _send(self, method, params=None, timeout=20):
        return self.cdp.send(method, params, session_id=self.session, timeout=timeout)

    def load(self, url: str, scripts: bool) -> None:
        self.origin = "/".join(url.split("/")[:3])
        self.left_for = None
        self._send("Emulation.setScriptExecutionDisabled", {"value": not scripts})
        self._loaded.clear()
        self._send("Page.navigate", {"url": url})
        self._loaded.wait(self.load_timeout)
        if scripts:
            time.sleep(self.settle)

    def _world(self) -> int:
        frame = self._send("Page.getFrameTree")["frameTree"]["frame"]["id"]
        context = self._send("Page.createIsolatedWorld", {"frameId": frame, "worldName": "tabagent-bench"})
        context_id = context["executionContextId"]
        self._evaluate(self.scripts, context_id)
        return context_id

    def _evaluate(self, expression: str, context_id: int, timeout: float = 60):
        reply = self._send("Runtime.evaluate", {"expression": expression, "contextId": context_id,
                                               "returnByValue": True}, timeout=timeout)
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            raise RuntimeError(details.get("exception", {}).get("description") or details.get("text"))
        return reply["result"].get("value")

    def read(self, url: str, scripts: bool = False) -> dict:
        """... and "left_for": where the page's scripts tried to take the tab, if they did (the
        page stopped loading there: what it had parsed is read)."""
        self.load(url, scripts)
        result = self._evaluate(READ, self._world())
        return {**result, "left_for": self.left_for}

    def time_read(self, url: str, runs: int = 5, scripts: bool = False) -> list[float]:
        """read_page's own time in the page (ms), `runs` times after a first call."""
        self.load(url, scripts)
        world = self._world()
        self._evaluate(TIME_ONLY, world)
        return [self._evaluate(TIME_ONLY, world) for _ in range(runs)]

    def __exit__(self, *exc):
        try:
            self.cdp.close()
        finally:
            self.process.terminate()
            end_within(self.process, 10)
            shutil.rmtree(self.profile, ignore_errors=True)
