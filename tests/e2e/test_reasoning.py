"""A reasoning model in the real side panel: its thoughts stream into a Thinking block that
folds when the answer starts, never reach the answer, and a failed attempt's text is taken
back when the request is retried."""

from __future__ import annotations

import threading

from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import last_turn


THOUGHTS = " ".join(f"thought{i}" for i in range(30))


def thinking(driver):
    """(is the block open, its text) of the last turn's Thinking block, or None."""
    turn = last_turn(driver)
    blocks = turn.find_elements(By.CSS_SELECTOR, "details.thinking") if turn else []
    if not blocks:
        return None
    block = blocks[-1]
    text = block.find_element(By.CSS_SELECTOR, ".thinking-text").get_attribute("textContent")
    return block.get_property("open"), text


def reply_text(driver):
    turn = last_turn(driver)
    replies = turn.find_elements(By.CSS_SELECTOR, ".step .reply") if turn else []
    return " ".join(r.get_attribute("textContent") for r in replies)


def test_thinking_streams_open_then_folds_when_the_answer_starts(panel, model):
    answer_may_start = threading.Event()
    model.script(Reply(reasoning=THOUGHTS, reasoning_field="reasoning_content", text="The answer is 42.",
                       pause=answer_may_start))
    try:
        panel.send("What is six times seven?")
        panel.wait(lambda d: (thinking(d) or (False, ""))[1].strip().endswith("thought29"), 30,
             "the thoughts never streamed into the panel")
        # The answer is held back by the server: the block stays open, the reply empty.
        panel.wait(lambda d: thinking(d)[0] and last_turn(d).find_elements(By.CSS_SELECTOR, ".step .reply"), 10,
             "the Thinking block should be open while the model thinks")
        assert "thought" not in reply_text(panel.driver)
        panel.screenshot("reasoning-thinking")
        # Saved as it streams, the pieces joined (each save rewrites the record: it stays small).
        saved = lambda: [e for r in panel.stored_conversations() for t in r["turns"] if t["text"] == "What is six times seven?"
                         for e in t["events"] if e["kind"] == "reasoning"]
        panel.wait(lambda d: "".join(e["data"]["text"] for e in saved()).strip() == THOUGHTS, 10, "never saved")
        assert len(saved()) == 1
    finally:
        answer_may_start.set()
    panel.wait_for_status("ok")
    is_open, text = thinking(panel.driver)
    assert not is_open and text.strip() == THOUGHTS
    turn = panel.last_turn()
    # The steps fold when the turn ends: the label is read, not what is on screen.
    assert turn.find_element(By.CSS_SELECTOR, "details.thinking > summary").get_attribute("textContent") == "Thought"
    answer = turn.find_element(By.CSS_SELECTOR, ".message.assistant").text
    assert answer == "The answer is 42.", answer
    panel.screenshot("reasoning-folded")
    # Kept in the saved turn (pieces joined) and in the Markdown export, apart from the answer.
    record = [r for r in panel.stored_conversations() if r["turns"][-1]["text"] == "What is six times seven?"][0]
    events = record["turns"][-1]["events"]
    thoughts = [e["data"]["text"] for e in events if e["kind"] == "reasoning"]
    assert "".join(thoughts).strip() == THOUGHTS and len(thoughts) == 1
    final = [e["data"]["answer"] for e in events if e["kind"] == "final_answer"]
    assert final == ["The answer is 42."]
    markdown = panel.driver.execute_async_script(
        "const [record, done] = arguments;"
        "import(chrome.runtime.getURL('extension/shared/storage/export.js')).then((m) => done(m.toMarkdown([record])));", record)
    assert "- thought: thought0 thought1" in markdown and "**TabAgent:** The answer is 42." in markdown
    # The next request carries the answer, not the thoughts.
    model.script(Reply(text="Yes."))
    panel.send("Sure?")
    panel.wait(lambda d: len(model.requests) == 2 and "Yes." in last_turn(d).text, 30, "the second turn never answered")
    sent = model.requests[-1]["raw"]
    assert "The answer is 42." in sent and "thought1" not in sent, [(m["role"], m.get("content")) for m in model.requests[-1]["body"]["messages"]][1:]


def test_a_retry_takes_back_the_failed_attempts_thoughts_and_text(panel, model):
    fail_now, answer_now = threading.Event(), threading.Event()
    model.script(
        Reply(reasoning="first try thinking", text="Stale partial words", pause=fail_now, pause_at="end",
              stream_error={"message": "upstream overloaded", "code": 502}),
        Reply(reasoning="second thoughts", text="Fresh answer.", pause=answer_now),
    )
    try:
        panel.send("Try hard")
        panel.wait(lambda d: "Stale partial words" in reply_text(d), 30, "the first attempt never streamed")
        assert "first try" in thinking(panel.driver)[1]
        fail_now.set()
        panel.wait(lambda d: "second thoughts" in (thinking(d) or (False, ""))[1], 30, "the retry never streamed")
        is_open, text = thinking(panel.driver)
        assert is_open and "first try" not in text, "the retry thinks afresh, in the open"
        assert "Stale" not in reply_text(panel.driver)
        panel.screenshot("reasoning-retry")
    finally:
        fail_now.set()
        answer_now.set()
    panel.wait_for_status("ok")
    turn = panel.last_turn()
    assert "Stale" not in turn.text and "first try" not in thinking(panel.driver)[1]
    assert turn.find_element(By.CSS_SELECTOR, ".message.assistant").text == "Fresh answer."
    assert len(model.requests) == 2


def test_hostile_thoughts_are_shown_as_text_and_load_nothing(panel, model):
    """A model that read a hostile page may think in HTML: the Thinking block shows it as
    text; nothing runs, nothing is fetched."""
    leak = model.base_url.replace("/v1", "/leak")
    hostile = (f'<img src="{leak}" onerror="window.pwned=1"> <script>window.pwned=2</script> '
               f'<style>@import url({leak}/css);</style>')
    model.script(Reply(reasoning=hostile, reasoning_field="think", text="Done."))
    panel.send("Go on")  # no page named: an answer with no read would be held once (reply_checks.py)
    panel.wait_for_status("ok")
    block = panel.last_turn().find_element(By.CSS_SELECTOR, "details.thinking")
    assert not block.find_elements(By.CSS_SELECTOR, "img, script, style")
    assert "<img src=" in block.find_element(By.CSS_SELECTOR, ".thinking-text").get_attribute("textContent")
    assert panel.last_turn().find_element(By.CSS_SELECTOR, ".message.assistant").text == "Done."
    assert panel.driver.execute_script("return window.pwned === undefined")
    assert not [r for r in model.requests if "/leak" in r["path"]]
