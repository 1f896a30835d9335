"""Red team for MCP Apps (Chromium): a server's app that attacks its host (tests/helpers/mcp_apps/
hostile.js), shown in the same turn as another server's... and another app of the same server.
It tries the extension's APIs, the panel's DOM and storage, forged JSON-RPC to every frame of
the panel (a tools/call as if from the counter app, a tool result to repaint the counter, an
answer to a question), leaving by navigation (top, parent, itself, a popup) and the network
beyond the one origin it declares (fetch, image, stylesheet, CSS url, beacon, frame), with a
declaration written to widen its CSP; then it calls tools it may not: another server's, and a
model-only one of its own. Every request that gets out lands on the `post` tripwire."""

import pytest

from tests.helpers.app_frames import in_app
from tests.helpers.mcp_settings import server_entry, use_servers
from tests.helpers.model_server import Reply
from tests.helpers.quiet import stays_quiet
from tests.helpers.tool_calls import tool_call

pytestmark = pytest.mark.e2e

SEEN = "JSON.parse(document.getElementById('seen').textContent || '{}')"
FINISHED = f"(({SEEN}).call_model_only && ({SEEN}).declared && ({SEEN}).fetch) ? {SEEN} : null"
APPS = "[...document.querySelectorAll('article.turn')].at(-1).querySelectorAll('.mcp-app')"
NETWORK = "[...document.querySelectorAll('article.turn')].at(-1).querySelectorAll('.mcp-app .app-network')[1].textContent"


def test_a_hostile_app_reaches_neither_the_extension_nor_other_frames_nor_the_network(panel, model, apps, mcp, post, declared):
    use_servers(panel, server_entry(apps, name="apps"), server_entry(mcp, name="other"))
    chat = panel
    try:
        model.script(tool_call("apps__show_counter", start=5), tool_call("apps__show_hostile"), Reply(text="Both shown."))
        chat.send("Show the counter and the dashboard")
        chat.question(0)
        chat.answer_question(0, "once")
        chat.question(1)
        chat.answer_question(1, "once")
        chat.wait_for_status("ok")
        assert in_app(chat, 0, "document.body.dataset.ready === 'yes' && document.getElementById('count').textContent") == "5"
        seen = in_app(chat, 1, FINISHED, timeout=60)
        assert in_app(chat, 1, "window.leave()") == "asked"  # its last way out, now that it is read
        stays_quiet(lambda: post.hits, 3, why="the hostile app reached the network")
        panel.screenshot("mcp-app-hostile")
        assert seen["chrome"] == "no extension API" and seen["browser"] == "no extension API"
        assert seen["origin"] == "null"
        assert all(seen[key].startswith("blocked: SecurityError") for key in ("parent_dom", "top_dom", "top_storage"))
        assert seen["open"] == "no window"
        # Only its own server, only the tools apps may call: asked of nobody, reaching nobody.
        assert seen["call_add"] == "refused: The MCP server apps has no tool named 'add'."
        assert seen["call_other__add"] == "refused: The MCP server apps has no tool named 'other__add'."
        assert seen["call_model_only"] == "refused: The tool 'model_only' of apps is not one its apps may call."
        # The network: the one origin it declared, nothing else; the declaration that tried to
        # widen its CSP was dropped, and the user is shown what it may reach.
        assert seen["declared"] == "reached" and seen["fetch"] == "blocked"
        assert [hit["path"] for hit in declared.hits] == ["/declared"]
        assert post.hits == []
        assert chat.run(NETWORK) == f"This app may connect to: {declared.origin}"
        # The forged messages fooled nobody: the counter kept its count and asked nothing; the
        # forged tools/call counts as the hostile app's own (the one frame it can speak through),
        # so it is a question under the hostile app, unanswered, and nothing reached the server.
        assert in_app(chat, 0, "document.getElementById('count').textContent") == "5"
        assert apps.bumps() == []
        assert chat.run(f"{APPS}[0].querySelectorAll('.confirmation').length") == 0
        asked = chat.run(f"[...{APPS}[1].querySelectorAll('.confirmation')].map((b) => [b.dataset.state, b.querySelector('[data-detail=tool]').textContent])")
        assert asked == [["asking", "bump"]]
        assert chat.status() == "ok"
    finally:
        use_servers(panel)
