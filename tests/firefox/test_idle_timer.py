"""A turn outlives Firefox's idle timer. Firefox stops an MV3 event page after
`extensions.background.idle.timeout` without an extension event or API call (30 s by default),
even while a `fetch` of it is under way; TabAgent's Python lives in that page, so a stop would
end the turn. Here the timer is a few seconds, and the model, a tool and a compaction each take
several times that, with nothing crossing the extension's APIs meanwhile: each turn still ends
with its answer."""

from __future__ import annotations

import json
import threading

import pytest

from tests.helpers.firefox import ADDON_ID, Firefox
from tests.helpers.model_server import Reply

from tests.helpers.panel_backends import FirefoxPanel
from tests.helpers.panel_driver import LAST_TURN

IDLE_MS = 4000
LONGER_THAN_IDLE = 3.5 * IDLE_MS / 1000  # seconds: long past the stop Firefox would make
ANSWER = f"({LAST_TURN}?.querySelector('.message.assistant')?.textContent ?? '').trim()"


@pytest.fixture(scope="module")
def firefox(firefox_build):
    instance = Firefox(extra_prefs={"extensions.background.idle.timeout": IDLE_MS}).start(firefox_build)
    yield instance
    instance.quit()


def test_a_model_call_longer_than_the_idle_timer_ends_with_its_answer(panel, model):
    model.script(Reply(text="Worth the wait.", first_token_delay=LONGER_THAN_IDLE))
    panel.send("Think slowly")
    assert panel.wait_for_status("ok", "error", "interrupted", "cancelled", timeout=90) == "ok"
    assert panel.answer() == "Worth the wait."


def test_a_tool_run_longer_than_the_idle_timer_ends_with_its_answer(tabs, model, site):
    model.reset()
    tabs.configure(model.base_url)
    panel = tabs.new_conversation(on=site.url("article.html"))
    # wait_for waits in the page for text that never comes: a long tool run, all in a content script.
    waiting = {"text": "This text is on no page", "timeout": LONGER_THAN_IDLE}
    model.script(Reply(tool_calls=[{"name": "wait_for", "arguments": waiting}]), Reply(text="It never showed up."))
    panel.send("Wait for the text")
    assert panel.wait_for_status("ok", "error", "interrupted", "cancelled", timeout=90) == "ok"
    assert panel.answer() == "It never showed up."
    told = [m for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "This text is on no page" in told


def test_a_compacted_turn_longer_than_the_idle_timer_ends_with_its_answer(firefox, model):
    model.reset()
    model.context_length = 8192  # the endpoint's window, from its model list
    try:
        panel = FirefoxPanel(firefox).new_conversation()
        panel.configure(model.base_url)
        # The first turn fills most of the window: the second holds only once it is compacted.
        model.script(Reply(text="First answer " + "word " * 4000))
        panel.send("First question " + "long " * 4000)
        assert panel.wait_for_status("ok", "error", timeout=60) == "ok", panel.run(f"{LAST_TURN}.textContent.slice(-600)")
        model.script(Reply(text="Second answer, after a compaction.", first_token_delay=LONGER_THAN_IDLE))
        panel.send("Second question")
        panel.wait_for("document.querySelectorAll('article.turn').length === 2", 30, "the second turn never showed")
        assert panel.wait_for_status("ok", "error", "interrupted", "cancelled", timeout=90) == "ok"
    finally:
        model.context_length = None
    assert panel.answer() == "Second answer, after a compaction."
    assert panel.run(f"Boolean({LAST_TURN}.querySelector('.compaction'))")


STOP_THE_EVENT_PAGE = """(async () => {
  const { ExtensionParent } = ChromeUtils.importESModule("resource://gre/modules/ExtensionParent.sys.mjs");
  await ExtensionParent.GlobalManager.getExtension(%s).terminateBackground({ disableResetIdleForTest: true, ignoreDevToolsAttached: true });
  return "stopped";
})()"""


def test_a_turn_whose_event_page_was_stopped_is_marked_interrupted_not_left_running(panel, firefox, model):
    """Stopped anyway (here as Firefox's own tests stop it, past the heartbeat), the event page
    takes Python and the turn with it; when it starts again the turn is marked interrupted."""
    held = threading.Event()
    model.script(Reply(text="Never sent.", pause=held))
    panel.send("A turn cut short")
    panel.wait_for_value("Promise.resolve(document.querySelector('article.turn')?.dataset.status === 'running')", 30)
    try:
        [window, *_] = firefox.send("browsingContext.getTree", {"moz:scope": "chrome"})["contexts"]
        stopped = firefox.send("script.evaluate", {"expression": STOP_THE_EVENT_PAGE % json.dumps(ADDON_ID),
                                                   "target": {"context": window["context"]}, "awaitPromise": True})
        assert stopped["result"].get("value") == "stopped", stopped
    finally:
        held.set()
    # The chat's next message starts the event page again.
    panel.run("chrome.runtime.sendMessage({ target: 'background', type: 'settle-stale-turns' })")
    status = panel.wait_for_value("""import(chrome.runtime.getURL('extension/shared/storage/conversations.js')).then((m) => m.loadAllConversations()).then((all) => all
      .find((record) => record?.turns?.[0]?.text === 'A turn cut short')?.turns[0].status)
      .then((status) => status !== 'running' && status)""", 60, "the turn stayed running")
    assert status == "interrupted"
