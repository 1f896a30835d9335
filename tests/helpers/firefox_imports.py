"""Importing conversations in Firefox's panel, as the history view does (tests/firefox/test_import.py,
tests/firefox/test_workflows.py): the export file set on its input, the notice it gives, the
conversation opened from the history and continued."""

from __future__ import annotations

import json

from tests.helpers.model_server import Reply

NOTICE = "document.getElementById('notice-text').textContent"


def show_history(chat) -> None:
    if chat.run("document.getElementById('history').hidden"):
        chat.run("document.getElementById('show-history').click()")


def import_file(chat, path, count: int) -> str:
    chat.run("document.getElementById('notice-text').textContent = ''")
    chat.firefox.set_files(chat.context, "#import-json", [path])
    return chat.wait_for(f"{NOTICE}.includes('Imported {count} conversation') && {NOTICE}", 30, "the import never said it was done")


def stored(chat, conversation_id) -> dict:
    return chat.run(f"import(chrome.runtime.getURL('extension/shared/storage/conversations.js')).then((m) => m.loadConversation('{conversation_id}'))")


def import_and_ask(chat, model, tmp_path, record, question):
    """Imports the record as an export file, opens it from the history and asks `question`: the
    notice the import showed, and the messages the model was sent."""
    path = tmp_path / "edited.json"
    path.write_text(json.dumps({"format": "tabagent-conversations", "version": 1, "conversations": [record]}), encoding="utf-8")
    said = import_file(chat, path, 1)
    show_history(chat)
    opening = f"[...document.querySelectorAll('#history-list .open')].find((b) => b.textContent === {json.dumps(record['title'])})"
    chat.wait_for(f"Boolean({opening})", 30)
    chat.run(f"{opening}.click()")
    turns = len(record["turns"])
    chat.wait_for(f"document.querySelectorAll('article.turn').length === {turns}", 30)
    model.script(Reply(text="Sure."))
    chat.send(question)
    chat.wait_for(f"document.querySelectorAll('article.turn[data-status=ok]').length === {turns + 1}", 30,
                  "the next turn never ended")
    return said, model.requests[-1]["body"]["messages"]
