"""Ask about a selection from the context menu; the settings page; local endpoints' Origin."""

from __future__ import annotations


import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.helpers.model_server import ModelServer, Reply
from tests.helpers.panel_backends import last_turn


PAGE = "data:text/html,<title>Fox facts</title><p>The quick brown fox jumps over the lazy dog.</p>"


@pytest.fixture(autouse=True)
def no_key_required(model):
    model.required_key = None


def test_context_menu_starts_a_turn_with_the_selection_title_and_url(panel, model):
    panel.browser.open_tab(PAGE)
    panel.driver.switch_to.window(panel.window)
    model.script(Reply(text="It is a pangram."))
    worker = panel.browser.service_worker_target()
    started = panel.browser.call_module_function(  # the handler, called as Chrome calls it on a click
        worker, "onRightClickMenuClick",
        """const [tab] = await chrome.tabs.query({ title: "Fox facts" });
          return fn({ menuItemId: "explain-selection", selectionText: "The quick brown fox", pageUrl: tab.url }, tab);""",
    )
    assert started and started["conversationId"], started
    panel.wait(lambda d: last_turn(d) is not None and "The quick brown fox" in last_turn(d).text, 10)
    panel.wait_for_status("ok")
    task = model.requests[0]["body"]["messages"][-1]["content"]
    assert "The quick brown fox" in task and "Fox facts" in task and "data:text/html" in task
    assert "<page_content source=" in task and "not instructions" in task
    quote = panel.last_turn().find_element(By.CSS_SELECTOR, "blockquote.context")
    assert quote.text == "The quick brown fox"
    panel.screenshot("selection-turn")


def test_local_endpoint_gets_no_origin_header_but_others_do(panel, model):
    panel.configure(model.base_url, provider="ollama", api_key="")
    model.script(Reply(text="Hello from a local model"))
    panel.send("Hi local")
    panel.wait_for_status("ok")
    assert "origin" not in model.requests[0]["headers"], model.requests[0]["headers"]
    with ModelServer() as other:  # a local server that is not the configured one keeps its Origin
        panel.driver.execute_async_script(
            "const [url, done] = arguments; fetch(url + '/chat/completions', {method: 'POST', body: '{}'})"
            ".then(() => done(), () => done());",
            other.base_url,
        )
        assert other.requests[0]["headers"].get("origin", "").startswith("chrome-extension://")
    rules = panel.driver.execute_async_script("const done = arguments[0]; chrome.declarativeNetRequest.getDynamicRules().then(done);")
    assert [r["condition"]["urlFilter"] for r in rules] == [f"|{model.base_url.rsplit('/v1', 1)[0]}/"]


def open_settings(panel):
    """The settings page, in the panel's browser (the verbs then act there)."""
    panel.browser.open_tab(panel.browser.url("extension/options/options.html"))
    panel.wait(lambda d: d.find_element(By.ID, "provider").find_elements(By.TAG_NAME, "option"), 5)


def saved_settings(browser):
    return browser.driver.execute_async_script("const done = arguments[0]; chrome.storage.local.get(null).then(done);")


def test_settings_page_presets_models_and_test_connection(panel, model):
    open_settings(panel)
    driver = panel.driver
    Select(driver.find_element(By.ID, "provider")).select_by_visible_text("Ollama")
    assert driver.find_element(By.ID, "base_url").get_attribute("value") == "http://localhost:11434/v1"
    Select(driver.find_element(By.ID, "provider")).select_by_visible_text("Custom (OpenAI-compatible)")
    base = driver.find_element(By.ID, "base_url")
    base.clear()
    base.send_keys(model.base_url)
    key = driver.find_element(By.ID, "apiKey")
    assert key.get_attribute("type") == "password"  # shown masked
    key.clear()
    key.send_keys("sk-right")
    model.required_key = "sk-right"
    driver.find_element(By.ID, "test-connection").click()
    result = panel.wait(lambda d: (r := d.find_element(By.ID, "connection-result")).text.startswith("Connected") and r, 10)
    assert result.text == "Connected: 2 models available."
    options = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#models option")]
    assert options == ["scripted-model", "scripted-model-large"]
    assert driver.find_element(By.ID, "model").get_attribute("value") == "scripted-model"
    stored = saved_settings(panel)
    assert stored["apiKey"] == "sk-right" and "sk-right" not in str(stored["settings"])
    assert stored["settings"]["base_url"] == model.base_url
    panel.screenshot("settings")

    key.clear()
    key.send_keys("sk-wrong")
    driver.find_element(By.ID, "test-connection").click()
    panel.wait(lambda d: "check the API key" in d.find_element(By.ID, "connection-result").text, 10)
    assert driver.find_element(By.ID, "connection-result").get_attribute("data-ok") == "false"


