"""Nothing the model's code starts goes on after its run (issue 10, item 8): tasks, asyncio
timers and JavaScript timers and intervals are cancelled when the run ends, so they can
neither keep the sandbox busy nor change its variables behind the next step's back. Code
that will not end (a task that swallows its cancellation, a callback that queues itself
again, a loop that blocks the thread) gets its sandbox replaced, and the next step is told."""

from __future__ import annotations

import pytest


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


def restarts(sandbox) -> int:
    return sandbox.js("globalThis.tabagentDebug.sandboxStatus(globalThis.tabagent.sandbox).restarts")


SWALLOWS_ITS_CANCELLATION = """
import asyncio
kept = 'from the step before'
async def stubborn():
    while True:
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            pass
asyncio.ensure_future(stubborn())
await asyncio.sleep(0)  # it starts: a task cancelled before it starts just ends
print('started')
"""

QUEUES_ITSELF_AGAIN = """
import asyncio
kept = 'from the step before'
def again():
    asyncio.get_running_loop().call_soon(again)
asyncio.get_running_loop().call_soon(again)
print('started')
"""


def fresh_run(sandbox, code: str):
    """The sandbox's restarts so far, and its run of `code` in a new sandbox."""
    sandbox.js("globalThis.tabagent.sandbox.reset()")
    before = restarts(sandbox)
    return before, sandbox.run(code)


def cancelled_then(what: str) -> str:
    """A step's code leaving a task that, cancelled, does `what` (indented in its except block)."""
    return f"""
import asyncio
kept = 'from the step before'
async def stubborn():
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
{what}
asyncio.ensure_future(stubborn())
await asyncio.sleep(0)
print('started')
"""


BLOCKS_THE_THREAD = cancelled_then("        while True:\n            pass")
# quiet once cancelled, but it would wake in an hour, in some later step
SLEEPS_THROUGH_ITS_CANCELLATION = cancelled_then("        await asyncio.sleep(3600)")

TOLD = ("The sandbox was restarted because code from the previous step kept running: "
        "variables and imports from earlier steps are gone.\n")


@pytest.mark.parametrize("code", [SWALLOWS_ITS_CANCELLATION, QUEUES_ITSELF_AGAIN, BLOCKS_THE_THREAD,
                                  SLEEPS_THROUGH_ITS_CANCELLATION],
                         ids=["swallows-its-cancellation", "queues-itself-again", "blocks-the-thread",
                              "sleeps-through-its-cancellation"])
def test_a_sandbox_still_busy_after_its_run_is_replaced_and_the_next_step_is_told(sandbox, code):
    before, first = fresh_run(sandbox, code)
    assert first["output"] == "started\n" and not first["isError"], first
    # The next step waits for the verdict on the last one: no polling needed.
    told = sandbox.run("print('kept' in globals())")
    assert told["output"] == TOLD + "False\n" and not told["isError"], told
    assert restarts(sandbox) == before + 1
    # Told once; the new sandbox runs normally and keeps its own variables.
    assert sandbox.run("kept = 1")["output"] == ""
    assert sandbox.run("print(kept + 1)")["output"] == "2\n"
    assert restarts(sandbox) == before + 1


def test_code_that_leaves_nothing_running_keeps_its_sandbox_and_variables(sandbox):
    before, first = fresh_run(sandbox, """
import asyncio
cleaned = []
async def waits():
    try:
        await asyncio.sleep(3600)
    finally:
        await asyncio.sleep(0.01)  # cleaning up after its cancellation takes a moment
        cleaned.append(True)
waiting = asyncio.ensure_future(waits())
print(await asyncio.gather(asyncio.sleep(0.01, 1), asyncio.sleep(0.02, 2)))
count = 1
""")
    assert first["output"] == "[1, 2]\n" and not first["isError"], first
    for _ in range(3):
        assert sandbox.run("count += 1") == {"output": "", "isError": False, "isFinal": False,
                                             "finalValue": "null", "stopped": None}
    later = sandbox.run("print(count, cleaned, waiting.cancelled())")
    assert later["output"] == "4 [True] True\n", later
    assert restarts(sandbox) == before


def test_a_timer_that_code_of_the_run_sets_after_the_run_never_fires(sandbox):
    before, first = fresh_run(sandbox, """
import asyncio, js
from pyodide.ffi import create_proxy
changed = []
async def leaves_a_timer():
    try:
        await asyncio.sleep(3600)
    finally:  # runs as the run ends: a JavaScript timer, past the tracking of Python's tasks
        js.setTimeout(create_proxy(lambda: changed.append('after its run')), 2000)
asyncio.ensure_future(leaves_a_timer())
await asyncio.sleep(0)
""")
    assert first["output"] == "" and not first["isError"], first
    later = sandbox.run("import asyncio\nawait asyncio.sleep(2.5)\nprint(changed)")
    assert later["output"] == "[]\n", later  # the same sandbox (its variables kept), the timer gone
    assert restarts(sandbox) == before
