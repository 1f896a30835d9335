"""A turn end to end in each browser's panel, against a scripted model server: the conversation
is saved with its events. The rest of a turn in the panel: tests/e2e/test_chat.py (Chromium),
tests/firefox/test_chat.py (Firefox)."""

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
