"""Conversations outlive the service worker, the panel and the browser."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import ChromiumPanel, last_turn


def slow_reply(words=40, delay=0.1):
    return Reply(text=" ".join(f"w{i}" for i in range(words)), token_delay=delay)


def test_turn_finishes_and_is_saved_whole_when_the_service_worker_is_stopped(panel, model):
    model.script(slow_reply())
    panel.send("Survive the worker")
    panel.wait(lambda d: "w3" in (last_turn(d).text if last_turn(d) else ""), 20)
    panel.browser.stop_service_worker()
    panel.wait_for_status("ok", timeout=30)
    record, turn = panel.stored_turn("Survive the worker")
    panel.wait(lambda d: panel.stored_turn("Survive the worker")[1]["status"] == "ok", 10)
    record, turn = panel.stored_turn("Survive the worker")
    streamed = "".join(e["data"]["text"] for e in turn["events"] if e["kind"] == "token")
    assert streamed.split() == [f"w{i}" for i in range(40)]
    assert [e["kind"] for e in turn["events"]][-2:] == ["final_answer", "done"]


def test_panel_closed_and_reopened_mid_turn_shows_it_going_on(panel, model):
    model.script(slow_reply(words=150))  # 15 s: still going after a slow reopen
    panel.send("Keep going while I look away")
    panel.wait(lambda d: "w2" in (last_turn(d).text if last_turn(d) else ""), 20)
    panel.driver.close()
    panel.driver.switch_to.window(panel.driver.window_handles[0])
    panel.browser.open_side_panel()
    panel.wait(lambda d: last_turn(d) is not None and "Keep going" in last_turn(d).text, 10)
    assert panel.last_turn().get_attribute("data-status") == "running"
    assert panel.driver.find_element(By.ID, "stop").is_displayed()
    panel.wait_for_status("ok", timeout=30)
    reply = panel.last_turn().find_element(By.CSS_SELECTOR, ".message.assistant").text
    assert reply.split() == [f"w{i}" for i in range(150)]


def test_next_turn_continues_the_conversation(panel, model):
    model.script(Reply(text="Blue."), Reply(text="You asked about the sky."))
    panel.send("What colour is the sky?")
    panel.wait_for_status("ok")
    panel.send("What did I ask?")
    panel.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.turn")) == 2, 10)
    panel.wait_for_status("ok")
    second = model.requests[1]["body"]["messages"]
    contents = [m.get("content") for m in second]
    assert "What colour is the sky?" in contents and "Blue." in contents and contents[-1] == "What did I ask?"
    records = [r for r in panel.stored_conversations() if r["turns"][0]["text"] == "What colour is the sky?"]
    assert len(records) == 1 and len(records[0]["turns"]) == 2


def test_conversation_survives_a_browser_restart(fresh_browser, model):
    model.reset()
    first = ChromiumPanel(fresh_browser()).new_conversation()
    first.configure(model.base_url)
    model.script(Reply(text="Still here after a restart."))
    first.send("Remember me")
    first.wait_for_status("ok")
    first.browser.quit()

    second = ChromiumPanel(fresh_browser())
    second.driver.find_element(By.ID, "show-history").click()
    entry = second.wait(lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "#history-list .open") if b.text == "Remember me"], 10)[0]
    entry.click()
    second.wait(lambda d: last_turn(d) is not None, 10)
    assert second.last_turn().find_element(By.CSS_SELECTOR, ".message.assistant").text == "Still here after a restart."


def test_a_turn_cut_off_by_a_browser_restart_is_marked_interrupted(fresh_browser, model):
    model.reset()
    first = ChromiumPanel(fresh_browser()).new_conversation()
    first.configure(model.base_url)
    model.script(slow_reply(words=100, delay=0.2))
    first.send("Cut me off")
    first.wait(lambda d: "w2" in (last_turn(d).text if last_turn(d) else ""), 20)
    first.browser.quit()

    second = ChromiumPanel(fresh_browser())
    record, turn = None, None

    def interrupted(_):
        nonlocal record, turn
        record, turn = second.stored_turn("Cut me off")
        return turn and turn["status"] == "interrupted"

    second.wait(interrupted, 10)
    assert any(e["kind"] == "token" for e in turn["events"]), "the streamed part was lost"
