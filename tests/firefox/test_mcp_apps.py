"""MCP Apps in Firefox, as in Chromium (tests/e2e/test_mcp_apps.py and its red team): the model
calls a tool that names a `ui://` app (tests/helpers/mcp_app_server.py, the official Python SDK,
its apps on the official App SDK); the chat shows the app's own view, walled in (Firefox frames
the app frame with the sandbox attribute; its page carries the policy itself), and the app's
call back waits for the user: denied, nothing reaches the server; allowed, it does. A hostile
app reaches no extension API, no frame of the chat and no network but the origin it declares."""

from __future__ import annotations

import base64
import time

from tests.helpers.app_frames import app_contexts, in_app
from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import firefox_panel
from tests.helpers.tool_calls import call

from tests.helpers.panel_driver import PanelDriver

COUNT = "document.body.dataset.ready === 'yes' && document.getElementById('count').textContent"
SAID = "document.getElementById('said').textContent"
SEEN = "JSON.parse(document.getElementById('seen').textContent || '{}')"
FINISHED = f"(({SEEN}).call_model_only && ({SEEN}).declared && ({SEEN}).fetch) ? {SEEN} : null"


def entry(server, name):
    return {"id": f"id-{name}", "name": name, "url": server.url, "enabled": True, "tools": {}}


def chat_with(firefox, model, *servers) -> PanelDriver:
    model.reset()
    context = firefox.open_sidebar_page()
    firefox.wait_for(context, "document.getElementById('python-status')?.dataset.ready === 'true'", 120, "Python never became ready")
    chat = firefox_panel(firefox, context)
    chat.new_conversation()
    chat.configure(model.base_url)
    chat.ask_background("save-mcp-servers", servers=list(servers), secrets={})
    return chat


def forget_the_apps_own_errors(firefox, chat) -> None:
    """What an app's own page logs (the eval its SDK tries, which its CSP refuses) is the app's,
    not the extension's: left out of the check for errors in the extension."""
    apps_own = app_contexts(firefox, chat.backend.context)
    firefox.problems[:] = [p for p in firefox.problems if p.split(":", 1)[0] not in apps_own]


def screenshot(firefox, chat, name):
    from tests.helpers.browser import ROOT

    data = firefox.send("browsingContext.captureScreenshot", {"context": chat.backend.context})["data"]
    (ROOT / "screenshots").mkdir(exist_ok=True)
    (ROOT / "screenshots" / f"{name}.png").write_bytes(base64.b64decode(data))


def test_an_app_is_shown_and_calls_its_server_only_as_the_user_allows(firefox, model, apps):
    chat = chat_with(firefox, model, entry(apps, "apps"))
    try:
        model.script(call("apps__show_counter", start=5), Reply(text="There is your counter."))
        chat.send("Show me a counter from 5")
        chat.question(0)
        chat.answer_question(0, "once")
        chat.wait_for_status("ok")
        assert in_app(chat, 0, COUNT) == "5"
        screenshot(firefox, chat, "firefox-mcp-app-in-step")
        assert in_app(chat, 0, "document.getElementById('bump').click() ?? 'pressed'") == "pressed"
        assert chat.question(1)["message"] == "The app of the MCP server apps asks to call one of its tools"
        chat.answer_question(1, "deny")
        assert in_app(chat, 0, f"{SAID}.startsWith('bump refused') && {SAID}").startswith("bump refused: The user denied")
        assert apps.bumps() == []
        assert in_app(chat, 0, "document.getElementById('bump').click() ?? 'pressed'") == "pressed"
        chat.question(2)
        chat.answer_question(2, "once")
        assert in_app(chat, 0, f"{SAID} === 'bump: ok' && document.getElementById('count').textContent") == "6"
        assert apps.bumps() == [1]
    finally:
        forget_the_apps_own_errors(firefox, chat)
        chat.ask_background("save-mcp-servers", servers=[], secrets={})


def test_a_hostile_app_reaches_neither_the_extension_nor_the_network(firefox, model, apps, post, declared):
    chat = chat_with(firefox, model, entry(apps, "apps"))
    bumped = apps.bumps()
    try:
        model.script(call("apps__show_hostile"), Reply(text="Shown."))
        chat.send("Show the dashboard")
        chat.question(0)
        chat.answer_question(0, "once")
        chat.wait_for_status("ok")
        seen = in_app(chat, 0, FINISHED, timeout=60)
        time.sleep(2)
        screenshot(firefox, chat, "firefox-mcp-app-hostile")
        assert seen["chrome"] == "no extension API" and seen["browser"] == "no extension API"
        assert seen["origin"] == "null"
        assert all(seen[key].startswith("blocked: SecurityError") for key in ("parent_dom", "top_dom", "top_storage"))
        assert seen["call_model_only"] == "refused: The tool 'model_only' of apps is not one its apps may call."
        assert seen["declared"] == "reached" and seen["fetch"] == "blocked"
        assert [hit["path"] for hit in declared.hits] == ["/declared"]
        assert post.hits == []
        assert apps.bumps() == bumped  # its forged tools/call is its own: asked, unanswered, never run
    finally:
        forget_the_apps_own_errors(firefox, chat)
        chat.ask_background("save-mcp-servers", servers=[], secrets={})
