"""The Tasks extension (io.modelcontextprotocol/tasks, on MCP 2026-07-28): a server may answer a
long tool call with a task ({"resultType": "task", "taskId", "status", "pollIntervalMs", ...})
instead of its result. The client then asks `tasks/get` as often as the server suggests, shows
each status message as the call's progress, answers what the task needs from the user
(`input_required`: its `inputRequests`, answered as the same requests are anywhere, sent with
`tasks/update`), and gives the call the task's result when it is ready, or its error. Stop ends
the wait and tells the server `tasks/cancel`.

A task's words (its status message, its error) are the server's: bounded here, and marked as
the server's where they reach the model, like every result (mcp.tools).
"""

from __future__ import annotations

import asyncio
import contextlib

from typing import TYPE_CHECKING, Protocol

from ..unseen import bounded, shown
from .errors import MCPError
from .input_required import Answering, answers

if TYPE_CHECKING:
    from ..host import Host
    from .messages import OnProgress

TASKS = "io.modelcontextprotocol/tasks"
POLL_DEFAULT_MS, POLL_MIN_MS, POLL_MAX_MS = 1000, 100, 10_000
MAX_POLLS = 10_000  # about three hours at the slowest poll: a task that never ends is left
TERMINAL = ("completed", "failed", "cancelled")


class TaskAsking(Answering, Protocol):
    """What following a task reads of the MCP client (client.MCPClient), beside answering:
    its host (to wait between polls) and its requests to the server."""
    host: Host

    async def _request(self, method: str, params: dict | None = None, timeout: float | None = None,
                       retry_session: bool = True, signed: list | None = None) -> dict: ...


async def follow_task(client: TaskAsking, task: dict, on_progress: OnProgress | None = None,
                      timeout: float | None = None) -> dict:
    """The result of the task a call became, once it is ready; the task cancelled on Stop."""
    task_id = task.get("taskId")
    if not isinstance(task_id, str) or not task_id:
        raise MCPError(f"the MCP server {client.name} answered with a task that has no id.")
    try:
        return await _polled(client, task_id, task, on_progress, timeout)
    except asyncio.CancelledError:
        await asyncio.shield(_cancel(client, task_id))
        raise


async def _polled(client, task_id: str, task: dict, on_progress, timeout) -> dict:
    signed: list = []
    for polls in range(MAX_POLLS):
        status = task.get("status")
        await _report(on_progress, polls, task)
        if status in TERMINAL:
            return _ended(client, task)
        if status == "input_required":
            given = await answers(client, task.get("inputRequests") or None,
                                  lambda why: MCPError(f"the MCP server {client.name}'s task {why}."))
            await client._request("tasks/update", {"taskId": task_id, "inputResponses": given}, timeout, signed=signed)
        else:
            await client.host.sleep(_interval(task) / 1000)
        task = await client._request("tasks/get", {"taskId": task_id}, timeout, signed=signed)
    await _cancel(client, task_id)
    raise MCPError(f"the MCP server {client.name}'s task {bounded(task_id, 60)} did not end: TabAgent stopped waiting.")


def _interval(task: dict) -> float:
    asked = task.get("pollIntervalMs")
    if not isinstance(asked, (int, float)) or isinstance(asked, bool):
        return POLL_DEFAULT_MS
    return min(max(asked, POLL_MIN_MS), POLL_MAX_MS)


async def _report(on_progress, polls: int, task: dict) -> None:
    """A task's status message as the call's progress (the polls so far as its count)."""
    message = task.get("statusMessage")
    if on_progress is None or not isinstance(message, str) or not message.strip():
        return
    reported = on_progress(polls, None, bounded(shown(message), 200))
    if asyncio.iscoroutine(reported):
        await reported


def _ended(client, task: dict) -> dict:
    status = task.get("status")
    if status == "completed" and isinstance(task.get("result"), dict):
        return task["result"]
    if status == "failed":
        error = task.get("error") if isinstance(task.get("error"), dict) else {}
        said = bounded(shown(str(error.get("message") or "no reason given")), 1000)
        raise MCPError(f"the MCP server {client.name}'s task failed: {said}", code=error.get("code")
                       if isinstance(error.get("code"), int) else None)
    if status == "cancelled":
        raise MCPError(f"the MCP server {client.name} cancelled the task before it finished.")
    raise MCPError(f"the MCP server {client.name}'s task ended without a result.")


async def _cancel(client, task_id: str) -> None:
    with contextlib.suppress(MCPError, asyncio.TimeoutError):
        await asyncio.wait_for(client._request("tasks/cancel", {"taskId": task_id}, 5), 5)
