"""Python only when asked for: the offscreen document (Pyodide, ~140 MB) is absent at rest,
created when a panel opens or a turn is sent, kept while a panel is open or a turn runs, and
closed after the idle time (a setting, made short here). A turn sent while Python starts runs."""

from __future__ import annotations

import time

from selenium.webdriver.common.by import By

from tests.helpers.cdp import CDPError
from tests.helpers.model_server import Reply
from tests.helpers.quiet import stays_quiet
from tests.helpers.panel_backends import ChromiumPanel, chromium_panel


OFFSCREEN = "extension/offscreen/offscreen.html"
IDLE_MINUTES = 0.05  # 3 s


def offscreen_targets(browser):
    return [t for t in browser.extension_targets() if t["url"].endswith(OFFSCREEN)]


def wait_until_closed(browser, timeout=60):
    deadline = time.monotonic() + timeout
    while offscreen_targets(browser):
        assert time.monotonic() < deadline, "the idle offscreen document was never closed"
        time.sleep(0.1)


def contexts_once_started(browser):
    """The extension's contexts, or none while its service worker is still starting."""
    target = browser.service_worker_target()
    try:
        return contexts_in_worker(browser) if target else []
    except CDPError:  # "chrome is not defined": the worker's script has not run yet
        return []


def contexts_in_worker(browser):
    return browser.evaluate_in(browser.service_worker_target(),
                               "chrome.runtime.getContexts({}).then((all) => all.map((c) => c.contextType))")


def set_idle_minutes(panel, minutes):
    panel.driver.execute_async_script("""
      const [minutes, done] = arguments;
      chrome.storage.local.get("settings").then(({ settings }) =>
        chrome.runtime.sendMessage({ target: "background", type: "save-settings",
                                     settings: { ...settings, idle_close_minutes: minutes } })).then(done, done);
    """, minutes)


def test_no_python_at_rest_then_on_demand_then_closed_when_idle(fresh_browser, model):
    browser = fresh_browser()
    # whatever the extension does at start, it starts no Python: watched for 1.5 s from the
    # launch (while the service worker is still starting, there is nothing to see yet) ...
    stays_quiet(lambda: "OFFSCREEN_DOCUMENT" in contexts_once_started(browser), 1.5, every=0.1,
                why="an offscreen document started with nothing asking for Python")
    assert "OFFSCREEN_DOCUMENT" not in contexts_in_worker(browser)  # ... and the worker answers
    assert offscreen_targets(browser) == []

    panel = ChromiumPanel(browser)  # opening the panel starts Python ...
    status = browser.wait(lambda d: (el := d.find_element(By.ID, "python-status")).get_attribute("data-ready") == "true" and el, 60)
    assert not status.is_displayed(), "readiness is shown only while Python is not ready"
    assert len(offscreen_targets(browser)) == 1

    panel.configure(model.base_url)
    set_idle_minutes(panel, IDLE_MINUTES)
    # Longer than the idle time: the open panel keeps Python.
    stays_quiet(lambda: len(offscreen_targets(browser)) != 1, IDLE_MINUTES * 60 * 2, every=0.5,
                why="Python closed while the panel was open")

    browser.open_tab(browser.url("extension/options/options.html"))
    browser.driver.switch_to.window(panel.window)
    browser.driver.close()  # ... and closing it lets Python go once idle
    browser.driver.switch_to.window(browser.driver.window_handles[-1])
    settings_page = chromium_panel(browser)  # speaks to the background as the panel did
    wait_until_closed(browser)

    # A turn sent while Python is not even started: it is accepted at once and runs when ready.
    model.script(Reply(text="Started cold."))
    started = settings_page.ask_background("start-turn", text="Hello from a cold start")
    ready = settings_page.ask_background("ping")
    record = browser.wait(lambda d: next((c for c in settings_page.stored_conversations()
                                           if c["id"] == started["conversationId"] and c["turns"][-1]["status"] == "ok"), None), 60)
    assert record["turns"][-1]["startedAt"] < ready["readyAt"], "the turn was sent before Python was ready"
    assert "Started cold." in str(record["turns"][-1]["events"])
    wait_until_closed(browser)  # the turn over and no panel open: idle again

    # Stopped while Python starts: it never reaches the model.
    asked = len(model.requests)
    started = settings_page.ask_background("start-turn", text="Never mind")
    assert settings_page.ask_background("stop-turn", conversationId=started["conversationId"])["stopped"] is True
    browser.wait(lambda d: next((c for c in settings_page.stored_conversations() if c["id"] == started["conversationId"]
                                  and c["turns"][-1]["status"] == "cancelled"), None), 60)
    assert len(model.requests) == asked


def test_the_settings_page_opened_and_saved_starts_no_python(fresh_browser, model):
    """The settings page asks, as it opens, whether an on-device model is downloading: a closed
    Python page answers that by being closed (nothing downloads, nothing is loaded), and is not
    started to say so; saving settings starts none either."""
    browser = fresh_browser()
    browser.open_tab(browser.url("extension/options/options.html"))
    settings_page = chromium_panel(browser)
    stays_quiet(lambda: offscreen_targets(browser), 3, every=0.1, why="opening the settings page started Python")
    settings_page.configure(model.base_url)
    browser.driver.refresh()  # opened again, on those settings: the page saves a change itself
    browser.wait(lambda d: d.find_element(By.ID, "model").get_attribute("value") == "scripted-model", 30)
    browser.driver.find_element(By.ID, "model").send_keys("-renamed")
    browser.driver.find_element(By.ID, "apiKey").click()
    saved = "return chrome.storage.local.get('settings').then(({ settings }) => settings.model)"
    browser.wait(lambda d: d.execute_script(saved) == "scripted-model-renamed", 30)
    stays_quiet(lambda: offscreen_targets(browser), 3, every=0.1, why="saving settings started Python")
    status = settings_page.ask_background("device-model-status")
    assert status["downloads"] == [] and status["runner"]["loaded"] is None
    assert offscreen_targets(browser) == []
