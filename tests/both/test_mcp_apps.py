"""MCP Apps in each browser's panel, against a real server written with the official Python SDK
whose app is built on the official App SDK (tests/helpers/mcp_app_server.py): the model calls a
tool that names a `ui://` app, the step shows the app's own view (walled in: app-frame/), and
the app calls its server's tool back under the same consent as a model's call: denied, nothing
reaches the server; allowed, it does. The attacks on this surface: tests/e2e/
test_red_team_mcp_apps.py (Chromium), tests/firefox/test_mcp_apps.py (Firefox)."""

from __future__ import annotations

import pytest

from tests.helpers.app_frames import forget_the_apps_own_errors, in_app
from tests.helpers.mcp_settings import server_entry, with_mcp_server
from tests.helpers.model_server import Reply
from tests.helpers.tool_calls import tool_call

COUNT = "document.body.dataset.ready === 'yes' && document.getElementById('count').textContent"
SAID = "document.getElementById('said').textContent"
LAST_APP = "[...document.querySelectorAll('article.turn')].at(-1).querySelector('.mcp-app')"


@pytest.fixture
def apps_chat(panel, apps):
    """`panel` with the apps server saved; after, the apps' own console errors set aside."""
    yield from with_mcp_server(panel, server_entry(apps, name="apps"))
    forget_the_apps_own_errors(panel)


def press(panel, button: str) -> None:
    assert in_app(panel, 0, f"document.getElementById({button!r}).click() ?? 'pressed'") == "pressed"


def test_an_app_is_shown_in_its_step_and_calls_its_server_only_as_the_user_allows(apps_chat, model, apps):
    chat = apps_chat
    earlier = len(apps.bumps())  # the server is the module's: the other browser's run bumped it too
    model.script(tool_call("apps__show_counter", start=5), Reply(text="There is your counter."))
    chat.send("Show me a counter from 5")
    assert chat.question(0)["message"] == "Call a tool of the MCP server apps"
    chat.answer_question(0, "once")
    chat.wait_for_status("ok")
    assert in_app(chat, 0, COUNT) == "5"  # the app's view, with the call's result
    assert chat.run(f"{LAST_APP}.querySelector('header').textContent").startswith("App of the MCP server apps")
    assert chat.run(f"{LAST_APP}.querySelector('.app-network').textContent") == "This app reaches no network."
    chat.screenshot("mcp-app-in-step")
    press(chat, "bump")
    asked = chat.question(1)  # the app's call, asked as the model's would be
    assert asked["message"] == "The app of the MCP server apps asks to call one of its tools"
    assert asked["details"]["tool"] == "bump"
    chat.screenshot("mcp-app-asks")
    chat.answer_question(1, "deny")
    assert in_app(chat, 0, f"{SAID}.startsWith('bump refused') && {SAID}").startswith("bump refused: The user denied")
    assert apps.bumps()[earlier:] == []  # denied: nothing reached the server
    press(chat, "bump")
    chat.question(2)
    chat.answer_question(2, "once")
    assert in_app(chat, 0, f"{SAID} === 'bump: ok' && document.getElementById('count').textContent") == "6"
    assert apps.bumps()[earlier:] == [1]
    chat.screenshot("mcp-app-bumped")
    offered = {t["function"]["name"] for t in model.requests[0]["body"]["tools"]}
    assert "apps__show_counter" in offered and "apps__bump" not in offered  # an app-only tool is not the model's
