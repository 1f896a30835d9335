"""Saved workflows in Firefox, as in Chromium (tests/e2e/test_workflows.py): a turn that searched
a shop page on 127.0.0.1 is saved as a workflow from the button under it, shown in the Tools view
as Python, and replayed with `/name` on the page numbered differently: each action is asked as the
agent's are, the page gets the same search, and the model is not called at all."""

from __future__ import annotations

import json

import pytest

from tests.helpers.firefox_imports import import_and_ask
from tests.helpers.model_server import Reply
from tests.helpers.panel_driver import LAST_TURN

pytestmark = pytest.mark.usefixtures("tool_calling")  # `tabs`: the chat beside the user's tab

LOG = "document.getElementById('log').textContent"
PAGE = """<!doctype html><html><head><title>Kettle shop</title></head><body><nav>{nav}</nav>
<form role="search" onsubmit="return false"><input id="q" aria-label="Search">
<button id="go" type="button" onclick="document.getElementById('log').textContent += 'search ' + q.value + '\\n'">Search</button>
</form><pre id="log"></pre></body></html>"""
TASK = "Search the shop for blue kettle"
# The workflow the Tools view shows unfolded, once it does: [name, its Python].
SHOWN = """[...document.querySelectorAll('.workflows-list li[data-workflow]')]
  .filter((item) => item.querySelector('details')?.open)
  .map((item) => [item.dataset.workflow, item.querySelector('textarea').value])[0] ?? null"""


def shop_pages(root):
    (root / "shop.html").write_text(PAGE.format(nav="<a href='#home'>Home</a>"))
    # more controls before each one: every "ta-<n>" the turn saw now names another element
    (root / "renumbered.html").write_text(PAGE.format(nav="<a href='#sale'>Sale</a> <a href='#new'>New</a> <a href='#home'>Home</a>"))
    return root


SITE = shop_pages  # the conftest's `site` serves these


def allow(panel, count):
    for n in range(count):
        panel.question(n, timeout=60)
        panel.answer_question(n, "once")


def test_a_turn_saved_as_a_workflow_replays_in_firefox_without_the_model(tabs, model, site):
    model.reset()
    tabs.new_conversation(on=site.url("shop.html"))
    model.script(Reply(tool_calls=[{"name": "type_text", "arguments": {"locator": "#q", "text": "blue kettle"}}]),
                 Reply(tool_calls=[{"name": "click", "arguments": {"locator": "#go"}}]), Reply(text="Searched."))
    tabs.send(TASK)
    allow(tabs, 2)
    assert tabs.wait_for_status("ok", "error", "cancelled") == "ok"
    assert tabs.in_page(LOG) == "search blue kettle\n"

    tabs.run(f"{LAST_TURN}.querySelector('.action-save-workflow').click()")
    name, source = tabs.wait_for_value(SHOWN, 30, "the saved workflow was never shown")
    assert "Place(role='text field', name='Search', landmark='search'" in source
    assert "parameters={'search': 'blue kettle'}" in source and "ta-" not in source

    model.reset()
    tabs.show(site.url("renumbered.html"))
    tabs.run("""(() => {  // back to the conversation from the Tools view
      const button = document.getElementById('show-tools');
      if (button.getAttribute('aria-pressed') === 'true') button.click();
    })()""")
    tabs.new_conversation()
    tabs.send(f"/{name}")
    allow(tabs, 2)  # asked as the agent's own actions are
    assert tabs.wait_for_status("ok", "error", "cancelled") == "ok"
    assert model.requests == []
    assert tabs.in_page(LOG) == "search blue kettle\n"
    assert "did its 2 steps" in tabs.run(f"{LAST_TURN}.querySelector('.message.assistant').textContent")


def test_a_replay_keeps_its_memory_across_export_and_import(tabs, model, site, tmp_path):
    """As in Chromium (tests/e2e/test_workflows.py): a "/name" replay's steps are the workflow's,
    which its memory never holds; imported (the record as the export writes it, as stored), the
    memory is kept as it was, with no notice, and the model is sent the command as before."""
    model.reset()
    tabs.new_conversation(on=site.url("shop.html"))
    model.script(Reply(tool_calls=[{"name": "type_text", "arguments": {"locator": "#q", "text": "blue kettle"}}]),
                 Reply(tool_calls=[{"name": "click", "arguments": {"locator": "#go"}}]), Reply(text="Searched."))
    tabs.send(TASK)
    allow(tabs, 2)
    assert tabs.wait_for_status("ok", "error", "cancelled") == "ok"
    tabs.run(f"{LAST_TURN}.querySelector('.action-save-workflow').click()")
    name, _ = tabs.wait_for_value(SHOWN, 30, "the saved workflow was never shown")
    tabs.show(site.url("renumbered.html"))
    tabs.run("""(() => {  // back to the conversation from the Tools view
      const button = document.getElementById('show-tools');
      if (button.getAttribute('aria-pressed') === 'true') button.click();
    })()""")
    tabs.new_conversation()
    tabs.send(f"/{name}")
    allow(tabs, 2)
    assert tabs.wait_for_status("ok", "error", "cancelled") == "ok"
    record = tabs.wait_for_value(f"""import(chrome.runtime.getURL('extension/shared/storage/conversations.js'))
      .then((m) => m.loadAllConversations()).then((all) => all.find((r) => r.turns?.[0]?.text === {json.dumps('/' + name)} && r.turns[0].status === 'ok' && r.memory))""", 30)
    tabs.ask_background("delete-conversation", conversationId=record["id"])

    model.reset()
    said, messages = import_and_ask(tabs, model, tmp_path, record, "Did it work?")
    assert "memory" not in said, said
    assert messages[-2:] == [{"role": "user", "content": f"/{name}"}, {"role": "user", "content": "Did it work?"}]
