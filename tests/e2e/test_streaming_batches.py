"""How a streamed reply crosses from Python to the side panel: the tokens that came in one
network read (a fast model, or a machine too busy to read each as it came) cross together,
as one message, at once, and none is lost, repeated or reordered on the way.

What is asserted is what the panel receives, counted by a listener of its own, not how long
it took."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.browser import ROOT
from tests.helpers.model_server import ModelServer, Reply
from tests.helpers.panel_backends import ChromiumPanel


SLOW_TOOL = ROOT / "py" / "user_tools" / "e2e_slow_count.py"

# A developer's tool that computes for seconds without yielding: [when it started, ended] (ms).
SLOW_TOOL_SOURCE = '''import json
import time

from tabagent import tool


@tool
def slow_count(seconds: int) -> str:
    """Counts for that many seconds.

    Args:
        seconds: how long to count
    """
    start = time.time()
    while time.time() < start + seconds:
        pass
    return json.dumps([start * 1000, time.time() * 1000])
'''

# The panel's own record of each turn-events message it is sent: the token texts in it.
COUNT_MESSAGES = """
window.tokenMessages = [];
chrome.runtime.onMessage.addListener((message) => {
  if (message?.type !== "turn-events") return;
  const tokens = message.events.filter((event) => event.kind === "token").map((event) => event.data.text);
  if (tokens.length) window.tokenMessages.push(tokens);
});
"""


def test_the_tokens_of_one_network_read_reach_the_panel_in_one_message(panel, model):
    words = [f"w{i}" for i in range(40)]
    text = " ".join(words)
    text_may_go = threading.Event()
    model.script(Reply(text=text, together=True, pause=text_may_go, pause_at="text"))
    panel.driver.execute_script(COUNT_MESSAGES)
    panel.send("Answer quickly")
    panel.wait(lambda _: model.requests, 30, "the model was not asked")
    # The turn's first events went out a while ago: what joins the tokens below is that they
    # came together, not the batching of events that come within a few milliseconds.
    time.sleep(0.2)
    text_may_go.set()
    panel.wait_for_status("ok")
    messages = panel.driver.execute_script("return window.tokenMessages")
    assert ["".join(tokens) for tokens in messages] == [text], f"the tokens came in {len(messages)} messages"
    reply = panel.last_turn().find_element(By.CSS_SELECTOR, ".message.assistant")
    assert reply.text == text


def test_tokens_read_one_by_one_arrive_complete_and_in_order(panel, model):
    words = [f"v{i}" for i in range(60)]
    model.script(Reply(text=" ".join(words), token_delay=0.003))
    panel.driver.execute_script(COUNT_MESSAGES)
    panel.send("Answer")
    panel.wait_for_status("ok")
    messages = panel.driver.execute_script("return window.tokenMessages")
    assert "".join(token for tokens in messages for token in tokens).split() == words
    reply = panel.last_turn().find_element(By.CSS_SELECTOR, ".message.assistant")
    assert reply.text.split() == words


# When the panel is sent each tool call and each tool result (its clock, ms).
WATCH_TOOL_EVENTS = """
window.toolEvents = [];
chrome.runtime.onMessage.addListener((message) => {
  if (message?.type !== "turn-events") return;
  for (const event of message.events) if (event.kind === "tool_call" || event.kind === "tool_result") window.toolEvents.push([event.kind, Date.now(), event.data]);
});
"""


def build():
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True, cwd=ROOT)


@pytest.fixture
def slow_tool():
    SLOW_TOOL.write_text(SLOW_TOOL_SOURCE)
    try:
        build()
        yield
    finally:
        SLOW_TOOL.unlink(missing_ok=True)
        build()


def test_a_tool_call_reaches_the_panel_while_python_still_runs_the_tool(slow_tool, fresh_browser):
    browser = fresh_browser()
    panel = ChromiumPanel(browser).new_conversation()
    with ModelServer() as model:
        panel.configure(model.base_url, agent="tool_calling")
        model.script(Reply(tool_calls=[{"name": "slow_count", "arguments": {"seconds": 4}}]), Reply(text="Counted."))
        browser.driver.execute_script(WATCH_TOOL_EVENTS)
        panel.send("Count for a while")
        panel.wait_for_status("ok", timeout=60)
    seen = browser.driver.execute_script("return window.toolEvents")
    [(_, call_at, call)] = [e for e in seen if e[0] == "tool_call"]
    [(_, _, result)] = [e for e in seen if e[0] == "tool_result"]
    assert call["name"] == "slow_count"
    started, ended = json.loads(result["result"])
    assert ended - started >= 4000
    assert call_at < ended - 1000, f"the tool call reached the panel only when the tool had ended ({call_at:.0f}, {ended:.0f})"
