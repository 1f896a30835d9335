"""What a sandbox run leaves running, as the worker counts it (in_sandbox.runtime.watch_leftovers):
nothing once a run's tasks have ended as they were cancelled; a task that ignores its end, or
a callback that queues itself again, for as long as it goes on."""

from __future__ import annotations

import asyncio
import json

import pytest

from tabagent.app.in_sandbox.runtime import SandboxRuntime, watch_leftovers

pytestmark = pytest.mark.timeout(20)


async def run_then_count(code: str, wait_s: float = 0.1) -> int:
    """Runs `code` in a fresh runtime and returns the count `wait_s` after its result, less
    the test's own task."""
    posted = asyncio.Queue()
    runtime = SandboxRuntime(lambda text: posted.put_nowait(json.loads(text)))
    leftovers = watch_leftovers(lambda: runtime.running)
    runtime.start_run(json.dumps({"type": "run", "run_id": 1, "code": code, "tools": [],
                                  "max_output_chars": 1000, "memory_limit_bytes": 0}))
    result = await posted.get()
    assert not result["is_error"], result["output"]
    await asyncio.sleep(wait_s)
    return leftovers() - 1


async def test_a_run_whose_tasks_end_when_cancelled_leaves_nothing():
    assert await run_then_count("""
import asyncio
async def cleans_up():
    try:
        await asyncio.sleep(3600)
    finally:
        await asyncio.sleep(0.01)
asyncio.ensure_future(cleans_up())
await asyncio.sleep(0)
""") == 0


@pytest.mark.parametrize("code", ["""
import asyncio
async def stubborn():
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        await asyncio.sleep(3600)
asyncio.ensure_future(stubborn())
await asyncio.sleep(0)
""", """
import asyncio
def again():
    asyncio.get_running_loop().call_soon(again)
asyncio.get_running_loop().call_soon(again)
"""], ids=["sleeps-through-its-cancellation", "queues-itself-again"])
async def test_code_that_ignores_the_end_of_its_run_is_counted(code):
    assert await run_then_count(code) > 0
