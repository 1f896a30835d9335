"""A server written with FastMCP 4 (tests/helpers/fastmcp_server.py), stateful and stateless,
through a turn: it speaks 2026-07-28 with TabAgent, and its form, its sampling request and its
progress reach the user as any server's do (the form drawn and sent, sampling held until
allowed, progress in the step); its long tool runs as a task (`fastmcp-tasks`): progress in the
step, the result when ready, Stop cancelling it on the server."""

from __future__ import annotations

import asyncio

import pytest

from tabagent.app.turns import Turns
from tabagent.mcp import MCPClient
from tabagent.testing import ScriptedModel
from tests.helpers.fastmcp_server import FastMCPServer

pytestmark = pytest.mark.timeout(90)


@pytest.fixture(scope="module", params=["stateful", "stateless"])
def server(request):
    with FastMCPServer(stateless=request.param == "stateless") as running:
        yield running


class Panel:
    def __init__(self, *answers, forms=()):
        self.answers, self.forms, self.asked = list(answers), list(forms), []

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
        return {"ok": False, "error": "no page in this test"}

    async def confirm(self, id_, tool, message, details):
        self.asked.append(message)
        return self.answers.pop(0)

    async def fill(self, id_):
        return self.forms.pop(0)


async def run(server, tool, arguments, panel, *more):
    model = ScriptedModel([{"content": "", "tool_calls": [{"name": f"fast__{tool}", "arguments": arguments}]},
                           *more, "Done."])
    events = []
    request = {"conversation_id": "c1", "task": "Do it", "memory": None,
               "settings": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "agent": "tool_calling"},
               "mcp_servers": [{"id": "f", "name": "fast", "url": server.url, "enabled": True, "tools": {}}],
               "mcp_headers": {}}
    await Turns().run(request, events.append, model=model, page=panel)
    said = [m["content"] for m in model.calls[-1]["messages"] if m["role"] == "tool"][-1]
    return said, events


async def test_it_speaks_2026_07_28(server):
    async with MCPClient(server.url) as client:
        assert client.protocol_version == "2026-07-28"
        assert client.server_info["name"] == "fastmcp-test-server"


async def test_its_form_is_drawn_and_the_answer_sent(server):
    said, events = await run(server, "pick_colour", {}, Panel("once", forms=[{"decision": "once", "values": {"colour": "red"}}]))
    assert "picked red" in said
    assert any("form" in e["data"] for e in events if e["kind"] == "confirmation")


async def test_its_sampling_goes_to_the_user_s_model_only_when_allowed(server):
    panel = Panel("once", "once", "once")  # the call, the request, the reply
    said, _ = await run(server, "summarise", {"text": "A long text about MCP."}, panel, "MCP, briefly.")
    assert "the client's model said: MCP, briefly." in said
    assert panel.asked[1:] == ["The MCP server fast asks to use your model",
                               "Send your model's reply to the MCP server fast?"]


async def test_its_progress_is_shown_in_the_step(server):
    said, events = await run(server, "count", {"steps": 3}, Panel("once"))
    assert "counted to 3" in said
    progress = [(e["data"]["progress"], e["data"]["total"]) for e in events if e["kind"] == "tool_progress"]
    assert progress == [(1, 3), (2, 3), (3, 3)]


async def test_a_long_call_runs_as_a_task_its_progress_in_the_step(server):
    said, events = await run(server, "report", {"pages": 3}, Panel("once"))
    assert "the report, 3 pages (run as a task)" in said
    shown = [e["data"]["message"] for e in events if e["kind"] == "tool_progress"]
    # (its status message when polled: a loaded machine may skip a page, never reorder them)
    pages = [int(message.split()[2]) for message in shown]
    assert pages and pages == sorted(pages) and set(pages) <= {1, 2, 3}, shown


async def test_stop_cancels_the_task_and_the_server_sees_it(server):
    before = server.cancelled_tasks()
    async with MCPClient(server.url, name="fast") as client:
        started = asyncio.Event()
        call = asyncio.ensure_future(client.call_tool("report", {"pages": 1000}, on_progress=lambda *p: started.set()))
        await asyncio.wait_for(started.wait(), 20)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
    await until(lambda: server.cancelled_tasks() == before + 1)


async def until(condition, timeout: float = 20) -> None:
    """Waits for what the server's worker does in its own time, however loaded the machine."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the server never saw it"
        await asyncio.sleep(0.1)
