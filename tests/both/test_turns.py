"""A turn end to end in each browser's panel, against a scripted model server: the conversation
is saved with its events; a CodeAgent's code that never ends is stopped by the timeout, said as an
error in the step, and the next step runs. The rest of a turn in the panel: tests/e2e/test_chat.py
and test_code_agent.py (Chromium), tests/firefox/test_chat.py and test_code_agent.py (Firefox)."""

from __future__ import annotations

from tests.helpers.model_server import Reply


def test_conversation_is_saved_with_its_events(panel, model):
    model.script(Reply(text="Saved answer"))
    panel.send("Remember this")
    assert panel.wait_for_status("ok", "error") == "ok"
    record = panel.saved_conversation("Remember this")
    kinds = [event["kind"] for event in record["turns"][0]["events"]]
    assert kinds[0] == "step_start" and kinds[-2:] == ["final_answer", "done"]
    assert record["memory"] and "Remember this" in record["memory"]
    assert record["title"] == "Remember this"


def test_code_that_never_ends_is_stopped_and_the_next_step_runs(panel, model):
    panel.configure(model.base_url, agent="code", max_steps=4, code_timeout=2)
    model.script(Reply(text="```python\nwhile True:\n    pass\n```"), Reply(text="```python\nfinal_answer('recovered')\n```"))
    panel.send("Spin forever")
    assert panel.wait_for_status("ok", "error", timeout=120) == "ok"
    (output, is_error), *_ = panel.code_outputs()
    assert output.startswith("Execution timed out after 2 s and was stopped.") and is_error, output
    assert panel.answer() == "recovered"
