"""The Tasks extension inside Pyodide (and, for parity, in CPython), against a real FastMCP 4
server (tests/helpers/fastmcp_server.py, stateless) whose long tool runs as a task on
`fastmcp-tasks`; its address comes in TABAGENT_FASTMCP_SERVER. The task's progress reaches the
caller, its result arrives when ready, and Stop cancels it on the server."""

import asyncio
import os
import time

from cases_mcp import stopped_at_its_first_progress
from tabagent.mcp import MCPClient


def url() -> str:
    return os.environ["TABAGENT_FASTMCP_SERVER"]


async def cancelled_on_server() -> int:
    address = url().rsplit("/", 1)[0] + "/test/cancelled"
    try:
        from pyodide.http import pyfetch
    except ImportError:
        import urllib.request

        return int(await asyncio.to_thread(lambda: urllib.request.urlopen(address, timeout=5).read()))
    return int(await (await pyfetch(address)).string())


async def test_mcp_task_progress_then_its_result():
    async with MCPClient(url(), name="fast") as client:
        seen = []
        result = await client.call_tool("report", {"pages": 3}, on_progress=lambda *p: seen.append(p[2]))
        assert result["content"][0]["text"] == "the report, 3 pages (run as a task)", result
        # A task's progress is its status message when polled: a loaded machine polls less often
        # than the pages change, so some are skipped, never shown out of order.
        pages = [int(message.split()[2]) for message in seen]
        assert pages and pages == sorted(pages) and set(pages) <= {1, 2, 3}, seen


async def test_mcp_stop_cancels_the_task_on_the_server():
    before = await cancelled_on_server()
    async with MCPClient(url(), name="fast") as client:
        await stopped_at_its_first_progress(client, "report", {"pages": 1000}, started_within=20, stopped_within=10)
    deadline = time.monotonic() + 20
    while await cancelled_on_server() == before:  # the server's worker sees the cancel in its own time
        assert time.monotonic() < deadline, "the server never saw the task cancelled"
        await asyncio.sleep(0.1)
