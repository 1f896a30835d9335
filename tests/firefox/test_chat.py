"""A chat turn in Firefox, end to end: the event page's Python streams from the scripted model
(the conversation saved with its events, in both browsers: tests/both/test_turns.py)."""

from __future__ import annotations

import threading

from tests.helpers.model_server import Reply

from tests.helpers.panel_driver import LAST_TURN

REPLY_TEXT = f"{LAST_TURN}?.querySelector('.step .reply')?.textContent ?? ''"


def test_an_answer_streams_into_the_chat_and_ends_as_markdown(panel, model):
    # The stream stops after its first pieces until the test has seen them in the page: a turn
    # whose answer showed only at its end could not pass, and no timing is involved.
    halfway = threading.Event()
    model.script(Reply(text="Here is **bold** text and a list:\n\n- one\n- two",
                       pieces=["Here is ", "**bold** text", " and a list:\n\n- one\n- two"], pause=halfway, pause_at="end"))
    panel.send("Say something")
    try:
        panel.wait_for(f"({REPLY_TEXT}).includes('Here is')", 60, "no piece of the answer appeared while it streamed")
        assert panel.run(f"{LAST_TURN}.dataset.status") == "running"
    finally:
        halfway.set()
    assert panel.wait_for_status("ok", "error") == "ok"
    answer = panel.run(f"""(() => {{
      const answer = {LAST_TURN}.querySelector('.message.assistant');
      return {{ bold: answer.querySelector('strong')?.textContent, items: [...answer.querySelectorAll('li')].map((li) => li.textContent) }};
    }})()""")
    assert answer == {"bold": "bold", "items": ["one", "two"]}
    request = model.requests[0]
    assert request["body"]["stream"] is True
    assert request["headers"].get("authorization") == "Bearer sk-test"
    assert "Say something" in str(request["body"]["messages"][-1]["content"])
