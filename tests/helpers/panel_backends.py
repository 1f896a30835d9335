"""The two ways PanelDriver (tests/helpers/panel_driver.py) reaches the panel, each with the user's
tab beside it (`page`: the tab looked at last before the panel, which the page tools act on).

- ChromiumPanel: the Chromium side panel, a tab of the e2e Browser (tests/helpers/browser.py);
  it acts in Selenium's current window (the panel, after every verb that leaves it). Typing is
  real key presses, clicks are WebDriver's clicks. Beside the verbs, what only Selenium has:
  `driver`, `wait(predicate)`, `last_turn()` as an element, `in_page(script)`, screenshots.
- FirefoxPanel: the Firefox chat page, a browsing context of tests/helpers/firefox.py's Firefox;
  typing sets the box's value and fires its input event, clicks are the element's click().
Each reads a question as its tests always have: Selenium as the text shown, BiDi as the text
content; each gives `page_value(expression)`, an expression's value in the
user's tab."""

from __future__ import annotations

import base64
import json
from contextlib import contextmanager
from pathlib import Path

from selenium.webdriver.common.by import By

from tests.helpers.panel_driver import PanelDriver

# An expression's value, awaited when it is a promise (the panel's CSP allows no eval: the
# expression is written into the script WebDriver runs).
RUN = """
const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (EXPRESSION)).then((value) => done({ value }), (error) => done({ error: String(error) }));
"""
SIDE_PANEL = "extension/sidepanel/sidepanel.html"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def last_turn(driver):
    """The last turn's element in the panel Selenium's `driver` shows, or None before any turn."""
    turns = driver.find_elements(By.CSS_SELECTOR, "article.turn")
    return turns[-1] if turns else None


def open_steps(turn):
    """Unfolds a finished turn's steps (folded into one line under the question) as a user
    would; gives their element."""
    steps = turn.find_element(By.CSS_SELECTOR, "details.steps")
    if steps.get_attribute("open") is None:
        steps.find_element(By.TAG_NAME, "summary").click()
    return steps


