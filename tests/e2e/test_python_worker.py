"""The agent's Python runs on a thread of its own (a worker of the offscreen document), so
however long it computes, the side panel keeps running: the offscreen document is an
extension page, and shares its renderer's main thread with the panel.

What is asserted is an order of events, not a duration: the panel's timer fires, and the
offscreen document answers a message, while Python is known (by its own clock readings) to be
in the middle of a computation of several seconds. Where Python shares the panel's thread,
neither can happen before the computation ends."""

from __future__ import annotations

import json
from tests.helpers.panel_backends import ChromiumPanel


BUSY_SECONDS = 8

# Pure Python, never yielding to the event loop: [when it started, when it ended] (ms).
BUSY = f"""
import json, time
start = time.time()
n = 0
while time.time() < start + {BUSY_SECONDS}:
    n += 1
json.dumps([start * 1000, time.time() * 1000])
"""

# Started and not awaited: its promise is kept for later.
START_BUSY = f"""(globalThis.busyPython = globalThis.tabagentDebug.python.then(({{ run }}) => run({json.dumps(BUSY)})), true)"""

# In the panel: a timer every 50 ms, and one round trip to the offscreen document through the
# service worker, over longer than Python computes; resolves to when each happened.
PANEL_TICKS = f"""
const done = arguments[arguments.length - 1];
const ticks = [];
let answered = null;
chrome.runtime.sendMessage({{ target: "background", type: "ping" }}).then((reply) => {{ answered = reply?.ok ? Date.now() : null; }});
const timer = setInterval(() => {{
  ticks.push(Date.now());
  if (ticks.length > 1 && Date.now() - ticks[0] > {(BUSY_SECONDS + 4) * 1000}) {{ clearInterval(timer); done({{ ticks, answered }}); }}
}}, 50);
"""


def offscreen(browser) -> dict:
    return next(t for t in browser.extension_targets() if t["url"].endswith("extension/offscreen/offscreen.html"))


def test_the_panel_keeps_running_while_python_computes(browser):
    panel = ChromiumPanel(browser).new_conversation()
    panel.ask_background("ping")  # Python is up
    target = offscreen(browser)
    browser.evaluate_in(target, START_BUSY, timeout=60)
    browser.driver.set_script_timeout(60)
    seen = browser.driver.execute_async_script(PANEL_TICKS)
    started, ended = json.loads(browser.evaluate_in(target, "globalThis.busyPython", timeout=60))
    assert ended - started >= BUSY_SECONDS * 1000
    # Well inside the computation: a second after it began, a second before it ended.
    during = [tick for tick in seen["ticks"] if started + 1000 < tick < ended - 1000]
    assert during, f"no panel timer fired while Python computed ({started:.0f}–{ended:.0f}): {seen['ticks'][:3]}…"
    assert seen["answered"] is not None and seen["answered"] < ended, (seen["answered"], ended)
    # And the interpreter the computation ran in is the agent's, whole after it.
    assert "read_page" in [tool["name"] for tool in panel.ask_background("list-tools")["tools"]]
