"""The confirmations of a turn in the Chromium panel, answered as a person would: the n-th
question as it reads on screen, and the user's answer to it (tests/helpers/panel_driver.py's
verbs, in the words the e2e tests use)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.e2e.chat import last_turn
from tests.helpers.panel_backends import chromium_panel


def boxes(driver):
    turn = last_turn(driver)
    return turn.find_elements(By.CSS_SELECTOR, ".confirmation") if turn else []


def question(tabs, n):
    """The turn's n-th confirmation (from 0), once it is on screen asking: {message, details}."""
    return chromium_panel(tabs.browser).question(n)


def answer(tabs, n, decision):
    """Presses the n-th confirmation's button for `decision`; then all its buttons are disabled."""
    chromium_panel(tabs.browser).answer_question(n, decision)


class Panel:
    """The side panel as these helpers take it: its browser and driver."""

    def __init__(self, browser):
        self.browser, self.driver = browser, browser.driver


def asked_in_panel(browser, n):
    """`question` for a test that holds the panel's browser itself."""
    return question(Panel(browser), n)
