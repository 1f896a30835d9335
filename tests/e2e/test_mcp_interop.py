"""MCP servers nobody here wrote, through the whole extension: the MCP project's reference
server (`@modelcontextprotocol/server-everything`, whose tools are named get-sum, get-tiny-image...)
called from the model's Python in the sandbox, and a server that answers with a redirect
(Chromium gives Python a response with no status and a null body)."""

import pytest

from tests.helpers.mcp_server import MCPTestServer
from tests.helpers.model_server import Reply

from tests.helpers.mcp_settings import check, server_entry, use_servers

pytestmark = pytest.mark.e2e


def test_the_model_s_python_calls_the_reference_server_s_hyphenated_tools(panel, model, everything):
    use_servers(panel, server_entry(everything, name="everything"))
    panel.configure(model.base_url, agent="code")
    try:
        code = "print(everything__get_sum(a=2, b=40))"
        model.script(Reply(text=f"Adding on the server.\n```python\n{code}\n```"), Reply(text="42."))
        panel.send("2 + 40 with the everything server, in code")
        asked = panel.question(0)
        assert asked["message"] == "Call a tool of the MCP server everything"
        assert asked["details"]["tool"] == "get-sum"  # the tool's own name, not the Python one
        panel.answer_question(0, "once")
        panel.wait_for_status("ok", timeout=60)
    finally:
        panel.configure(model.base_url, agent="tool_calling")
        use_servers(panel)
    prompt = model.requests[0]["body"]["messages"][0]["content"]
    assert "- everything__get_sum(a, b)" in prompt
    assert 'messageType: "error" | "success" | "debug"' in prompt  # the values it takes, in any window
    observation = model.requests[1]["body"]["messages"][-1]["content"]
    assert "The sum of 2 and 40 is 42." in observation and "NameError" not in observation, observation


def test_a_server_that_redirects_is_an_error_in_words_and_the_turn_goes_on(panel, model):
    with MCPTestServer() as lab:  # its endpoint is /mcp: /mcp/ is redirected there
        use_servers(panel, {**server_entry(lab), "url": lab.url + "/"})
        try:
            result = check(panel)
            assert not result["ok"]
            assert result["error"].startswith(f"the MCP server at {lab.url}/ answered with a redirect, which "
                                              f"TabAgent does not follow"), result
            model.script(Reply(text="Answered without the lab."))
            panel.send("Hello")
            panel.wait_for_status("ok", timeout=60)
        finally:
            use_servers(panel)
    notice = panel.driver.find_element("css selector", "article.turn .error.kind-mcp").text
    assert notice.startswith(f"The MCP server lab is left out of this turn: the MCP server at {lab.url}/ answered "
                             f"with a redirect"), notice
    assert "Traceback" not in notice and "AttributeError" not in notice
