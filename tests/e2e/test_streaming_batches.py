"""How a streamed reply crosses from Python to the side panel: the tokens that came in one
network read (a fast model, or a machine too busy to read each as it came) cross together,
as one message, at once, and none is lost, repeated or reordered on the way.

What is asserted is what the panel receives, counted by a listener of its own, not how long
it took."""

from __future__ import annotations

import threading
import time

from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply

from .chat import last_turn, send, wait, wait_for_status

# The panel's own record of each turn-events message it is sent: the token texts in it.
COUNT_MESSAGES = """
window.tokenMessages = [];
chrome.runtime.onMessage.addListener((message) => {
  if (message?.type !== "turn-events") return;
  const tokens = message.events.filter((event) => event.kind === "token").map((event) => event.data.text);
  if (tokens.length) window.tokenMessages.push(tokens);
});
"""


def test_the_tokens_of_one_network_read_reach_the_panel_in_one_message(panel, model):
    words = [f"w{i}" for i in range(40)]
    text = " ".join(words)
    text_may_go = threading.Event()
    model.script(Reply(text=text, together=True, pause=text_may_go, pause_at="text"))
    panel.driver.execute_script(COUNT_MESSAGES)
    send(panel, "Answer quickly")
    wait(panel, lambda _: model.requests, 30, "the model was not asked")
    # The turn's first events went out a while ago: what joins the tokens below is that they
    # came together, not the batching of events that come within a few milliseconds.
    time.sleep(0.2)
    text_may_go.set()
    wait_for_status(panel, "ok")
    messages = panel.driver.execute_script("return window.tokenMessages")
    assert ["".join(tokens) for tokens in messages] == [text], f"the tokens came in {len(messages)} messages"
    reply = last_turn(panel.driver).find_element(By.CSS_SELECTOR, ".message.assistant")
    assert reply.text == text


def test_tokens_read_one_by_one_arrive_complete_and_in_order(panel, model):
    words = [f"v{i}" for i in range(60)]
    model.script(Reply(text=" ".join(words), token_delay=0.003))
    panel.driver.execute_script(COUNT_MESSAGES)
    send(panel, "Answer")
    wait_for_status(panel, "ok")
    messages = panel.driver.execute_script("return window.tokenMessages")
    assert "".join(token for tokens in messages for token in tokens).split() == words
    reply = last_turn(panel.driver).find_element(By.CSS_SELECTOR, ".message.assistant")
    assert reply.text.split() == words
