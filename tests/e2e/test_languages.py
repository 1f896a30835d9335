"""The panel in the browser's language (issue 14): German words everywhere a German user
looks, English in an English browser."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.webdriver.common.keys import Keys

from tests.helpers.browser import Browser, fresh_profile, remove_profile
from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import ChromiumPanel


@pytest.fixture
def german_browser(built_extension):
    profile = fresh_profile()
    browser = Browser(profile, extra_flags=("--lang=de",)).start()
    yield browser
    problems = browser.take_problems()
    browser.quit()
    remove_profile(profile)
    assert not problems, "errors in the extension:\n" + "\n".join(map(str, problems))


def test_the_panel_speaks_german_in_a_german_browser(german_browser, model):
    browser = german_browser
    panel = ChromiumPanel(browser)
    driver = browser.driver
    assert driver.find_element(By.ID, "send").text == "Senden"
    assert driver.find_element(By.ID, "prompt").get_attribute("placeholder") == "TabAgent fragen…"
    assert driver.find_element(By.ID, "show-history").text == "Verlauf"
    assert driver.find_element(By.CSS_SELECTOR, ".empty-title").text == "Fragen Sie zur Seite, auf der Sie sind"
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
    attach = driver.find_element(By.ID, "attach")
    assert attach.get_attribute("aria-label") == "Einen Tab oder die Auswahl anhängen"
    assert attach.get_attribute("title").startswith("Einen Tab oder die Auswahl anhängen")
    attach.click()
    offered = browser.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#attach-options .attach-title"), 10)
    assert offered[0].text == "Die Auswahl auf der Seite, auf der Sie sind"
    browser.screenshot("panel-german-attach")
    driver.find_element(By.ID, "attach-options").send_keys(Keys.ESCAPE)
    panel.configure(model.base_url)
    model.script(Reply(tool_calls=[{"name": "get_selection", "arguments": {}}]),
                 Reply(reasoning="Ein kurzer Gruß.", reasoning_field="reasoning_content", text="Hallo!"))
    panel.send("Hallo, wie geht's?")
    panel.wait_for_status("ok")
    turn = panel.last_turn()
    assert turn.find_element(By.CSS_SELECTOR, "details.steps summary").text == "2 Schritte · get_selection"
    assert turn.find_element(By.CSS_SELECTOR, ".action-regenerate").text == "Neu erzeugen"
    assert turn.find_element(By.CSS_SELECTOR, ".action-edit").text == "Bearbeiten"
    # The model's thoughts, folded once it answered, under a German label.
    assert turn.find_element(By.CSS_SELECTOR, "details.thinking > summary").get_attribute("textContent") == "Nachgedacht"
    # The agent is asked to answer in the language the user writes in.
    system = model.requests[-1]["body"]["messages"][0]["content"]
    assert "Answer in the language the user writes in." in system
    browser.screenshot("panel-german")
    turn.find_element(By.CSS_SELECTOR, "details.steps summary").click()
    browser.screenshot("panel-german-steps")


def test_the_context_menu_speaks_german_too(german_browser):
    browser = german_browser
    browser.open_side_panel()
    titles = browser.wait(lambda _: browser.call_module_function(
        browser.service_worker_target(), "createRightClickMenu", "return (await fn()).map((i) => i.title);"), 10)
    assert "Diese Seite zusammenfassen" in titles and "Zur Auswahl fragen…" in titles


def test_the_settings_page_speaks_german_too(german_browser):
    browser = german_browser
    browser.open_tab(browser.url("extension/options/options.html"))
    driver = browser.driver
    browser.wait(lambda d: d.find_element(By.ID, "test-connection").text == "Verbindung testen", 10)
    assert driver.title == "TabAgent-Einstellungen"
    assert driver.find_element(By.CSS_SELECTOR, "label[for=system_prompt]").text.startswith("Ihre Anweisungen")
    # An endpoint's fields (nothing configured, the page opens on the model on this device, which has none).
    Select(driver.find_element(By.ID, "provider")).select_by_value("custom")
    assert driver.find_element(By.ID, "toggle-key").text == "Zeigen"
    assert driver.find_element(By.CSS_SELECTOR, "label[for=context_window]").text.startswith("Kontextfenster in Tokens")
    # A verdict of Test connection (written by the page's script, not the HTML), for an endpoint.
    driver.find_element(By.ID, "base_url").clear()
    driver.find_element(By.ID, "test-connection").click()
    browser.wait(lambda d: d.find_element(By.ID, "connection-result").text == "Geben Sie zuerst eine Basis-URL an.", 10)
