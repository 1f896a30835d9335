"""Drive the content-script page tools in headless Chromium, without the extension.

For fast, detailed tests of the content scripts alone (tests/e2e/test_page_reading.py); the
whole path through the extension is tested with the `tabs` fixture (tests/conftest.py). The service worker
injects the content scripts' bundle (extension/vendor/injected.js) with
chrome.scripting.executeScript, which runs it in the extension's isolated world; here
`PageTools.inject` does the same through the DevTools protocol with the same modules, bundled
from an entry that also hands tests the parts they look into (helpers/content_bundle.py): it
creates an isolated world in the top frame and evaluates the bundle there as a classic script.
The page's own scripts therefore cannot see or break the tools (nor the tools the page), as in
the extension.
"""

import json
import os
import shutil
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from .content_bundle import for_tests

# The same overrides as the extension harness (tests/helpers/browser.py).
CHROMIUM = os.environ.get("TABAGENT_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("TABAGENT_CHROMEDRIVER", "/usr/bin/chromedriver")


class PageToolFailed(AssertionError):
    """A tool answered {ok: false}; the message is the tool's error sentence."""


def start_chromium(page_load_timeout=20):
    """Headless Chromium with a fresh profile; the caller quits it (profile removed then)."""
    profile = tempfile.mkdtemp(prefix="tabagent-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # Some saved pages never fire the load event (a resource keeps them busy), so wait for
    # DOMContentLoaded only; pages that need more (iframes) wait for it themselves.
    options.page_load_strategy = "eager"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,900", f"--user-data-dir={profile}",
                 # Saved pages pull scripts from their original sites; unanswered DNS queries
                 # would stall each one for seconds. Only the local test server resolves (as
                 # 127.0.0.1, or as localhost when a test needs a second origin).
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(page_load_timeout)
    quit_driver = driver.quit

    def quit_and_clean():
        try:
            quit_driver()
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    driver.quit = quit_and_clean
    return driver


class PageTools:
    """The page tools injected into the page currently loaded in `driver`."""

    def __init__(self, driver):
        self.driver = driver
        self.context_id = None

    def inject(self):
        """Inject the content scripts into the top frame (call again after each navigation)."""
        frame_id = self.driver.execute_cdp_cmd("Page.getFrameTree", {})["frameTree"]["frame"]["id"]
        world = self.driver.execute_cdp_cmd(
            "Page.createIsolatedWorld", {"frameId": frame_id, "worldName": "TabAgent content scripts"})
        self.context_id = world["executionContextId"]
        self.evaluate(f"{for_tests()}\n//# sourceURL=tabagent-content-scripts.js")
        return self

    def evaluate(self, expression):
        """Evaluate JavaScript in the content scripts' world and return its (JSON) value."""
        reply = self.driver.execute_cdp_cmd("Runtime.evaluate", {
            "expression": expression, "contextId": self.context_id,
            "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            raise RuntimeError(details.get("exception", {}).get("description") or details.get("text"))
        return reply["result"].get("value")

    def run(self, name, args=None):
        """What the service worker gets back: {ok: true, result} or {ok: false, error}."""
        return self.evaluate(f"globalThis.TabAgentPage.run({json.dumps(name)}, {json.dumps(args or {})})")

    def __call__(self, tool, /, **args):
        """The tool's result, or PageToolFailed with its error sentence."""
        answer = self.run(tool, args)
        if not answer["ok"]:
            raise PageToolFailed(f"{tool}: {answer['error']}")
        return answer["result"]
