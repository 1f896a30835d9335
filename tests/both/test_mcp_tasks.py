"""A long MCP tool call that runs as a task (the Tasks extension of MCP 2026-07-28), through the
whole extension in each browser, against a real FastMCP 4 server (tests/helpers/fastmcp_server.py,
stateless) whose `report` tool runs on `fastmcp-tasks`: the task's status message is drawn as the
call's progress in the panel's step, its result reaches the model when it is ready, and Stop sends
`tasks/cancel`, which the server's worker sees as a cancellation, the turn ending as stopped.
The same client in CPython and Pyodide: tests/unit/test_mcp_fastmcp.py, tests/pyodide/cases_mcp_tasks.py."""

from __future__ import annotations

import pytest

from tests.helpers.fastmcp_server import FastMCPServer
from tests.helpers.mcp_settings import server_entry, with_mcp_server
from tests.helpers.model_server import Reply
from tests.helpers.page_content import page_content
from tests.helpers.tool_calls import tool_call, told
from tests.helpers.waiting import until

PROGRESS = "document.querySelector('article.turn .tool-progress-text')?.textContent ?? ''"


@pytest.fixture(scope="module")
def fast():
    with FastMCPServer(stateless=True) as server:
        yield server


@pytest.fixture
def fast_chat(panel, fast):
    """`panel`, with the FastMCP server saved as "fast"; no server after."""
    yield from with_mcp_server(panel, server_entry(fast, name="fast"))


def start_report(chat, model, pages: int) -> None:
    """The model asks for a report of `pages` pages; the user allows the call; the task's
    progress is drawn in the step (waited for, whatever the machine's load)."""
    model.script(tool_call("fast__report", pages=pages), Reply(text="Here is the report."))
    chat.send("Write the report")
    assert chat.question(0)["message"] == "Call a tool of the MCP server fast"
    chat.answer_question(0, "once")
    chat.wait_for(f"/^writing page \\d+ of {pages}$/.test({PROGRESS})", 60,
                  "the task's progress was never drawn as its own words (no count of polls before them)")


def test_a_task_s_progress_is_drawn_in_the_step_and_its_result_arrives_when_ready(fast_chat, model):
    chat = fast_chat
    start_report(chat, model, pages=15)
    chat.screenshot("mcp-task-progress")
    assert chat.run("document.querySelector('article.turn .tool-progress progress').hasAttribute('value')") is False
    assert chat.wait_for_status("ok", "error", timeout=90) == "ok"
    assert page_content(told(model, 1))[1] == "the report, 15 pages (run as a task)"
    assert chat.run("document.querySelectorAll('article.turn .tool-progress').length") == 0  # gone with the result
    assert chat.answer() == "Here is the report."


def test_stop_cancels_the_task_on_the_server_and_the_turn_ends_stopped(fast_chat, model, fast):
    chat = fast_chat
    before = fast.cancelled_tasks()
    start_report(chat, model, pages=1000)
    chat.click("#stop")
    assert chat.wait_for_status("cancelled", "ok", "error", timeout=30) == "cancelled"
    until(lambda: fast.cancelled_tasks() == before + 1, 30, "the server's worker never saw the task cancelled")
    assert len(model.requests) == 1  # the model was never told a result
