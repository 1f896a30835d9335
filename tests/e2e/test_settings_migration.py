"""Settings an older version stored under the camelCase second spelling (baseUrl, maxSteps)
are kept when TabAgent starts with them: the settings page shows them, and the service worker
rewrites them once under wire.py's names (extension/shared/settings/settings-migration.js)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.helpers.old_settings import NEW_SHAPE, OLD_SHAPE
from tests.helpers.panel_backends import chromium_panel


STORE_OLD_SHAPE = """
const [settings, done] = arguments;
chrome.storage.local.set({ settings }).then(() => done(true), (e) => done(String(e)));
"""
STORED = "const done = arguments[0]; chrome.storage.local.get('settings').then(({ settings }) => done(settings));"


def test_settings_stored_in_the_old_spelling_are_kept_across_a_restart(fresh_browser):
    before = fresh_browser()
    before.open_tab(before.url("extension/options/options.html"))
    assert before.driver.execute_async_script(STORE_OLD_SHAPE, OLD_SHAPE) is True
    before.quit()

    after = fresh_browser()  # the same profile, as after an update
    after.open_tab(after.url("extension/options/options.html"))
    driver = after.driver
    after.wait(lambda d: d.find_element(By.ID, "base_url").get_attribute("value"), 10, "the settings page showed no base URL")
    shown = {name: driver.find_element(By.ID, name).get_attribute("value")
             for name in ("base_url", "model", "max_steps", "code_timeout", "context_window", "system_prompt", "site_rules")}
    assert shown == {name: str(NEW_SHAPE[name]) for name in shown}
    assert Select(driver.find_element(By.ID, "tool_set")).first_selected_option.get_attribute("value") == "compact"
    assert driver.find_element(By.ID, "show_steps").is_selected() and not driver.find_element(By.ID, "page_tools").is_selected()

    chromium_panel(after).ask_background("delete-older-than", days=36500)  # wakes the service worker (nothing is that old)
    after.wait(lambda d: d.execute_async_script(STORED) == NEW_SHAPE, 10, "the stored settings were not rewritten")
