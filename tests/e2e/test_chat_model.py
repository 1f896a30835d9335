"""The model at hand (issue 14): provider, model and agent kind picked in the panel; the
user's system prompt, temperature and longest reply from the settings, each overridable for
one conversation, reaching the model's request."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.helpers.model_server import Reply


def chat_requests(model):
    return [r for r in model.requests if r["path"].endswith("/chat/completions")]


def settings_in_storage(browser):
    return browser.driver.execute_async_script(
        "const done = arguments[0]; chrome.storage.local.get('settings').then((s) => done(s.settings));")


def test_model_and_agent_kind_are_picked_in_the_panel(panel, model):
    panel.driver.refresh()  # the picker reads the settings the fixture just saved
    panel.wait(lambda d: Select(d.find_element(By.ID, "pick-model")).first_selected_option.text == "scripted-model", 5)
    assert not [r for r in model.requests if r["path"].endswith("/models")], "the list is loaded when wanted"
    panel.driver.find_element(By.ID, "pick-model").click()
    picker = panel.wait(lambda d: len(Select(d.find_element(By.ID, "pick-model")).options) >= 2 and d.find_element(By.ID, "pick-model"), 10)
    assert [o.text for o in Select(picker).options] == ["scripted-model", "scripted-model-large"]
    assert Select(panel.driver.find_element(By.ID, "pick-provider")).first_selected_option.get_attribute("value") == "custom"
    Select(picker).select_by_visible_text("scripted-model-large")
    Select(panel.driver.find_element(By.ID, "pick-agent")).select_by_value("code")
    panel.wait(lambda _: settings_in_storage(panel)["agent"] == "code", 5)
    assert settings_in_storage(panel)["model"] == "scripted-model-large"
    model.script(Reply(text="```python\nfinal_answer('picked')\n```"))
    panel.send("Which model?")
    panel.wait_for_status("ok")
    body = chat_requests(model)[-1]["body"]
    assert body["model"] == "scripted-model-large"
    assert "tools" not in body  # a CodeAgent acts by writing Python, not by tool calls


def test_system_prompt_temperature_and_longest_reply_reach_the_model(panel, model):
    settings = {"provider": "custom", "base_url": model.base_url, "model": "scripted-model", "agent": "tool_calling",
                "max_steps": 6, "system_prompt": "Always mention otters.", "temperature": "0.2", "max_output_tokens": "300"}
    panel.ask_background("save-settings", settings=settings, apiKey="sk-test")
    model.script(Reply(text="Otters."))
    panel.send("Hello")
    panel.wait_for_status("ok")
    body = chat_requests(model)[-1]["body"]
    system = body["messages"][0]["content"]
    assert "final_answer" in system, "the agent's own instructions stay"
    assert system.rstrip().endswith("Always mention otters.")
    assert body["temperature"] == 0.2 and body["max_tokens"] == 300


def test_one_conversation_overrides_the_settings(panel, model):
    settings = {"provider": "custom", "base_url": model.base_url, "model": "scripted-model", "agent": "tool_calling",
                "max_steps": 6, "temperature": "0.2"}
    panel.ask_background("save-settings", settings=settings, apiKey="sk-test")
    driver = panel.driver
    driver.find_element(By.CSS_SELECTOR, "#conversation-settings summary").click()
    driver.find_element(By.ID, "conversation-temperature").send_keys("1.1")
    driver.find_element(By.ID, "conversation-system_prompt").send_keys("Speak in rhymes.")
    model.script(Reply(text="One."), Reply(text="Two."), Reply(text="Three."))
    panel.send("First")
    panel.wait_for_status("ok")
    assert chat_requests(model)[-1]["body"]["temperature"] == 1.1
    assert chat_requests(model)[-1]["body"]["messages"][0]["content"].endswith("Speak in rhymes.")
    # A new conversation goes back to the settings; reopening the first brings its own back.
    panel.new_conversation()
    panel.wait(lambda d: d.find_element(By.ID, "conversation-temperature").get_attribute("value") == "", 5)
    panel.send("Second")
    panel.wait(lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, ".user-text")] == ["Second"], 20)
    panel.wait_for_status("ok")
    assert chat_requests(model)[-1]["body"]["temperature"] == 0.2
    assert "rhymes" not in chat_requests(model)[-1]["body"]["messages"][0]["content"]
