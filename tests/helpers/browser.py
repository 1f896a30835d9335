"""Real Chromium with TabAgent loaded, driven by Selenium, watched through CDP.

One `Browser` is one Chromium process with a profile directory. It finds the extension's
id from its service worker target, opens extension pages as tabs, and records every
uncaught exception and console error in the extension's own contexts (service worker,
offscreen document, side panel and other extension pages: console_watcher.py) so tests
can fail on them.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

from .cdp import CDP
from .console_watcher import ConsoleProblem, ConsoleWatcher

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("TABAGENT_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("TABAGENT_CHROMEDRIVER", "/usr/bin/chromedriver")
SERVICE_WORKER_PATH = "/extension/vendor/service-worker.js"  # scripts/build.py bundles it

CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-features=DisableLoadExtensionCommandLineSwitch",
    "--window-size=420,900",
    # Saved test pages pull scripts from their original sites: without this each unanswered
    # DNS query stalls a page load for seconds. Only the local test servers resolve.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
]


@dataclass
class Browser:
    profile: Path
    extra_flags: tuple[str, ...] = ()  # e.g. ("--lang=de",) for the UI in another language
    driver: webdriver.Chrome = field(init=False)
    cdp: CDP = field(init=False)
    extension_id: str = field(init=False)
    watcher: ConsoleWatcher = field(init=False)
    started_at: float = field(default=0.0, init=False)

    def start(self, extension_dir: Path = ROOT) -> "Browser":
        self.started_at = time.perf_counter()
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in [*CHROMIUM_FLAGS, *self.extra_flags]:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--load-extension={extension_dir}")
        options.add_argument(f"--disable-extensions-except={extension_dir}")
        options.add_experimental_option("excludeSwitches", ["disable-extensions", "enable-automation"])
        self.driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        try:
            self.driver.set_script_timeout(60)
            self.cdp = CDP(self.driver.capabilities["goog:chromeOptions"]["debuggerAddress"])
            self.watcher = ConsoleWatcher(self.cdp)
            self._leave_the_new_tab_page()
            self.extension_id = self._wait_for_extension_id()
        except BaseException:
            # Nobody holds a browser whose start failed: quit it here, or chromedriver and
            # Chromium keep running and load every later test and measurement.
            self.quit()
            raise
        return self

    def _leave_the_new_tab_page(self) -> None:
        """Swaps the tab Chromium starts with (its new-tab page) for a blank one, made through
        CDP. ChromeDriver waits for its current tab to finish loading before each command,
        and the new-tab page, with no network, has kept it waiting for minutes at start-up."""
        starting = self.driver.current_window_handle
        blank = self.cdp.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.driver.switch_to.window(blank)
        self.cdp.send("Target.closeTarget", {"targetId": starting})
        self._first_tab = blank

    # -- the extension -------------------------------------------------------------------

    def _wait_for_extension_id(self, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for target in self.cdp.targets():
                match = re.match(r"chrome-extension://([a-p]{32})" + re.escape(SERVICE_WORKER_PATH), target["url"])
                if match and target["type"] == "service_worker":
                    return match.group(1)
            time.sleep(0.1)
        raise RuntimeError("TabAgent's service worker never appeared: the extension did not load")

    def url(self, path: str) -> str:
        return f"chrome-extension://{self.extension_id}/{path.lstrip('/')}"

    def open_tab(self, url: str) -> str:
        """Opens `url` in a new tab and makes it Selenium's current window; returns its handle.

        The first call uses the blank tab made at start, so no tab is opened while the browser
        is still starting (that has stalled ChromeDriver on a loaded machine)."""
        first, self._first_tab = getattr(self, "_first_tab", None), None
        if first:
            self.driver.switch_to.window(first)
        else:
            self.driver.switch_to.new_window("tab")
        self.driver.get(url)
        return self.driver.current_window_handle

    def open_side_panel(self) -> str:
        return self.open_tab(self.url("extension/sidepanel/sidepanel.html"))

    def extension_targets(self, kind: str | None = None) -> list[dict]:
        prefix = f"chrome-extension://{self.extension_id}/"
        return [t for t in self.cdp.targets() if t["url"].startswith(prefix) and (kind is None or t["type"] == kind)]

    def service_worker_target(self) -> dict | None:
        workers = [t for t in self.extension_targets("service_worker") if t["url"].endswith(SERVICE_WORKER_PATH)]
        return workers[0] if workers else None

    def stop_service_worker(self, timeout: float = 30) -> None:
        """Stops the service worker as Chrome does when it is idle, and waits until that worker
        is gone (a new one may start at once if a message arrives for it). On a loaded machine
        a stop can go unheeded: it is asked again every few seconds."""
        target = self.service_worker_target()
        if target is None:
            return
        deadline = time.monotonic() + timeout
        while True:
            self._stop_all_workers()
            asked_again = time.monotonic() + 5
            while (self.service_worker_target() or {}).get("targetId") == target["targetId"]:
                if time.monotonic() > deadline:
                    raise RuntimeError("the service worker did not stop")
                if time.monotonic() > asked_again:
                    break
                time.sleep(0.05)
            else:
                return

    def _stop_all_workers(self) -> None:
        # Target.closeTarget does not stop a worker that DevTools is attached to (we are, to
        # watch its console); the ServiceWorker domain's stop does, like an idle stop.
        page = next(t for t in self.cdp.targets() if t["type"] == "page")
        session = self.cdp.attach(page["targetId"])
        try:
            self.cdp.send("ServiceWorker.enable", session_id=session)
            self.cdp.send("ServiceWorker.stopAllWorkers", session_id=session)
        finally:
            self.cdp.send("Target.detachFromTarget", {"sessionId": session})

    def evaluate_in(self, target: dict, expression: str, timeout: float = 30):
        session = self.cdp.attach(target["targetId"])
        try:
            return self.cdp.evaluate(session, expression, timeout=timeout)
        finally:
            self.cdp.send("Target.detachFromTarget", {"sessionId": session})

    def call_module_function(self, target: dict, name: str, body: str, timeout: float = 30):
        """Runs `body` in `target` with `fn`, the function `name` of one of its modules (see CDP)."""
        session = self.cdp.attach(target["targetId"])
        try:
            return self.cdp.call_module_function(session, name, body, timeout=timeout)
        finally:
            self.cdp.send("Target.detachFromTarget", {"sessionId": session})

    # The offscreen document's Python (from its debug handle, extension/shared/debug/debug-handle.js)
    # and a CodeSandbox of the test's own, as globalThis.tabagent there: made by the tests and
    # benchmarks, not by the document. A module imported again by its URL is the very instance
    # the document runs, and the import waits for it to have run.
    OFFSCREEN_HANDLES = """(async () => {
      const base = chrome.runtime.getURL("extension/offscreen/");
      const [{ CodeSandbox }] = await Promise.all([import(base + "code-sandboxes/code-sandbox.js"), import(base + "offscreen.js")]);
      globalThis.tabagent ??= { sandbox: new CodeSandbox(), python: globalThis.tabagentDebug.python };
    })()"""

    def expose_offscreen_for_tests(self, target: dict) -> None:
        self.evaluate_in(target, self.OFFSCREEN_HANDLES)

    def take_problems(self) -> list[ConsoleProblem]:
        return self.watcher.take_problems()

    def wait(self, condition, timeout: float = 30, message: str = ""):
        """Waits until `condition(driver)` is truthy in Selenium's current window; returns its
        value. The extension's pages re-render lists as they change: an element gone stale is
        just looked up again."""
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05,
                             ignored_exceptions=[StaleElementReferenceException]).until(condition, message)

    # -- lifetime ------------------------------------------------------------------------

    def screenshot(self, name: str) -> Path:
        folder = ROOT / "screenshots"
        folder.mkdir(exist_ok=True)
        path = folder / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def quit(self) -> None:
        if getattr(self, "_quit", False):
            return
        self._quit = True
        try:
            if hasattr(self, "cdp"):  # not yet, when the start failed before it
                self.cdp.close()
        finally:
            self.driver.quit()


def fresh_profile() -> Path:
    return Path(tempfile.mkdtemp(prefix="tabagent-profile-"))


def remove_profile(profile: Path) -> None:
    shutil.rmtree(profile, ignore_errors=True)
