"""A kept MCP sign-in whose access token has expired, before a turn, in both browsers: the service
worker refreshes it before the turn starts (background/mcp-sign-in.js `loadMcpServersSignedIn`,
the token due within five minutes), the turn's call goes through with the new token without a
word to the user, and the record keeps what the authorization server answered (a new access
token, the refresh token it rotated, a later expiry). A refresh the authorization server refuses
(the refresh token revoked there) asks the user, in words, to sign in again; said no, the turn
still ends with the model's answer, the conversation is kept, and so is the record.

The sign-in is made here, as the extension's Python makes it (tabagent.mcp.oauth, the login page
filled as a person would), and kept in the extension's secrets storage with an expiry in the past,
as time would leave it; the server ends its access tokens (`expire_tokens`) so that only a
refreshed token is taken. No sleep."""

from __future__ import annotations

import json
import time

import pytest

from tests.helpers.mcp_settings import server_entry, use_servers
from tests.helpers.model_server import Reply
from tests.helpers.oauth_mcp_server import signed_in_record
from tests.helpers.page_content import page_content
from tests.helpers.tool_calls import tool_call, told

REDIRECT = "https://abcdefghijklmnop.chromiumapp.org/"  # the record is made here, not in the browser's window
SIGN_INS = "import(chrome.runtime.getURL('extension/shared/settings/mcp-sign-ins.js'))"
QUESTIONS = "[...[...document.querySelectorAll('article.turn')].at(-1).querySelectorAll('.confirmation')].length"


def keep(panel, record: dict) -> None:
    panel.run(f"{SIGN_INS}.then((m) => m.keepSignIn('id-tracker', {json.dumps(record)})).then(() => true)")


def kept(panel) -> dict | None:
    return panel.run(f"{SIGN_INS}.then((m) => m.loadSignIns()).then((all) => all['id-tracker'] ?? null)")


@pytest.fixture
def expired(panel, oauth_tracker):
    """The tracker saved in the settings, its sign-in kept as expired a minute ago, and every
    access token the server gave ended there: the record as it was kept."""
    record = signed_in_record(oauth_tracker.url, REDIRECT)
    use_servers(panel, server_entry(oauth_tracker, name="tracker"))
    record = {**record, "expires_at": int(time.time()) - 60}
    keep(panel, record)
    oauth_tracker.expire_tokens()
    yield record
    use_servers(panel)


def test_an_expired_sign_in_is_refreshed_before_the_turn_and_the_call_takes_the_new_token(panel, model, oauth_tracker, expired):
    before = len(oauth_tracker.seen(everywhere=True))
    model.script(tool_call("tracker__whoami"), Reply(text="You are user-1815."))
    panel.send("Who am I on the tracker?")
    assert panel.question(0, timeout=60)["message"] == "Call a tool of the MCP server tracker"
    panel.answer_question(0, "once")
    assert panel.wait_for_status("ok", "error", timeout=60) == "ok"
    assert page_content(told(model, 1))[1] == "signed in as user-1815"
    assert panel.run(QUESTIONS) == 1  # no sign-in asked
    during = oauth_tracker.seen(everywhere=True)[before:]
    # The refresh came first, before the turn's first request to the MCP server: none was refused.
    assert (during[0]["side"], during[0]["path"]) == ("authorization server", "/token")
    assert [s["path"] for s in during if s["side"] == "authorization server"] == ["/token"]
    fresh = kept(panel)
    assert fresh["access_token"] != expired["access_token"] and fresh["access_token"].startswith("at-")
    assert fresh["refresh_token"] != expired["refresh_token"] and fresh["refresh_token"].startswith("rt-")  # rotated, kept
    assert fresh["expires_at"] > time.time() + 60
    assert fresh["access_token"] not in json.dumps(panel.stored_conversations())


def test_a_refresh_the_provider_refuses_asks_to_sign_in_again_and_loses_nothing(panel, model, oauth_tracker, expired):
    oauth_tracker.revoke_refresh_tokens()
    model.script(Reply(text="I could not reach the tracker: sign in to it again."))
    panel.send("Who am I on the tracker, since my sign-in ended?")
    asked = panel.question(0, timeout=60)
    assert asked["message"] == ("Your sign-in to the MCP server tracker has ended and could not be renewed: "
                                "sign in again?")
    panel.answer_question(0, "deny")
    assert panel.wait_for_status("ok", "error", timeout=60) == "ok"
    assert panel.answer() == "I could not reach the tracker: sign in to it again."
    saved = panel.saved_conversation("Who am I on the tracker, since my sign-in ended?")
    assert saved["turns"][-1]["status"] == "ok"
    assert kept(panel) == expired  # the sign-in is still there, for settings to show and the user to renew
