"""A turn end to end in the real side panel, against a scripted model server."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.model_server import ModelServer, Reply

from .chat import configure, fresh_panel, last_turn, send, stored_conversations, wait, wait_for_status


@pytest.fixture(scope="module")
def model():
    with ModelServer() as server:
        yield server


@pytest.fixture
def panel(browser, model):
    model.reset()
    fresh_panel(browser)
    configure(browser, model.base_url)
    return browser


def test_streamed_answer_appears_token_by_token_and_ends_as_markdown(panel, model):
    words = "Here is **bold** text and a list:\n\n- one\n- two"
    model.script(Reply(text=words, token_delay=0.15))
    send(panel, "Say something")
    seen = []

    def growing(driver):
        turn = last_turn(driver)
        if turn is None:
            return False
        reply = turn.find_elements(By.CSS_SELECTOR, ".step .reply")
        text = reply[0].text if reply else ""
        if text and (not seen or seen[-1] != text):
            seen.append(text)
        return turn.get_attribute("data-status") == "ok"

    wait(panel, growing, 30)
    assert len(seen) >= 3, f"the reply did not appear piece by piece: {seen}"
    assert all(later.startswith(earlier.rstrip()) or len(later) > len(earlier) for earlier, later in zip(seen, seen[1:]))
    answer = last_turn(panel.driver).find_element(By.CSS_SELECTOR, ".message.assistant")
    assert answer.find_element(By.TAG_NAME, "strong").text == "bold"
    assert [li.text for li in answer.find_elements(By.TAG_NAME, "li")] == ["one", "two"]
    assert model.requests[0]["body"]["stream"] is True
    assert model.requests[0]["headers"].get("authorization") == "Bearer sk-test"
    panel.screenshot("chat-streamed-answer")


def test_conversation_is_saved_with_its_events(panel, model):
    model.script(Reply(text="Saved answer"))
    send(panel, "Remember this")
    wait_for_status(panel, "ok")
    records = [r for r in stored_conversations(panel) if r["turns"][0]["text"] == "Remember this"]
    assert len(records) == 1
    turn = records[0]["turns"][0]
    assert turn["status"] == "ok"
    kinds = [e["kind"] for e in turn["events"]]
    assert kinds[0] == "step_start" and kinds[-2:] == ["final_answer", "done"]
    assert records[0]["memory"] and "Remember this" in records[0]["memory"]
    assert records[0]["title"] == "Remember this"
