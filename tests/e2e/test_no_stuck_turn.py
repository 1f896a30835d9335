"""No turn is ever stuck (issue 10, item 7): an answer too large for one message still ends
its turn, a turn marked running that nothing runs is marked interrupted when the panel or
the service worker starts, and Stop always ends the turn."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import chromium_panel, last_turn
from tests.helpers.panel_driver import PANEL_MODULE


HUGE = 8_000_000


def mark_running(panel, conversation_id):
    """Leaves the conversation's last turn marked running, as when its end was lost: its
    status, its last events with the `done` that says how it ended, and the conversation on
    the list of those with a turn running (which the turn's start wrote and its end cleared)."""
    panel.driver.execute_async_script("""
      const [id, done] = arguments;
      const key = "conversation:" + id;
      chrome.storage.local.get([key, "unfinished-turns"]).then(async (all) => {
        const turn = all[key].turns.at(-1);
        turn.status = "running";
        turn.events = turn.events.filter((event) => event.kind !== "done");
        if (all["unfinished-turns"]) all["unfinished-turns"][id] = true;
        await chrome.storage.local.set(all);
        done();
      });""", conversation_id)


def open_conversation(panel, conversation_id):
    """Opens it in a panel that did not see the turn's live events (they went elsewhere)."""
    panel.run(f"{PANEL_MODULE}.then(({{ conversation }}) => {{ conversation.recent.length = 0; }})")
    panel.open_conversation(conversation_id)
    panel.wait(lambda d: last_turn(d) is not None, 10)


TURN_SUMMARY = """
const [id, done] = arguments;
chrome.storage.local.get("conversation:" + id).then((all) => {
  const turns = all["conversation:" + id]?.turns ?? [];
  done(turns.map((turn) => ({ status: turn.status, answers: turn.events.filter((e) => e.kind === "final_answer")
    .map((e) => ({ length: e.data.answer.length, end: e.data.answer.slice(-200) })) })));
});"""


def test_an_eight_million_character_answer_still_ends_its_turn(fresh_browser, model):
    """Started from the settings page, so that no panel has to draw 8 million characters: the
    turn's end reaches storage, with the answer cut and a note saying how much. In a browser
    of its own: one holding such a conversation is slow for the tests after it."""
    browser = fresh_browser()
    model.reset()
    # Quotes, as in an answer full of code: each is escaped again at every level of JSON the
    # turn's end carries (events, the trace's raw response, the memory), past Chrome's 64 MiB.
    piece = 'say "hi" ' * 25_000
    model.script(Reply(text=piece * (HUGE // len(piece)), pieces=[piece] * (HUGE // len(piece))), Reply(text="Still here."))
    browser.open_tab(browser.url("extension/options/options.html"))
    panel = chromium_panel(browser)  # the settings page speaks to the background as the panel does
    panel.configure(model.base_url)
    started = panel.ask_background("start-turn", text="Write me a very long answer")
    summary = lambda: panel.driver.execute_async_script(TURN_SUMMARY, started["conversationId"])
    panel.wait(lambda d: summary()[0]["status"] != "running", 240, "the turn never ended")
    [turn] = summary()
    assert turn["status"] == "ok", turn
    [answer] = turn["answers"]
    assert answer["length"] < HUGE
    assert "TabAgent cut this text to fit in one message: it had 7,875,000 characters" in answer["end"]
    # The conversation goes on: the next message is taken and answered.
    panel.ask_background("start-turn", text="And now a short one", conversationId=started["conversationId"])
    panel.wait(lambda d: len(summary()) == 2 and summary()[1]["status"] == "ok", 60)


def a_turn_whose_end_was_lost(panel, model, text: str) -> dict:
    """A turn answered, then left marked running as when its end was lost; its conversation."""
    model.script(Reply(text="Done."), Reply(text="Answered after the stop."))
    panel.send(text)
    panel.wait_for_status("ok")
    record = panel.saved_conversation(text)
    mark_running(panel, record["id"])
    return record


def test_a_turn_whose_end_was_lost_is_marked_interrupted_when_the_panel_starts(panel, model):
    a_turn_whose_end_was_lost(panel, model, "A turn whose end will be lost")
    panel.browser.open_side_panel()  # a panel starting
    panel.wait(lambda d: panel.stored_turn("A turn whose end will be lost")[1]["status"] == "interrupted", 15)


def test_a_turn_whose_end_was_lost_is_marked_interrupted_when_the_service_worker_starts(panel, model):
    a_turn_whose_end_was_lost(panel, model, "Another turn whose end will be lost")
    panel.browser.stop_service_worker()
    panel.ask_background("ping")  # wakes a new service worker (Python is still running)
    panel.wait(lambda d: panel.stored_turn("Another turn whose end will be lost")[1]["status"] == "interrupted", 15)


def test_stop_ends_a_turn_that_nothing_runs(panel, model):
    record = a_turn_whose_end_was_lost(panel, model, "Stop me later")
    open_conversation(panel, record["id"])
    panel.wait_for_status("running")
    panel.driver.find_element(By.ID, "stop").click()
    panel.wait_for_status("cancelled", timeout=15)
    assert panel.stored_turn("Stop me later")[1]["status"] == "cancelled"
    panel.send("Are you still there?")
    panel.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.turn")) == 2, 30)
    panel.wait_for_status("ok")


FIT = """(async () => {
  const { fitted } = await import(chrome.runtime.getURL("extension/offscreen/fit-message.js"));
  const huge = "x".repeat(70 * 2 ** 20);
  const message = { type: "turn-finished", conversationId: "c", turnId: "t", status: "ok",
    events: [{ kind: "final_answer", data: { answer: huge } }], memory: JSON.stringify({ steps: [{ text: huge }] }) };
  const attempt = async (m) => {
    try {
      return await chrome.runtime.sendMessage({ ...m, type: "fit-test" }).then(() => "sent", (e) => e.message);
    } catch (error) {
      return error.message; // Chrome throws at once for a message it will not take
    }
  };
  const cut = fitted(message);
  return { whole: await attempt(message), cut: await attempt(cut), size: JSON.stringify(cut).length,
    note: cut.events[0].data.answer.slice(-140), memory: JSON.parse(cut.memory).steps[0].text.length };
})()"""


def test_a_turn_end_larger_than_chrome_takes_is_cut_to_fit_with_a_note(panel):
    """In the offscreen document: Chrome refuses the whole 70 MiB turn end; the cut one goes."""
    panel.ask_background("ping")  # the offscreen document is there
    browser = panel.browser
    offscreen = next(t for t in browser.extension_targets() if t["url"].endswith("offscreen.html"))
    seen = browser.evaluate_in(offscreen, FIT, timeout=120)
    assert "exceeded" in seen["whole"].lower() or "length" in seen["whole"].lower(), seen["whole"]
    assert "exceeded" not in seen["cut"].lower() and seen["size"] <= 16 * 2 ** 20
    assert "it had 73,400,320 characters" in seen["note"] and 1000 <= seen["memory"] < 73_400_320


# The offscreen document's own TurnRunner module, given a Python that failed to start (as when
# Pyodide cannot load), asked to run a turn the service worker has saved as running.
RUN_WITHOUT_PYTHON = """(async () => {
  const { TurnRunner } = await import(chrome.runtime.getURL("extension/offscreen/python/turn-runner.js"));
  const runner = new TurnRunner(Promise.reject(new Error("Traceback (most recent call last):\\nRuntimeError: Python could not start")),
                                { turnStarted() {}, turnEnded() {} });
  await runner.start({ conversationId: %s, turnId: %s, task: "Are you there?", memory: %s, settings: {} });
})()"""


def test_a_turn_python_could_not_run_ends_with_the_reason(panel, model):
    import json

    record = a_turn_whose_end_was_lost(panel, model, "Before Python broke")  # the turn handed to Python
    turn_id = record["turns"][-1]["id"]
    offscreen = next(t for t in panel.browser.extension_targets() if t["url"].endswith("offscreen.html"))
    panel.browser.evaluate_in(offscreen, RUN_WITHOUT_PYTHON % (json.dumps(record["id"]), json.dumps(turn_id), json.dumps(record["memory"])))
    panel.wait(lambda _: panel.stored_turn("Before Python broke")[1]["status"] == "error", 15)
    _, turn = panel.stored_turn("Before Python broke")
    errors = [e["data"]["message"] for e in turn["events"] if e["kind"] == "error"]
    assert errors == ["RuntimeError: Python could not start"], turn["events"]
    assert panel.stored_turn("Before Python broke")[0]["memory"] == record["memory"]  # kept as it was
    open_conversation(panel, record["id"])
    panel.wait(lambda d: "Python could not start" in last_turn(d).text, 10)
