"""Two side panels on one conversation (two windows, say) sending in the same instant: one
turn runs, the other panel is told in words why its message did not go; no turn is left in
`error` with no reason."""

from __future__ import annotations

import threading

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import last_turn


# The second panel clicks Send when the first says "now", and the first clicks too: both
# messages leave in the same instant, before either panel hears of the other's turn.
# The channel is named after the conversation: panels armed by an earlier test stay deaf.
ARM = """
const channel = new BroadcastChannel(arguments[0]);
channel.onmessage = () => document.getElementById("send").click();
"""
FIRE = """
new BroadcastChannel(arguments[0]).postMessage("now");
document.getElementById("send").click();
"""

STILL_ANSWERING = "TabAgent is still answering: stop it first."


def type_into(driver, text):
    box = driver.find_element(By.ID, "prompt")
    box.clear()
    box.send_keys(text)


def told_busy(driver, handles) -> list[str]:
    """The panels (by window) whose notice says the conversation is busy."""
    told = []
    for handle in handles:
        driver.switch_to.window(handle)
        notice = driver.find_element(By.ID, "notice")
        if notice.is_displayed() and STILL_ANSWERING in notice.text:
            told.append(handle)
    return told


def two_armed_panels(panel, model, question: str, second_text: str):
    """Asks `question` in the panel, then opens a second panel on that conversation with
    `second_text` in its box, sending when the first says "now". The model answers the
    question, then holds its next reply until `held` is set. Returns the conversation's id,
    the two panels' windows (the first current) and `held`."""
    driver, held = panel.driver, threading.Event()
    model.script(Reply(text="First answer."), Reply(text="Whichever got through.", pause=held))
    panel.send(question)
    panel.wait_for_status("ok")
    conversation_id = panel.conversation_id()
    # The panel hears the turn end as the service worker saves it: wait for the saved end.
    wait_for_saved_end(panel, conversation_id)
    first = driver.current_window_handle
    second = panel.browser.open_side_panel()
    panel.open_conversation(conversation_id)
    panel.wait(lambda d: last_turn(d) is not None, 10)
    type_into(driver, second_text)
    driver.execute_script(ARM, conversation_id)
    driver.switch_to.window(first)
    return conversation_id, first, second, held


def the_panel_told_busy(panel, held, first: str, second: str) -> str:
    """Waits for the one panel told, in words, that the conversation is busy, then lets the
    other's turn (held at the model, so that the two surely overlapped) answer."""
    try:
        told = panel.wait(lambda d: told_busy(d, (first, second)), 20, "neither panel was told its request did not go")
    finally:
        held.set()
    assert len(told) == 1, told
    return told[0]


def test_two_panels_sending_at_once_run_one_turn_and_tell_the_other_why(panel, model):
    driver = panel.driver
    conversation_id, first, second, held = two_armed_panels(panel, model, "Hello", "From the second panel")
    type_into(driver, "From the first panel")
    driver.execute_script(FIRE, conversation_id)
    told = the_panel_told_busy(panel, held, first, second)
    ran = second if told == first else first
    driver.switch_to.window(ran)
    panel.wait_for_status("ok")
    turns = wait_for_saved_end(panel, conversation_id)
    assert [turn["status"] for turn in turns] == ["ok", "ok"], turns
    assert turns[1]["text"] == ("From the first panel" if ran == first else "From the second panel")
    assert len(model.requests) == 2  # the refused message never reached the model
    driver.switch_to.window(told)
    assert driver.find_element(By.ID, "prompt").get_attribute("value") == (
        "From the first panel" if told == first else "From the second panel")  # kept, to send again


# The first panel regenerates its answer as it tells the second, which sends, "now".
FIRE_REGENERATE = """
new BroadcastChannel(arguments[0]).postMessage("now");
document.querySelector("article.turn .action-regenerate").click();
"""


def test_a_regenerate_and_a_send_at_once_lose_no_turn(panel, model):
    driver = panel.driver
    conversation_id, first, second, held = two_armed_panels(panel, model, "First question", "A new question")
    driver.execute_script(FIRE_REGENERATE, conversation_id)
    told = the_panel_told_busy(panel, held, first, second)
    texts = [turn["text"] for turn in wait_for_saved_end(panel, conversation_id)]
    if told == first:  # the send went: the regenerate was refused and took nothing away
        assert texts == ["First question", "A new question"], texts
    else:  # the regenerate went: it replaced the first turn, the send was refused
        assert texts == ["First question"], texts


def wait_for_saved_end(panel, conversation_id, timeout: float = 30) -> list[dict]:
    """The conversation's turns once the last one is saved as answered (they say why not)."""
    try:
        panel.wait(lambda _: stored_turns(panel, conversation_id)[-1]["status"] == "ok", timeout)
    except TimeoutException:
        raise AssertionError(f"never saved as answered: {stored_turns(panel, conversation_id)}") from None
    return stored_turns(panel, conversation_id)


def stored_turns(panel, conversation_id) -> list[dict]:
    [record] = [r for r in panel.stored_conversations() if r["id"] == conversation_id]
    return record["turns"]
