"""MCP servers in a turn (tabagent.app.turn_request with a real MCP server): their tools join the
agent's, each call asked of the user as its policy says, a changed definition asked again,
unreachable servers and crowded context windows told, and the connections closed after."""

from __future__ import annotations

import pytest

from tabagent.testing import ScriptedModel
from tabagent.app.mcp_servers import fingerprint
from tabagent.app.turn_request import Turns
from tests.helpers.mcp_server import MCPTestServer

pytestmark = pytest.mark.timeout(60)


class Page:
    """The page bridge, as far as MCP needs it: the user's answers to confirmations."""

    def __init__(self, *answers):
        self.answers, self.asked = list(answers), []

    async def call(self, name, args, tab_id=None, expect_url=None):
        return {"ok": False, "error": "no page in this test"}

    async def confirm(self, id_, tool, message, details):
        self.asked.append((tool, message, details))
        return self.answers.pop(0)


@pytest.fixture(scope="module")
def lab():
    with MCPTestServer() as server:
        yield server


def request(server, tools=None, conversation="c1", **settings):
    return {"conversation_id": conversation, "task": "Add 2 and 40", "memory": None,
            "settings": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "agent": "tool_calling", **settings},
            "mcp_servers": [{"id": "lab", "name": "lab", "url": server.url, "enabled": True, "tools": tools or {}}],
            "mcp_headers": {}}


def add_then_answer():
    return ScriptedModel([{"content": "", "tool_calls": [{"name": "lab__add", "arguments": {"a": 2, "b": 40}}]}, "42"])


def tool_result(model, call=1):
    return [m for m in model.calls[call]["messages"] if m["role"] == "tool"][-1]["content"]


async def test_a_call_is_asked_and_its_result_marked(lab):
    page, model, events = Page("once"), add_then_answer(), []
    result = await Turns().run(request(lab), events.append, model=model, page=page)
    assert result["status"] == "ok"
    [(tool, message, details)] = page.asked
    assert (tool, message) == ("lab__add", "Call the tool add of the MCP server lab")
    assert details["server"] == "lab" and details["url"] == lab.url and "changed" not in details
    assert 'source="MCP server lab, tool add" untrusted="true">\n{\n  "sum": 42\n}' in tool_result(model)
    assert [e["data"]["decision"] for e in events if e["kind"] == "confirmation" and "decision" in e["data"]] == ["once"]


async def test_allowed_for_the_conversation_is_asked_once_per_conversation(lab):
    definitions = await listed(lab)
    tools = {"add": {"policy": "conversation", "fingerprint": fingerprint(definitions["add"])}}
    page = Page("once", "once")
    for conversation in ("c-conv", "c-conv", "c-other"):
        await Turns().run(request(lab, tools, conversation), lambda e: None, model=add_then_answer(), page=page)
    assert len(page.asked) == 2  # the first turn of each conversation


async def test_a_changed_definition_is_asked_whatever_the_policy(lab):
    tools = {"add": {"policy": "always", "fingerprint": "0000000000000000"}}
    page = Page("deny")
    model = add_then_answer()
    await Turns().run(request(lab, tools), lambda e: None, model=model, page=page)
    assert page.asked[0][2]["changed"].startswith("This tool's description or arguments changed")
    assert tool_result(model).startswith("The user denied this call of lab__add")


async def test_off_tools_are_not_offered(lab):
    tools = {"add": {"policy": "off", "fingerprint": "x"}}
    model = ScriptedModel(["Nothing to do."])
    await Turns().run(request(lab, tools), lambda e: None, model=model, page=Page())
    offered = {t["function"]["name"] for t in model.calls[0]["tools"]}
    assert "lab__add" not in offered and "lab__echo" in offered


async def test_many_tools_in_a_small_window_are_told():
    with MCPTestServer(extra_tools=80) as crowded:
        events = []
        await Turns().run(request(crowded, context_window=4096), events.append, model=ScriptedModel(["Hi."]),
                          page=Page())
    [notice] = [e["data"]["message"] for e in events if e["kind"] == "error" and e["data"]["kind"] == "mcp"]
    assert notice.startswith("The 88 tools of your MCP servers take about ")
    assert "of the model's 4,096-token context window" in notice


async def test_an_unreachable_server_is_told_and_the_turn_goes_on():
    with MCPTestServer() as gone:
        url_of = request(gone)
    events = []
    result = await Turns().run(url_of, events.append, model=ScriptedModel(["Hi."]), page=Page())
    assert result["status"] == "ok"
    [notice] = [e["data"]["message"] for e in events if e["kind"] == "error"]
    assert notice.startswith("The MCP server lab is left out of this turn: could not reach")


async def listed(server) -> dict:
    from tabagent.mcp import MCPClient

    async with MCPClient(server.url) as client:
        return {d["name"]: d for d in await client.list_tools()}


async def test_resources_are_listed_and_read_through_one_tool_under_the_same_policy(lab):
    calls = [{"content": "", "tool_calls": [{"name": "lab__resources", "arguments": {}}]},
             {"content": "", "tool_calls": [{"name": "lab__resources", "arguments": {"uri": "note://hello"}}]}, "Read."]
    page, model = Page("turn"), ScriptedModel(calls)
    await Turns().run(request(lab), lambda e: None, model=model, page=page)
    assert len(page.asked) == 1 and page.asked[0][0] == "lab__resources"  # allowed for the turn
    assert '"uri": "note://hello"' in tool_result(model, 1)
    assert 'source="MCP server lab, resources, note://hello" untrusted="true">\nHello from a resource.' in tool_result(model, 2)
