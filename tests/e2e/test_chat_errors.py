"""Stopping a turn, and the errors a person can act on, in the real side panel."""

from __future__ import annotations

import socket

from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.quiet import stays_quiet
from tests.helpers.panel_backends import last_turn


def reply_text(driver):
    turn = last_turn(driver)
    replies = turn.find_elements(By.CSS_SELECTOR, ".step .reply") if turn else []
    return replies[0].text if replies else ""


def error_text(driver):
    if last_turn(driver) is None:
        return ""
    return " ".join(e.text for e in last_turn(driver).find_elements(By.CSS_SELECTOR, ".error"))


def failed_turn(panel, model, reply: Reply, message: str) -> str:
    """The errors a turn shows, lower-cased, when the model answers `message` with `reply`."""
    model.script(reply)
    panel.send(message)
    panel.wait_for_status("error")
    return error_text(panel.driver).lower()


def test_stop_mid_stream_cancels_and_keeps_the_text(panel, model):
    model.script(Reply(text=" ".join(f"word{i}" for i in range(200)), token_delay=0.1))
    panel.send("Talk for a long time")
    panel.wait(lambda d: "word3" in reply_text(d), 20)
    panel.driver.find_element(By.ID, "stop").click()
    # Well before the 20 s the reply would take (how fast is the panel benchmark's business).
    panel.wait_for_status("cancelled", timeout=10)
    kept = reply_text(panel.driver)
    assert "word3" in kept and "word199" not in kept
    panel.wait(lambda d: model.hangups >= 1, 5, "the model request was not aborted")
    assert "Stopped" in panel.last_turn().text
    assert panel.driver.find_element(By.ID, "send").is_displayed()
    record = [r for r in panel.stored_conversations() if r["turns"][-1]["text"] == "Talk for a long time"][0]
    assert record["turns"][-1]["status"] == "cancelled"
    panel.screenshot("chat-stopped")


def test_wrong_key_is_shown_in_words_and_the_turn_is_kept(panel, model):
    model.script(Reply(status=401, error="Incorrect API key provided"))
    panel.send("Hello?")
    panel.wait_for_status("error")
    text = error_text(panel.driver)
    assert "401" in text and "API key" in text, text
    assert panel.last_turn().find_element(By.CSS_SELECTOR, ".message.user .user-text").text == "Hello?"
    assert len(model.requests) == 1  # never retried
    panel.screenshot("chat-error-401")


def test_unreachable_endpoint_is_shown_in_words(panel, model):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    panel.configure(f"http://127.0.0.1:{closed_port}/v1")
    panel.driver.execute_script("1")
    panel.send("Anyone there?")
    panel.wait_for_status("error", timeout=60)
    text = error_text(panel.driver).lower()
    assert f"127.0.0.1:{closed_port}" in text and ("reach" in text or "connect" in text), text


def test_model_not_found_is_shown_in_words(panel, model):
    text = failed_turn(panel, model, Reply(status=404, error="The model `nope` does not exist"), "Hi")
    assert "404" in text and "model" in text, text


def test_rate_limited_then_success_shows_a_countdown(panel, model):
    model.script(Reply(status=429, retry_after=2, error="Rate limit reached"), Reply(text="Worth the wait"))
    panel.send("Quick question")
    countdown = panel.wait(lambda d: last_turn(d) and last_turn(d).find_elements(By.CSS_SELECTOR, ".retrying"), 10)[0]
    assert "Attempt 2 of 4 in" in countdown.text
    panel.screenshot("chat-retrying")
    panel.wait_for_status("ok", timeout=15)
    assert panel.last_turn().find_element(By.CSS_SELECTOR, ".message.assistant").text == "Worth the wait"
    assert not panel.last_turn().find_elements(By.CSS_SELECTOR, ".retrying")
    assert len(model.requests) == 2


def test_a_reply_cut_at_the_output_limit_is_told_beside_the_answer_not_as_the_turns_failure(panel, model):
    """The turn goes on after a truncation (wire.py NOT_FATAL_ERRORS): the panel once showed it
    as the turn's error, with Retry, while the command line did not."""
    model.script(Reply(text="The answer, cut", finish_reason="length"))
    panel.send("Say a lot")
    panel.wait_for_status("ok")
    turn = panel.last_turn()
    assert turn.find_element(By.CSS_SELECTOR, ".message.assistant").text == "The answer, cut"
    assert "cut off" in turn.find_element(By.CSS_SELECTOR, ".error.kind-truncated").text
    assert not turn.find_elements(By.CSS_SELECTOR, ".turn-error")


def test_the_retries_setting_is_what_the_turn_uses(panel, model):
    """max_retries reaches the model client: 0 means a busy endpoint fails the turn at once."""
    panel.ask_background("save-settings", settings={"provider": "custom", "base_url": model.base_url,
                                                     "model": "scripted-model", "agent": "tool_calling",
                                                     "max_retries": 0}, apiKey="sk-test")
    model.script(Reply(status=429, retry_after=2, error="Rate limit reached"), Reply(text="Never asked for"))
    panel.send("Quick question")
    panel.wait_for_status("error")
    assert "rate limit" in error_text(panel.driver).lower()
    assert len(model.requests) == 1 and not panel.last_turn().find_elements(By.CSS_SELECTOR, ".retrying")


def test_an_endpoint_with_no_address_says_what_to_do_instead_of_sending(panel, model):
    """(With nothing chosen at all the on-device model answers: tests/e2e/test_on_device.py.)"""
    panel.driver.execute_async_script(
        "const done = arguments[0]; chrome.runtime.sendMessage({target: 'background', type: 'save-settings',"
        " settings: {provider: 'custom', base_url: '', model: ''}, apiKey: ''}).then(done);"
    )
    panel.wait(lambda d: d.find_element(By.ID, "notice").is_displayed(), 5)
    assert "settings" in panel.driver.find_element(By.ID, "notice-text").text
    assert panel.driver.find_element(By.ID, "notice-settings").is_displayed()
    turns_before = len(panel.driver.find_elements(By.CSS_SELECTOR, "article.turn"))
    panel.send("Hello")
    stays_quiet(lambda: len(panel.driver.find_elements(By.CSS_SELECTOR, "article.turn")) - turns_before
                or model.requests, 1, why="a turn started with no model configured")
    panel.screenshot("chat-not-configured")


def test_missing_key_for_a_provider_that_needs_one(panel, model):
    panel.configure(model.base_url, provider="openai", api_key="")
    panel.wait(lambda d: "API key" in d.find_element(By.ID, "notice-text").text, 5)


def test_context_too_long_is_shown_in_words(panel, model):
    text = failed_turn(panel, model, Reply(status=400, error="This model's maximum context length is 8192 tokens. However, "
                                                           "your messages resulted in 9000 tokens."), "A very long question")
    assert "too long" in text or "context" in text, text
    assert panel.last_turn().find_element(By.CSS_SELECTOR, ".error.kind-context_too_long")
