"""Tools the agent tests hand their agents: `add`, and `waits_forever()` for a run to cancel.
The unit tests import them from here; the Pyodide cases as `sample_tools` (tests/pyodide/
runner.mjs copies this file beside them, and their conftest puts this folder on the path)."""

from __future__ import annotations

import asyncio

from tabagent import tool


@tool
def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: The first.
        b: The second.
    """
    return a + b


def waits_forever():
    """(a tool that never returns, the event it sets once it has been called)."""
    entered = asyncio.Event()

    @tool
    async def wait_forever() -> str:
        """Never returns."""
        entered.set()
        await asyncio.sleep(60)
        return "never"

    return wait_forever, entered
