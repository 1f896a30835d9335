"""The two ways PanelDriver (tests/helpers/panel_driver.py) reaches the panel.

- SeleniumPanel: the Chromium side panel, a tab of the e2e Browser (tests/helpers/browser.py),
  Selenium's current window; typing is real key presses, clicks are WebDriver's clicks.
- BidiPanel: a Firefox chat page, a browsing context of tests/helpers/firefox.py's Firefox;
  typing sets the box's value and fires its input event, clicks are the element's click().
Each reads a question as its tests always have: Selenium as the text shown, BiDi as the
text content."""

from __future__ import annotations

import json

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.helpers.panel_driver import PanelDriver

# An expression's value, awaited when it is a promise (the panel's CSP allows no eval: the
# expression is written into the script WebDriver runs).
RUN = """
const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (EXPRESSION)).then((value) => done({ value }), (error) => done({ error: String(error) }));
"""


class SeleniumPanel:
    patience = 30

    def __init__(self, browser):
        self.browser, self.driver = browser, browser.driver

    def run(self, expression: str):
        outcome = self.driver.execute_async_script(RUN.replace("EXPRESSION", expression))
        if "error" in outcome:
            raise AssertionError(f"in the panel: {outcome['error']}")
        return outcome.get("value")

    def wait_until(self, expression: str, timeout: float | None, message: str):
        # The panel re-renders lists as they change: an element gone stale is just looked up again.
        return WebDriverWait(self.driver, timeout or self.patience, poll_frequency=0.05,
                             ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: d.execute_script(f"return ({expression})"), message)

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


class BidiPanel:
    patience = 60

    def __init__(self, firefox, context: str):
        self.firefox, self.context = firefox, context

    def run(self, expression: str):
        return self.firefox.evaluate(self.context, expression)

    def wait_until(self, expression: str, timeout: float | None, message: str):
        return self.firefox.wait_for(self.context, expression, timeout or self.patience, message)

    def click(self, where: str, script: bool = False) -> None:
        element = where if script else f"document.querySelector({json.dumps(where)})"
        self.run(f"{element}.click()")

    def type_into(self, selector: str, text: str) -> None:
        self.run(f"""(() => {{
          const box = document.querySelector({json.dumps(selector)});
          box.value = {json.dumps(text)};
          box.dispatchEvent(new InputEvent('input', {{ bubbles: true }}));
        }})()""")

    def read_question(self, box: str) -> dict:
        return self.run(f"""({{
          message: {box}.querySelector('.confirmation-message').textContent,
          actor: {box}.querySelector('.confirmation-actor')?.textContent ?? null,
          details: Object.fromEntries([...{box}.querySelectorAll('dd')].map((dd) => [dd.dataset.detail, dd.textContent])),
        }})""")


def chromium_panel(browser) -> PanelDriver:
    """The panel of an e2e Browser whose current window is the side panel."""
    return PanelDriver(SeleniumPanel(browser))


def firefox_panel(firefox, context: str) -> PanelDriver:
    """The Firefox chat page in browsing context `context`."""
    return PanelDriver(BidiPanel(firefox, context))
