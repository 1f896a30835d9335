"""A chat turn in Firefox, end to end: the event page's Python streams from the scripted model."""

from __future__ import annotations

import threading

from tests.helpers.model_server import Reply

from tests.helpers.panel_backends import firefox_panel

from .sidebar import LAST_TURN, open_chat

REPLY_TEXT = f"{LAST_TURN}?.querySelector('.step .reply')?.textContent ?? ''"


def test_an_answer_streams_into_the_chat_and_ends_as_markdown(firefox, model):
    model.reset()
    context = open_chat(firefox)
    panel = firefox_panel(firefox, context)
    panel.configure(model.base_url)
    # The stream stops after its first pieces until the test has seen them in the page: a turn
    # whose answer showed only at its end could not pass, and no timing is involved.
    halfway = threading.Event()
    model.script(Reply(text="Here is **bold** text and a list:\n\n- one\n- two",
                       pieces=["Here is ", "**bold** text", " and a list:\n\n- one\n- two"], pause=halfway, pause_at="end"))
    panel.send("Say something")
    try:
        firefox.wait_for(context, f"({REPLY_TEXT}).includes('Here is')", 60, "no piece of the answer appeared while it streamed")
        assert firefox.evaluate(context, f"{LAST_TURN}.dataset.status") == "running"
    finally:
        halfway.set()
    assert panel.wait_for_status("ok", "error") == "ok"
    answer = firefox.evaluate(context, f"""(() => {{
      const answer = {LAST_TURN}.querySelector('.message.assistant');
      return {{ bold: answer.querySelector('strong')?.textContent, items: [...answer.querySelectorAll('li')].map((li) => li.textContent) }};
    }})()""")
    assert answer == {"bold": "bold", "items": ["one", "two"]}
    request = model.requests[0]
    assert request["body"]["stream"] is True
    assert request["headers"].get("authorization") == "Bearer sk-test"
    assert "Say something" in str(request["body"]["messages"][-1]["content"])


def test_the_conversation_is_saved_with_its_events(firefox, model):
    model.reset()
    context = open_chat(firefox)
    panel = firefox_panel(firefox, context)
    panel.configure(model.base_url)
    model.script(Reply(text="Saved answer"))
    panel.send("Remember this")
    assert panel.wait_for_status("ok", "error") == "ok"
    saved = """import(chrome.runtime.getURL('extension/shared/storage/conversations.js')).then((m) => m.loadAllConversations()).then((all) => all
      .filter((record) => record?.turns?.[0]?.text === 'Remember this' && record.turns[0].status === 'ok'))"""
    firefox.wait_for_value(context, f"{saved}.then((records) => records.length > 0)", 30, "the finished turn was never saved")
    [record] = firefox.evaluate(context, saved)
    kinds = [event["kind"] for event in record["turns"][0]["events"]]
    assert kinds[0] == "step_start" and kinds[-2:] == ["final_answer", "done"]
    assert record["title"] == "Remember this"
