"""Past conversations in Firefox: listed newest first, reopened, and continued with the agent
remembering what was said."""

from __future__ import annotations

from tests.helpers.model_server import Reply

from tests.helpers.panel_backends import firefox_panel

from .sidebar import open_chat, send, wait_for_status

ENTRIES = "[...document.querySelectorAll('#history-list .open')].map((button) => button.textContent)"


def have_conversation(firefox, context, model, question, answer):
    firefox.evaluate(context, "document.getElementById('new-chat').click()")
    model.script(Reply(text=answer))
    send(firefox, context, question)
    assert wait_for_status(firefox, context, "ok", "error") == "ok"


def test_reopen_and_continue_an_older_conversation(firefox, model):
    model.reset()
    context = open_chat(firefox)
    panel = firefox_panel(firefox, context)
    panel.configure(model.base_url)
    have_conversation(firefox, context, model, "First topic: apples", "Apples are red.")
    have_conversation(firefox, context, model, "Second topic: pears", "Pears are green.")
    firefox.evaluate(context, "document.getElementById('show-history').click()")
    entries = firefox.wait_for(context, f"{ENTRIES}.length >= 2 && {ENTRIES}", 30, "the history never listed both")
    assert entries[:2] == ["Second topic: pears", "First topic: apples"]  # newest first
    firefox.evaluate(context, """[...document.querySelectorAll('#history-list .open')]
      .find((button) => button.textContent === 'First topic: apples').click()""")
    firefox.wait_for(context, "document.getElementById('conversation').textContent.includes('Apples are red.')", 30)
    model.script(Reply(text="Still apples."))
    panel.send("More about them?")
    firefox.wait_for(context, "document.querySelectorAll('article.turn').length === 2", 30)
    assert panel.wait_for_status("ok", "error") == "ok"
    assert "First topic: apples" in [m.get("content") for m in model.requests[-1]["body"]["messages"]]