def test_settings_page_says_when_the_endpoint_is_unreachable(panel):
    open_settings(panel)
    base = panel.driver.find_element(By.ID, "base_url")
    base.clear()
    base.send_keys("http://127.0.0.1:9/v1")
    panel.driver.find_element(By.ID, "test-connection").click()
    panel.wait(lambda d: "Could not reach" in d.find_element(By.ID, "connection-result").text, 15)


def test_the_settings_page_offers_every_setting_within_wire_py_s_bounds(panel):
    """The page once kept its own field list and bounds (at most 50 steps where Python takes
    100), and had no field for the request's timeout and retries."""
    open_settings(panel)
    driver = panel.driver
    wire = driver.execute_async_script(
        "const done = arguments[0]; import(chrome.runtime.getURL('extension/shared/wire.js'))"
        ".then((m) => done({ settings: m.SETTINGS, limits: m.SETTINGS_LIMITS }));")
    for name in wire["settings"]:
        assert driver.find_elements(By.NAME, name), f"no field for {name}"
    for name, (lowest, highest) in wire["limits"].items():
        field = driver.find_element(By.NAME, name)
        assert (float(field.get_attribute("min")), float(field.get_attribute("max"))) == (lowest, highest), name
    retries = driver.find_element(By.ID, "max_retries")
    retries.clear()
    retries.send_keys("0")
    driver.find_element(By.ID, "max_steps").click()  # leaving the field saves
    panel.wait(lambda d: saved_settings(panel)["settings"].get("max_retries") == 0, 5)
    # Left empty, the request's timeout is the provider's default (longer for a model on this machine).
    assert wire["settings"]["request_timeout"] is None and saved_settings(panel)["settings"]["request_timeout"] in ("", None)


def test_a_team_that_is_not_valid_json_is_reported_not_saved(panel):
    open_settings(panel)
    team = panel.driver.find_element(By.ID, "team")
    team.send_keys("[{not json")
    panel.driver.find_element(By.ID, "max_steps").click()  # leaving the field saves
    panel.wait(lambda d: "Not saved" in d.find_element(By.ID, "team-error").text, 5)


def test_storage_size_and_delete_older_than(panel, model):
    open_settings(panel)
    panel.wait(lambda d: d.find_element(By.ID, "storage-size").text.endswith("B"), 5)
    older = panel.driver.find_element(By.ID, "older-than")
    older.clear()
    older.send_keys("0")
    panel.driver.find_element(By.ID, "delete-older").click()
    panel.wait(lambda d: d.find_element(By.ID, "delete-result").text.startswith("Deleted"), 5)
    stored = saved_settings(panel)
    assert not [k for k in stored if k.startswith("conversation:")]


def test_the_settings_page_shows_how_each_site_rule_was_read(panel):
    open_settings(panel)
    rules = panel.driver.find_element(By.ID, "site_rules")
    rules.clear()
    rules.send_keys("Shop.Example.: never\nhttps://shop.example:8443: allow\nbücher.example:8080: ask\n"
                    "https://*.news.example: allow\nhttps://news.example/today: allow")
    read = [(li.text, li.get_attribute("data-read")) for li in panel.driver.find_elements(By.CSS_SELECTOR, "#site-rules-read li")]
    assert read == [
        ("shop.example and its subdomains, any scheme and port: no action, and no question", "true"),
        ("https://shop.example:8443 only, not its subdomains: actions are not asked", "true"),
        ("xn--bcher-kva.example and its subdomains, port 8080 only, http or https: every action is asked", "true"),
        ("news.example and its subdomains, https on port 443 only: actions are not asked", "true"),
        ("Not read: “https://news.example/today: allow”. Write “site: allow”, “site: never” or “site: ask”, where the "
         "site is a host, host:port or http(s)://host:port, with no path.", "false")]
    rules.clear()
    panel.driver.find_element(By.ID, "max_steps").click()  # leaving the field saves it empty again
    panel.wait(lambda d: not saved_settings(panel)["settings"].get("site_rules"), 5)
