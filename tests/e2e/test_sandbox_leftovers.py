"""Nothing the model's code starts goes on after its run (issue 10, item 8): tasks, asyncio
timers and JavaScript timers and intervals are cancelled when the run ends, so they can
neither keep the sandbox busy nor change its variables behind the next step's back."""

from __future__ import annotations

import pytest

from .test_sandbox import PING_FROM_PANEL, Sandbox

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

LEAVE_THINGS_RUNNING = """
import asyncio, js
from pyodide.ffi import create_proxy

ticks = {"task": 0, "call_later": 0, "setTimeout": 0, "setInterval": 0}

async def forever():
    while True:
        ticks["task"] += 1
        await asyncio.sleep(0.01)

def again():
    ticks["call_later"] += 1
    asyncio.get_running_loop().call_later(0.01, again)

def tick(name):
    ticks[name] += 1

started = asyncio.ensure_future(forever())
asyncio.get_running_loop().call_later(0.01, again)
js.setTimeout(create_proxy(lambda: tick("setTimeout")), 300)
js.setInterval(create_proxy(lambda: tick("setInterval")), 10)
await asyncio.sleep(0.05)
print(started.done())
"""

# The next step looks: did anything the last run started move while nothing ran?
LOOK_LATER = """
import asyncio
before = dict(ticks)
await asyncio.sleep(0.5)
print(ticks == before, started.cancelled(), sorted(k for k, v in before.items() if v))
"""


@pytest.fixture(scope="module")
def sandbox(browser):
    browser.open_side_panel()
    assert browser.driver.execute_async_script(PING_FROM_PANEL)["ok"]
    sandbox = Sandbox(browser)
    browser.expose_offscreen_for_tests(sandbox.target())
    return sandbox


def test_tasks_and_timers_the_code_started_end_with_its_run(sandbox):
    sandbox.js("globalThis.tabagent.sandbox.reset()")
    first = sandbox.run(LEAVE_THINGS_RUNNING)
    assert first["output"] == "False\n" and not first["isError"], first
    later = sandbox.run(LOOK_LATER)
    assert not later["isError"], later
    # Nothing moved after the run; the task was cancelled; the tally shows they had run.
    assert later["output"] == "True True ['call_later', 'setInterval', 'task']\n", later
    assert sandbox.run("print('still here')")["output"] == "still here\n"


def test_timers_started_in_one_run_and_awaited_in_it_still_work(sandbox):
    result = sandbox.run("import asyncio\nawait asyncio.sleep(0.05)\nprint(await asyncio.wait_for(asyncio.sleep(0.01, 'ok'), 1))")
    assert result["output"] == "ok\n", result
