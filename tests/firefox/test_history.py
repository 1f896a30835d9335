"""Past conversations in Firefox: listed newest first, reopened, and continued with the agent
remembering what was said."""

from __future__ import annotations

from tests.helpers.model_server import Reply

ENTRIES = "[...document.querySelectorAll('#history-list .open')].map((button) => button.textContent)"


def have_conversation(panel, model, question, answer):
    panel.new_conversation()
    model.script(Reply(text=answer))
    panel.send(question)
    assert panel.wait_for_status("ok", "error") == "ok"


def test_reopen_and_continue_an_older_conversation(panel, model):
    have_conversation(panel, model, "First topic: apples", "Apples are red.")
    have_conversation(panel, model, "Second topic: pears", "Pears are green.")
    panel.run("document.getElementById('show-history').click()")
    entries = panel.wait_for(f"{ENTRIES}.length >= 2 && {ENTRIES}", 30, "the history never listed both")
    assert entries[:2] == ["Second topic: pears", "First topic: apples"]  # newest first
    panel.run("""[...document.querySelectorAll('#history-list .open')]
      .find((button) => button.textContent === 'First topic: apples').click()""")
    panel.wait_for("document.getElementById('conversation').textContent.includes('Apples are red.')", 30)
    model.script(Reply(text="Still apples."))
    panel.send("More about them?")
    panel.wait_for("document.querySelectorAll('article.turn').length === 2", 30)
    assert panel.wait_for_status("ok", "error") == "ok"
    assert "First topic: apples" in [m.get("content") for m in model.requests[-1]["body"]["messages"]]