class ChromiumPanel(PanelDriver):
    patience = 30

    def __init__(self, browser, window: str | None = None, page: str | None = None):
        """The side panel in `window` (a tab opened for it by default), and the user's tab `page`."""
        self.browser, self.driver, self.page = browser, browser.driver, page
        self.window = window or browser.open_side_panel()

    @classmethod
    def beside_a_page(cls, browser) -> ChromiumPanel:
        """A blank page tab, then the panel opened after it: the page is the user's tab."""
        page = browser.open_tab("about:blank")
        return cls(browser, page=page)

    @classmethod
    def in_windows(cls, browser, other: str | None = None) -> ChromiumPanel:
        """The page tab in a window of its own and the panel in another, as a real side panel sits
        beside the page (the browser pictures only the tab shown in a window). `other`: an
        address shown first in a window of its own (in front there, so the browser could picture
        it), opened before the page so that the page is the tab the user looked at last."""
        driver = browser.driver
        page = browser.open_tab(other or "about:blank")
        if other:
            driver.switch_to.new_window("window")
            page = driver.current_window_handle
        driver.switch_to.new_window("window")
        driver.get(browser.url(SIDE_PANEL))
        return cls(browser, window=driver.current_window_handle, page=page)

    # -- the primitives PanelDriver's verbs are made of ------------------------------------

    def run(self, expression: str):
        outcome = self.driver.execute_async_script(RUN.replace("EXPRESSION", expression))
        if "error" in outcome:
            raise AssertionError(f"in the panel: {outcome['error']}")
        return outcome.get("value")

    def wait_until(self, expression: str, timeout: float | None, message: str):
        return self.wait(lambda d: d.execute_script(f"return ({expression})"), timeout, message)

    def element(self, where: str, script: bool = False):
        return self.driver.execute_script(f"return {where}") if script else self.driver.find_element(By.CSS_SELECTOR, where)

    def click(self, where: str, script: bool = False) -> None:
        self.element(where, script).click()

    def type_into(self, selector: str, text: str) -> None:
        box = self.element(selector)
        box.clear()
        box.send_keys(text)

    def read_question(self, box: str) -> dict:
        box = self.element(box, script=True)
        details = {dd.get_attribute("data-detail"): dd.text for dd in box.find_elements(By.CSS_SELECTOR, "dd")}
        actor = [p.text for p in box.find_elements(By.CSS_SELECTOR, ".confirmation-actor")]
        return {"message": box.find_element(By.CSS_SELECTOR, ".confirmation-message").text, "details": details,
                "actor": actor[0] if actor else None}

    def stored_conversations(self) -> list[dict]:
        """Every conversation as chrome.storage.local holds it."""
        return self.run("""chrome.storage.local.get(null).then((all) => Object.entries(all)
          .filter(([key]) => key.startsWith("conversation:")).map(([, record]) => record))""")

    def show(self, url: str) -> None:
        """Loads `url` in the user's tab and comes back to the panel."""
        self.driver.switch_to.window(self.page)
        self.driver.get(url)
        self.driver.switch_to.window(self.window)

    # -- what only Selenium has --------------------------------------------------------------

    def wait(self, condition, timeout: float | None = None, message: str = ""):
        """Waits until `condition(driver)` is truthy in the panel (helpers/browser.py `wait`)."""
        return self.browser.wait(condition, timeout or self.patience, message)

    def last_turn(self):
        """The last turn's element, or None before any turn."""
        return last_turn(self.driver)

    def question_boxes(self) -> list:
        """The last turn's questions (confirmations, forms), as elements."""
        turn = self.last_turn()
        return turn.find_elements(By.CSS_SELECTOR, ".confirmation") if turn else []

    def open_steps(self):
        """Unfolds the last turn's steps as a user would; gives their element."""
        return open_steps(self.last_turn())

    def screenshot(self, name: str):
        return self.browser.screenshot(name)

    def in_page(self, script: str, *args):
        """Runs JavaScript as the user's page itself (its main world) and returns its value."""
        self.driver.switch_to.window(self.page)
        try:
            return self.driver.execute_script(script, *args)
        finally:
            self.driver.switch_to.window(self.window)

    def page_value(self, expression: str):
        """The value of the JavaScript `expression` in the user's page (as FirefoxPanel's `in_page`)."""
        return self.in_page(f"return ({expression})")

    @contextmanager
    def closing_new_tabs(self):
        """Runs the block; then closes every tab opened during it (the tabs a turn opened) but
        the panel's own, and comes back to the panel."""
        before = set(self.driver.window_handles)
        try:
            yield self
        finally:
            for handle in set(self.driver.window_handles) - before - {self.window}:
                self.driver.switch_to.window(handle)
                self.driver.close()
            self.driver.switch_to.window(self.window)


