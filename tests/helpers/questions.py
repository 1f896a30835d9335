"""The confirmations of a turn in the Chromium panel, answered as a person would: the n-th
question as it reads on screen, and the user's answer to it."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from tests.e2e.chat import last_turn, wait


def boxes(driver):
    turn = last_turn(driver)
    return turn.find_elements(By.CSS_SELECTOR, ".confirmation") if turn else []


def question(tabs, n):
    """The turn's n-th confirmation (from 0), once it is on screen asking: {message, details}."""
    wait(tabs.browser, lambda d: len(boxes(d)) > n and boxes(d)[n].get_attribute("data-state") == "asking",
         30, f"confirmation {n} was never asked")
    box = boxes(tabs.driver)[n]
    details = {dd.get_attribute("data-detail"): dd.text for dd in box.find_elements(By.CSS_SELECTOR, "dd")}
    return {"message": box.find_element(By.CSS_SELECTOR, ".confirmation-message").text, "details": details}


def answer(tabs, n, decision):
    boxes(tabs.driver)[n].find_element(By.CSS_SELECTOR, f'button[data-decision="{decision}"]').click()
    wait(tabs.browser, lambda d: boxes(d)[n].get_attribute("data-state") == decision, 10)
    assert all(not b.is_enabled() for b in boxes(tabs.driver)[n].find_elements(By.TAG_NAME, "button"))


class Panel:
    """The side panel as these helpers take it: its browser and driver."""

    def __init__(self, browser):
        self.browser, self.driver = browser, browser.driver


def asked_in_panel(browser, n):
    """`question` for a test that holds the panel's browser itself."""
    return question(Panel(browser), n)
