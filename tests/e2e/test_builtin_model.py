"""Chrome's built-in model (LanguageModel): offered where present, used without a key.

Debian's Chromium has no built-in model, so a stand-in LanguageModel with the Prompt API's
shape is installed in the extension's pages; what is tested is TabAgent's side of it.
"""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.helpers.panel_backends import ChromiumPanel


FAKE_LANGUAGE_MODEL = """
globalThis.LanguageModel = {
  availability: async () => "available",
  create: async ({ initialPrompts }) => {
    globalThis.fakeModel = { initialPrompts, destroyed: false };
    return {
      promptStreaming(prompt) {
        globalThis.fakeModel.prompt = prompt;
        const pieces = ["Hello ", "from ", "the ", "device."];
        return new ReadableStream({
          async pull(controller) {
            await new Promise((resolve) => setTimeout(resolve, 20));
            const piece = pieces.shift();
            if (piece === undefined) controller.close(); else controller.enqueue(piece);
          },
        });
      },
      destroy() { globalThis.fakeModel.destroyed = true; },
    };
  },
};
"""


def offscreen(browser):
    return next(t for t in browser.extension_targets() if t["url"].endswith("offscreen.html"))


def test_a_turn_runs_on_the_builtin_model_without_a_key(browser):
    panel = ChromiumPanel(browser).new_conversation()
    browser.evaluate_in(offscreen(browser), FAKE_LANGUAGE_MODEL + "; true")
    panel.ask_background("save-settings", settings={"provider": "builtin", "base_url": "", "model": "", "agent": "code"}, apiKey="")
    panel.send("Say hello")
    panel.wait_for_status("ok")
    assert panel.last_turn().find_element(By.CSS_SELECTOR, ".message.assistant").text == "Hello from the device."
    used = browser.evaluate_in(offscreen(browser), "globalThis.fakeModel")
    assert used["prompt"] == "Say hello"
    assert used["initialPrompts"][0]["role"] == "system" and "final_answer" in used["initialPrompts"][0]["content"]
    assert used["destroyed"] is True


def test_settings_offer_it_where_chrome_has_it_beside_the_on_device_default(browser):
    """Nothing configured, the default is the model on this device (the first provider);
    Chrome's own model is offered where Chrome has it, with no URL or key to fill in."""
    ChromiumPanel(browser).ask_background("save-settings", settings={"provider": "", "base_url": "", "model": ""}, apiKey="")
    browser.open_tab("about:blank")
    browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_LANGUAGE_MODEL})
    browser.driver.get(browser.url("extension/options/options.html"))
    browser.wait(lambda d: d.find_element(By.ID, "provider").get_attribute("value") == "ondevice", 5)
    Select(browser.driver.find_element(By.ID, "provider")).select_by_value("builtin")
    assert not browser.driver.find_element(By.ID, "base_url").is_displayed()
    browser.wait(lambda d: d.execute_async_script(
        "const done = arguments[0]; chrome.storage.local.get('settings').then((s) => done(s.settings.provider));") == "builtin", 5)
    browser.driver.find_element(By.ID, "test-connection").click()
    browser.wait(lambda d: "ready on this device" in d.find_element(By.ID, "connection-result").text, 5)

    browser.open_tab(browser.url("extension/options/options.html"))  # no LanguageModel here
    values = browser.wait(lambda d: [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#provider option")], 5)
    assert "builtin" not in values and "openai" in values