class FirefoxPanel(PanelDriver):
    patience = 60

    def __init__(self, firefox, context: str | None = None, page: str | None = None):
        """The chat page in browsing context `context` (a tab opened for it by default, once
        Python is ready there), and the user's tab `page`."""
        self.firefox, self.page = firefox, page
        self.context = context or firefox.open_sidebar_page()
        if context is None:
            self.wait_for_python()

    def wait_for_python(self) -> None:
        self.wait_until("document.getElementById('python-status')?.dataset.ready === 'true'", 120, "Python never became ready")

    @classmethod
    def beside_a_page(cls, firefox, context: str | None = None) -> FirefoxPanel:
        """A blank page tab, then the chat (a new one, or the one given: the user moving to
        another tab): the page is the user's tab."""
        page = firefox.open_tab("about:blank")
        return cls(firefox, context, page=page)

    @classmethod
    def in_windows(cls, firefox) -> FirefoxPanel:
        """The page in a window of its own and the chat in another, as a sidebar sits beside the
        page (Firefox pictures only the tab shown in a window). The page's is the window Firefox
        opened with: a blank window left beside it would be taken for the tab looked at last."""
        blank = [c["context"] for c in firefox.send("browsingContext.getTree", {"maxDepth": 0})["contexts"] if c["url"] == "about:blank"]
        page = blank[0] if blank else firefox.send("browsingContext.create", {"type": "window"})["context"]
        chat = firefox.send("browsingContext.create", {"type": "window"})["context"]
        firefox.send("browsingContext.navigate", {"context": chat, "url": firefox.url(SIDE_PANEL), "wait": "complete"})
        panel = cls(firefox, chat, page=page)
        panel.wait_for_python()
        return panel

    def run(self, expression: str):
        return self.firefox.evaluate(self.context, expression)

    def wait_until(self, expression: str, timeout: float | None, message: str):
        return self.firefox.wait_for(self.context, expression, timeout or self.patience, message)

    def click(self, where: str, script: bool = False) -> None:
        element = where if script else f"document.querySelector({json.dumps(where)})"
        self.run(f"{element}.click()")

    def type_into(self, selector: str, text: str) -> None:
        self.set_value(selector, text, "input")

    def read_question(self, box: str) -> dict:
        return self.run(f"""({{
          message: {box}.querySelector('.confirmation-message').textContent,
          actor: {box}.querySelector('.confirmation-actor')?.textContent ?? null,
          details: Object.fromEntries([...{box}.querySelectorAll('dd')].map((dd) => [dd.dataset.detail, dd.textContent])),
        }})""")

    def stored_conversations(self) -> list[dict]:
        """Every conversation, from the extension's own database (Firefox keeps them out of
        storage.local, which its content scripts can read)."""
        return self.run("import(chrome.runtime.getURL('extension/shared/storage/conversations.js')).then((m) => m.loadAllConversations())")

    def screenshot(self, name: str) -> Path:
        """The chat page as it is drawn now, saved as screenshots/firefox-<name>.png."""
        shot = self.firefox.send("browsingContext.captureScreenshot", {"context": self.context})
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"firefox-{name}.png"
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    def wait_for_value(self, expression: str, timeout: float | None = None, message: str = ""):
        """Waits until `expression`, a promise (storage, messages), gives a truthy value; gives it."""
        return self.firefox.wait_for_value(self.context, expression, timeout or self.patience, message)

    def in_page(self, expression: str):
        """The value of the JavaScript `expression` in the user's page."""
        return self.firefox.evaluate(self.page, expression)

    page_value = in_page

    def top_contexts(self) -> set[str]:
        return {c["context"] for c in self.firefox.send("browsingContext.getTree", {"maxDepth": 0})["contexts"]}

    @contextmanager
    def closing_new_tabs(self):
        """Runs the block; then closes every tab or window opened during it (the tabs a turn
        opened) but the chat's own."""
        before = self.top_contexts()
        try:
            yield self
        finally:
            for context in self.top_contexts() - before - {self.context, self.page}:
                self.firefox.send("browsingContext.close", {"context": context})

    def show(self, url: str, wait: str = "complete") -> None:
        """Loads `url` in the user's tab, looks at it, and comes back to the chat."""
        self.firefox.send("browsingContext.navigate", {"context": self.page, "url": url, "wait": wait})
        self.firefox.send("browsingContext.activate", {"context": self.page})
        self.firefox.send("browsingContext.activate", {"context": self.context})


def chromium_panel(browser) -> ChromiumPanel:
    """The panel of an e2e Browser whose current window is the side panel."""
    return ChromiumPanel(browser, window=browser.driver.current_window_handle)


def firefox_panel(firefox, context: str) -> FirefoxPanel:
    """The Firefox chat page in browsing context `context`."""
    return FirefoxPanel(firefox, context)
