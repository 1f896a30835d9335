"""A turn's MCP server asks for sign-in, in Firefox as in Chromium (tests/e2e/test_mcp_sign_in_turn.py):
the panel asks, and only on yes does Firefox's own sign-in window open; its login page filled,
the turn goes on with the token and the call is asked as ever."""

from __future__ import annotations


from tests.helpers.model_server import Reply
from tests.helpers.oauth_mcp_server import PASSWORD, USER
from tests.helpers.panel_backends import firefox_panel
from tests.helpers.tool_calls import tool_call, told


def test_a_turn_asks_to_sign_in_then_calls_with_the_token(firefox, model, oauth_tracker):
    model.reset()
    context = firefox.open_sidebar_page()
    firefox.wait_for(context, "document.getElementById('python-status')?.dataset.ready === 'true'", 120,
                     "Python never became ready")
    chat = firefox_panel(firefox, context)
    chat.new_conversation()
    chat.configure(model.base_url)
    server = {"id": "id-tracker", "name": "tracker", "url": oauth_tracker.url, "enabled": True, "tools": {}}
    chat.ask_background("save-mcp-servers", servers=[server], secrets={})
    try:
        model.script(tool_call("tracker__whoami"), Reply(text="You are user-1815."))
        chat.send("Who am I on the tracker?")
        assert chat.question(0, timeout=90)["message"] == "The MCP server tracker asks you to sign in"
        chat.answer_question(0, "once")
        login = firefox.context_showing(f"{oauth_tracker.issuer}/login")
        firefox.submit_form(login, {"username": USER, "password": PASSWORD})
        assert chat.question(1, timeout=60)["message"] == "Call a tool of the MCP server tracker"
        chat.answer_question(1, "once")
        chat.wait_for_status("ok")
        assert "signed in as user-1815" in told(model, 1)
    finally:
        chat.ask_background("save-mcp-servers", servers=[], secrets={})
