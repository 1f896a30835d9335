"""MCP Apps attacked in Firefox, as in Chromium (tests/e2e/test_red_team_mcp_apps.py): a hostile
app (tests/helpers/mcp_app_server.py, the official Python SDK, its apps on the official App SDK)
shown in the chat, walled in (Firefox frames the app frame with the sandbox attribute; its page
carries the policy itself), reaches no extension API, no frame of the chat and no network but the
origin it declares. An app shown and calling back under consent, in both browsers:
tests/both/test_mcp_apps.py."""

from __future__ import annotations

from tests.helpers.app_frames import forget_the_apps_own_errors, in_app
from tests.helpers.mcp_settings import server_entry, use_servers
from tests.helpers.model_server import Reply
from tests.helpers.quiet import stays_quiet
from tests.helpers.tool_calls import tool_call

SEEN = "JSON.parse(document.getElementById('seen').textContent || '{}')"
FINISHED = f"(({SEEN}).call_model_only && ({SEEN}).declared && ({SEEN}).fetch) ? {SEEN} : null"


def test_a_hostile_app_reaches_neither_the_extension_nor_the_network(panel, model, apps, post, declared):
    chat = panel
    use_servers(chat, server_entry(apps, name="apps"))
    bumped = apps.bumps()
    try:
        model.script(tool_call("apps__show_hostile"), Reply(text="Shown."))
        chat.send("Show the dashboard")
        chat.question(0)
        chat.answer_question(0, "once")
        chat.wait_for_status("ok")
        seen = in_app(chat, 0, FINISHED, timeout=60)
        assert in_app(chat, 0, "window.leave()") == "asked"  # its last way out, now that it is read
        stays_quiet(lambda: post.hits, 3, why="the hostile app reached the network")
        chat.screenshot("mcp-app-hostile")
        assert seen["chrome"] == "no extension API" and seen["browser"] == "no extension API"
        assert seen["origin"] == "null"
        assert all(seen[key].startswith("blocked: SecurityError") for key in ("parent_dom", "top_dom", "top_storage"))
        assert seen["call_model_only"] == "refused: The tool 'model_only' of apps is not one its apps may call."
        assert seen["declared"] == "reached" and seen["fetch"] == "blocked"
        assert [hit["path"] for hit in declared.hits] == ["/declared"]
        assert post.hits == []
        assert apps.bumps() == bumped  # its forged tools/call is its own: asked, unanswered, never run
    finally:
        forget_the_apps_own_errors(chat)
        use_servers(chat)
