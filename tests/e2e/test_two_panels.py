"""Two side panels on one conversation (two windows, say) sending in the same instant: one
turn runs, the other panel is told in words why its message did not go; no turn is left in
`error` with no reason."""

from __future__ import annotations

import threading

from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply

from .chat import last_turn, open_conversation_id, open_in_panel, send, stored_conversations, wait, wait_for_status

# The second panel clicks Send when the first says "now", and the first clicks too: both
# messages leave in the same instant, before either panel hears of the other's turn.
ARM = """
const channel = new BroadcastChannel("tabagent-test-send-now");
channel.onmessage = () => document.getElementById("send").click();
"""
FIRE = """
new BroadcastChannel("tabagent-test-send-now").postMessage("now");
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


def test_two_panels_sending_at_once_run_one_turn_and_tell_the_other_why(panel, model):
    browser, driver = panel, panel.driver
    held = threading.Event()  # the turn that runs waits here, so the two surely overlap
    model.script(Reply(text="Hello there."), Reply(text="Only one of you got through.", pause=held))
    send(browser, "Hello")
    wait_for_status(browser, "ok")
    conversation_id = open_conversation_id(driver)
    # The panel hears the turn end as the service worker saves it: wait for the saved end.
    wait(browser, lambda _: stored_turns(browser, conversation_id)[-1]["status"] == "ok", 10)
    first = driver.current_window_handle
    second = browser.open_side_panel()
    open_in_panel(driver, conversation_id)
    wait(browser, lambda d: last_turn(d) is not None, 10)
    type_into(driver, "From the second panel")
    driver.execute_script(ARM)
    driver.switch_to.window(first)
    type_into(driver, "From the first panel")
    driver.execute_script(FIRE)
    try:
        # One panel is told, in words, that the conversation is busy; the other's turn runs.
        told = wait(browser, lambda d: told_busy(d, (first, second)), 20, "neither panel was told its message did not go")
    finally:
        held.set()
    assert len(told) == 1, told
    ran = second if told == [first] else first
    driver.switch_to.window(ran)
    wait_for_status(browser, "ok")
    wait(browser, lambda _: stored_turns(browser, conversation_id)[-1]["status"] == "ok", 10)
    turns = stored_turns(browser, conversation_id)
    assert [turn["status"] for turn in turns] == ["ok", "ok"], turns
    assert turns[1]["text"] == ("From the first panel" if ran == first else "From the second panel")
    assert len(model.requests) == 2  # the refused message never reached the model
    driver.switch_to.window(told[0])
    assert driver.find_element(By.ID, "prompt").get_attribute("value") == (
        "From the first panel" if told == [first] else "From the second panel")  # kept, to send again


def stored_turns(browser, conversation_id) -> list[dict]:
    [record] = [r for r in stored_conversations(browser) if r["id"] == conversation_id]
    return record["turns"]
