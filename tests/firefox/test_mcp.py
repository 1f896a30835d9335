"""MCP servers in Firefox, against the real server of tests/helpers/mcp_server.py (the official
Python SDK, on 127.0.0.1, checking the Origin header as the SDK does): a server saved through
the extension's messages answers Test connection with its tools, and a ToolCallingAgent turn's
call of an MCP tool waits for the user in the chat, reaches the server with the server's secret
header once allowed, and comes back to the model marked as untrusted content; the header, once
used, is still out of a content script's reach (test_secrets.py's probe)."""

from __future__ import annotations

import json

import pytest

from tests.e2e.page_tabs import page_content
from tests.helpers.mcp_server import MCPTestServer
from tests.helpers.model_server import Reply
from tests.helpers.page_server import PageServer

from .red_team import as_content_script
from .sidebar import LAST_TURN, ask_background, configure, open_chat, send, turn_status, wait_for_status
from .test_secrets import PAGES, READ_EVERYTHING

SECRET = {"X-Team": "blue-secret"}
CONFIRMATION = f"{LAST_TURN}?.querySelector('.confirmation')"
# The confirmation on screen, as the user reads it: its message and its details.
ASKED = f"""{CONFIRMATION}?.dataset.state === 'asking' && {{
  message: {CONFIRMATION}.querySelector('.confirmation-message').textContent,
  details: Object.fromEntries([...{CONFIRMATION}.querySelectorAll('dd')].map((dd) => [dd.dataset.detail, dd.textContent])),
}}"""


@pytest.fixture(scope="module")
def mcp():
    with MCPTestServer() as server:
        yield server


@pytest.fixture
def chat(firefox, model, mcp):
    """A new conversation with the scripted model, and the lab server saved with its secret header."""
    model.reset()
    context = open_chat(firefox)
    configure(firefox, context, model.base_url)
    use_lab(firefox, context, mcp, SECRET)
    yield context
    ask_background(firefox, context, "save-mcp-servers", servers=[], secrets={})


def use_lab(firefox, context, mcp, headers):
    server = {"id": "id-lab", "name": "lab", "url": mcp.url, "enabled": True, "tools": {}}
    ask_background(firefox, context, "save-mcp-servers", servers=[server], secrets={"id-lab": headers})


def test_test_connection_answers_with_the_server_s_tools(firefox, chat):
    checked = ask_background(firefox, chat, "check-mcp-server", serverId="id-lab")
    assert checked["ok"], checked
    assert checked["server"] == "tabagent-test-server" and checked["protocol"] == "2025-11-25"
    tools = {tool["name"] for tool in checked["tools"]}
    assert {"echo", "add", "slow", "fail", "huge", "grow", "whoami"} <= tools


def test_a_tool_call_waits_for_the_user_then_reaches_the_server_and_the_model_as_untrusted(firefox, chat, model):
    model.script(Reply(tool_calls=[{"name": "lab__whoami", "arguments": {}}]), Reply(text="You are on the blue team."))
    send(firefox, chat, "Which team am I on? Ask the lab.")
    asked = firefox.wait_for(chat, ASKED, 60, "the MCP call was never asked about")
    assert asked["message"] == "Call a tool of the MCP server lab"
    assert asked["details"]["server"] == "lab" and asked["details"]["tool"] == "whoami"
    assert turn_status(firefox, chat) == "running" and len(model.requests) == 1  # waiting for the user
    firefox.evaluate(chat, f"{CONFIRMATION}.querySelector('button[data-decision=\"once\"]').click()")
    assert wait_for_status(firefox, chat, "ok", "error") == "ok"
    told = [m for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]["content"]
    source, content = page_content(told)
    assert source == "MCP server lab, tool whoami"
    # What the server saw: the secret header, and no Origin (the local-server rule took it off).
    assert "x-team=blue-secret" in content and "origin=" not in content, content
    offered = {tool["function"]["name"] for tool in model.requests[0]["body"]["tools"]}
    assert "lab__whoami" in offered


def test_the_header_once_used_is_still_out_of_a_content_script_s_reach(firefox, chat, mcp):
    use_lab(firefox, chat, mcp, {"Authorization": "Bearer lab-token-in-use"})
    assert ask_background(firefox, chat, "check-mcp-server", serverId="id-lab")["ok"]  # the header went out
    with PageServer(PAGES) as site:
        page = site.url("article.html") + "?mcp"
        firefox.open_tab(page)
        seen = as_content_script(firefox, chat, page, READ_EVERYTHING)
    assert seen["local"]["mcpServers"][0]["url"] == mcp.url  # the probe reads storage.local ...
    assert "lab-token-in-use" not in json.dumps(seen), seen  # ... and finds no header there or anywhere
    assert seen["database"] == [], seen  # the page's origin has no such database
