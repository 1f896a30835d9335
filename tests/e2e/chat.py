"""Driving the side panel like a person: configure a model, type, send, watch, stop. The verbs
shared with the Firefox tests are tests/helpers/panel_driver.py's (`chromium_panel(browser)`)."""

from __future__ import annotations

import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.helpers.panel_backends import chromium_panel

SEND_MESSAGE = """
const [message, done] = [arguments[0], arguments[arguments.length - 1]];
chrome.runtime.sendMessage(message).then(done, (e) => done({ ok: false, error: String(e) }));
"""


def ask_background(browser, type_: str, **payload):
    return chromium_panel(browser).ask_background(type_, **payload)


def configure(browser, base_url: str, *, agent: str = "tool_calling", api_key: str = "sk-test", provider: str = "custom", model: str = "scripted-model"):
    chromium_panel(browser).configure(base_url, agent=agent, api_key=api_key, provider=provider, model=model)


def send(browser, text: str) -> None:
    chromium_panel(browser).send(text)


def wait(browser, condition, timeout: float = 30, message: str = ""):
    # The panel re-renders lists as they change: an element gone stale is just looked up again.
    return WebDriverWait(browser.driver, timeout, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException]).until(
        lambda d: condition(d), message
    )


def last_turn(driver):
    turns = driver.find_elements(By.CSS_SELECTOR, "article.turn")
    return turns[-1] if turns else None


def turn_status(driver):
    turn = last_turn(driver)
    return turn.get_attribute("data-status") if turn else None


def wait_for_status(browser, *statuses, timeout: float = 30):
    return chromium_panel(browser).wait_for_status(*statuses, timeout=timeout)


def stored_conversations(browser) -> list[dict]:
    return browser.driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        chrome.storage.local.get(null).then((all) => done(Object.entries(all)
          .filter(([k]) => k.startsWith("conversation:")).map(([, v]) => v)));
        """
    )


def open_steps(turn):
    """Unfolds a finished turn's steps (folded into one line under the question) as a user would."""
    steps = turn.find_element(By.CSS_SELECTOR, "details.steps")
    if steps.get_attribute("open") is None:
        steps.find_element(By.TAG_NAME, "summary").click()
    return steps


def fresh_panel(browser):
    """A side panel tab on a new, empty conversation."""
    browser.open_side_panel()
    browser.driver.find_element(By.ID, "new-chat").click()
    return browser


def time_until(predicate, timeout: float = 10, step: float = 0.01) -> float:
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise TimeoutError("condition never held")
        time.sleep(step)
    return time.monotonic() - start


# The panel's own module, imported again by its URL: the very instance the panel runs.
# The panel's debug handle (extension/shared/debug/debug-handle.js), once the panel's module has run
# (importing it again by its URL waits for the very instance the panel runs).
PANEL_MODULE = 'import(chrome.runtime.getURL("extension/sidepanel/sidepanel.js")).then(() => globalThis.tabagentDebug)'


def open_in_panel(driver, conversation_id: str) -> None:
    """Opens a stored conversation in the panel, as clicking it in History does."""
    driver.execute_async_script(
        f"const [id, done] = arguments; {PANEL_MODULE}.then(({{ conversation }}) => conversation.open(id)).then(() => done());",
        conversation_id)


def open_conversation_id(driver) -> str | None:
    """The id of the conversation the panel shows."""
    return driver.execute_async_script(
        f"const done = arguments[0]; {PANEL_MODULE}.then(({{ conversation }}) => done(conversation.id ?? null));")
