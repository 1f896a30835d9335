"""TabAgent against a real model server: llama.cpp's server with SmolLM2-135M-Instruct and a
2,048-token window (tests/helpers/llama_server.py), through the whole extension.

The model is tiny: these tests assert on mechanics (a reply streams, the settings page
talks to the server, a conversation longer than the window is compacted and completes),
never on what it says.
"""

from __future__ import annotations

import json
import sys

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.helpers.browser import ROOT
from tests.helpers.model_server import Reply
from tests.helpers.page_server import PageServer

from .long_article import write_long_article
from tests.helpers.panel_backends import ChromiumPanel

pytestmark = pytest.mark.timeout(600)

SAMPLES = {
    "prose": ("The river opened again after the long winter, and visitors came from three "
              "nearby valleys to see the old library, which kept its records in wooden boxes. ") * 6,
    "markdown": "# Results\n\n| City | Sales / 2024 |\n|---|---|\n| Paris | 1,204 |\n| Berlin | 987 |\n\n"
                "- **Note:** see [the report](https://example.org/report-2024.pdf) for details.\n" * 4,
    "code": 'def read_rows(path: str) -> list[dict]:\n    """Read a CSV file."""\n    with open(path) as f:\n'
            '        return [dict(zip(HEADER, line.strip().split(","))) for line in f]\n\n' * 4,
    "json": json.dumps({"tool_calls": [{"id": f"call_{i}", "type": "function", "function": {
        "name": "read_page", "arguments": json.dumps({"page": i, "max_tokens": 4000})}} for i in range(6)]}),
    "german": "Die Straßenbahn fährt über die Brücke, während die Bäckerei frische Brötchen verkauft. " * 6,
}


@pytest.mark.parametrize("kind", SAMPLES)
def test_the_token_estimate_is_within_15_percent_of_llama_cpps_tokenizer(llama, kind):
    sys.path.insert(0, str(ROOT / "py"))
    from tabagent.tokens import count_text

    text = SAMPLES[kind]
    real, estimate = llama.count_tokens(text), count_text(text)
    assert abs(estimate - real) <= 0.15 * real, f"{kind}: estimated {estimate}, llama.cpp counts {real}"


def use_llama(panel, llama, **extra):
    panel.ask_background("save-settings", apiKey="", settings={
        "provider": "llamacpp", "base_url": llama.base_url, "model": llama.model, "agent": "code",
        "max_steps": 2, **extra})


def last_turn_events(panel):
    """The events of the newest conversation's last turn, as saved."""
    conversation = max(panel.stored_conversations(), key=lambda c: c.get("updatedAt") or 0)
    return conversation["turns"][-1]["events"]


def test_test_connection_and_load_list_against_the_server(browser, llama):
    browser.open_tab(browser.url("extension/options/options.html"))
    driver = browser.driver
    browser.wait(lambda d: d.find_element(By.ID, "provider").find_elements(By.TAG_NAME, "option"), 5)
    Select(driver.find_element(By.ID, "provider")).select_by_visible_text("llama.cpp server")
    base = driver.find_element(By.ID, "base_url")
    base.clear()
    base.send_keys(llama.base_url)
    driver.find_element(By.ID, "model").clear()
    driver.find_element(By.ID, "test-connection").click()
    result = browser.wait(lambda d: (r := d.find_element(By.ID, "connection-result")).text.startswith("Connected") and r, 20)
    assert result.text == "Connected: 1 model available." and result.get_attribute("data-ok") == "true"
    driver.find_element(By.ID, "load-models").click()
    browser.wait(lambda d: [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#models option")] == [llama.model], 10)
    assert driver.find_element(By.ID, "model").get_attribute("value") == llama.model
    browser.screenshot("llama-settings")


def test_a_turn_streams_from_the_server(browser, llama):
    panel = ChromiumPanel(browser)
    use_llama(panel, llama)
    panel.new_conversation()
    panel.send("Say hello in one short sentence.")
    panel.wait_for_status("ok", "max_steps", "error", timeout=300)
    panel.screenshot("llama-turn")
    turn = panel.last_turn()
    assert turn.get_attribute("data-status") in ("ok", "max_steps"), turn.text
    assert turn.find_element(By.CSS_SELECTOR, ".message.assistant").text.strip()
    calls = [e for e in last_turn_events(panel) if e["kind"] == "model_call"]
    # The answered call (the agent's full instructions with every page tool outgrow this 2,048-token
    # server, which then answers 200 with nothing; the agent retries within a guessed window).
    answered = calls[-1]["data"]
    assert answered["status"] == 200
    streamed = [line for line in answered["response"].splitlines() if line.startswith("data: {")]
    assert len(streamed) >= 3, answered["response"][:500]  # the reply came in pieces
    assert json.loads(answered["request"])["stream"] is True


READ = "I will read the page.\n```python\nprint(read_page())\n```"
ANSWER = "```python\nfinal_answer('A chronicle of a town.')\n```"


def a_conversation_with_a_long_page_read(browser, model, tmp_path):
    """A first turn, with a scripted model of a large window, that read a long page: its panel."""
    model.reset()
    model.context_length = 32_768
    with PageServer(tmp_path) as site:
        tabs = ChromiumPanel.beside_a_page(browser)
        tabs.configure(model.base_url, agent="code", api_key="", max_steps=3)
        tabs.new_conversation(on=site.url(write_long_article(tmp_path)))
        model.script(Reply(text=READ), Reply(text=ANSWER))
        tabs.send("What is this page about?")
        tabs.wait_for_status("ok", timeout=120)
    model.context_length = None
    read = model.requests[1]["body"]["messages"][-1]["content"]
    assert len(read) > 4 * 2048, "the page read alone should be longer than the small window"
    return tabs


@pytest.mark.parametrize("window_setting", [2048, None], ids=["window-from-the-setting", "window-learned-from-a-refusal"])
def test_a_conversation_with_a_page_read_longer_than_the_window_completes(fresh_browser, model, llama, tmp_path, window_setting):
    # A browser of its own: a window another test's turn learned for this server would be known.
    browser = fresh_browser()
    browser.open_side_panel()
    panel = a_conversation_with_a_long_page_read(browser, model, tmp_path)
    # The user switches to the small local model and goes on with the same conversation.
    use_llama(panel, llama, **({"context_window": window_setting} if window_setting else {}))
    panel.send("Thanks. In one sentence, who might enjoy it?")
    panel.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.turn")) == 2, 30)
    panel.wait_for_status("ok", "max_steps", "error", timeout=300)
    panel.screenshot(f"llama-compacted-{window_setting or 'learned'}")
    turn = panel.last_turn()
    assert turn.get_attribute("data-status") in ("ok", "max_steps"), turn.text
    events = last_turn_events(panel)
    compactions = [e["data"] for e in events if e["kind"] == "compaction"]
    assert compactions, [e["kind"] for e in events]
    assert compactions[0]["reason"] == ("before_request" if window_setting else "server_refused")
    assert compactions[0]["dropped"] and compactions[0]["after"] <= 2048
    calls = [e["data"] for e in events if e["kind"] == "model_call"]
    assert calls[-1]["status"] == 200 and "data: {" in calls[-1]["response"]
    sent = json.loads(calls[-1]["request"])["messages"]
    assert any(f"[{how} to fit the model's context window" in (m.get("content") or "")
               for m in sent for how in ("Dropped", "Shortened"))
    assert llama.count_tokens("".join(m.get("content") or "" for m in sent)) < 2048
    assert not [e for e in events if e["kind"] == "error" and e["data"].get("kind") != "max_steps"]
