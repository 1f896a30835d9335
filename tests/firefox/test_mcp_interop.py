"""MCP servers nobody here wrote, in Firefox: the MCP project's reference server
(`@modelcontextprotocol/server-everything`, tools named get-sum...) called from the model's
Python in Firefox's sandbox, and a server that answers with a redirect (Firefox, like Chromium,
gives Python a response with status 0 and a null body)."""

from __future__ import annotations

from tests.helpers.mcp_server import MCPTestServer
from tests.helpers.model_server import Reply


def use_server(panel, name, url):
    server = {"id": f"id-{name}", "name": name, "url": url, "enabled": True, "tools": {}}
    panel.ask_background("save-mcp-servers", servers=[server], secrets={})


def test_the_model_s_python_calls_the_reference_server_s_hyphenated_tools(panel, model, everything):
    panel.configure(model.base_url, agent="code")
    use_server(panel, "everything", everything.url)
    try:
        model.script(Reply(text="Adding.\n```python\nprint(everything__get_sum(a=2, b=40))\n```"), Reply(text="42."))
        panel.send("2 + 40 with the everything server, in code")
        asked = panel.question(0, timeout=120)
        assert asked["message"] == "Call a tool of the MCP server everything"
        assert asked["details"]["tool"] == "get-sum"  # the tool's own name, not the Python one
        panel.answer_question(0, "once")
        assert panel.wait_for_status("ok", "error", timeout=120) == "ok"
    finally:
        panel.ask_background("save-mcp-servers", servers=[], secrets={})
    assert "- everything__get_sum(a, b)" in model.requests[0]["body"]["messages"][0]["content"]
    observation = model.requests[1]["body"]["messages"][-1]["content"]
    assert "The sum of 2 and 40 is 42." in observation and "NameError" not in observation, observation


def test_a_server_that_redirects_is_an_error_in_words(panel):
    with MCPTestServer() as lab:  # its endpoint is /mcp: /mcp/ is redirected there
        use_server(panel, "lab", lab.url + "/")
        try:
            checked = panel.ask_background("check-mcp-server", serverId="id-lab")
        finally:
            panel.ask_background("save-mcp-servers", servers=[], secrets={})
    assert not checked["ok"]
    assert checked["error"].startswith(f"the MCP server at {lab.url}/ answered with a redirect, which TabAgent "
                                       f"does not follow"), checked
