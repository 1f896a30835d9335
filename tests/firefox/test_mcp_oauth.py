"""Signing in to an MCP server with OAuth 2.1 in Firefox (tests/helpers/oauth_mcp_server.py:
the official Python SDK's auth pieces on two ports of 127.0.0.1): Sign in in settings opens
Firefox's own sign-in window (identity.launchWebAuthFlow, redirected to the address Firefox
gives the add-on, extensions.allizom.org), its login page is filled, settings say who is
signed in, Test connection reaches the server with the token, and Sign out forgets it."""

from __future__ import annotations

import json

from tests.helpers.oauth_mcp_server import CLIENT_ID, CLIENT_SECRET, PASSWORD, USER

from tests.helpers.panel_backends import FirefoxPanel

SERVER_ID = "id-tracker"
SIGN_IN = "document.querySelector('.mcp-sign-in-button')"


def settings_with(firefox, server_url: str) -> tuple[str, FirefoxPanel]:
    """Settings in a tab of their own, with the one MCP server at `server_url` saved, once its
    Sign in is drawn: the tab, and a driver of it (it speaks to the background as the chat does)."""
    settings = firefox.open_tab(firefox.url("extension/options/options.html"))
    settings_page = FirefoxPanel(firefox, settings)
    server = {"id": SERVER_ID, "name": "tracker", "url": server_url, "enabled": True, "tools": {}}
    settings_page.ask_background("save-mcp-servers", servers=[server], secrets={})
    firefox.send("browsingContext.reload", {"context": settings, "wait": "complete"})
    firefox.wait_for(settings, SIGN_IN)
    return settings, settings_page


def sign_in_as_a_person(firefox, settings: str, tracker) -> None:
    """Presses Sign in, fills the login page Firefox's sign-in window shows, and waits until
    settings say who is signed in."""
    firefox.evaluate(settings, f"({SIGN_IN}.click(), true)")
    login = firefox.context_showing(f"{tracker.issuer}/login")
    firefox.submit_form(login, {"username": USER, "password": PASSWORD})
    said = firefox.wait_for(settings, "document.querySelector('.mcp-signed-in')?.textContent", 60,
                            "settings never said who is signed in")
    assert said == "Signed in as Ada Lovelace (ada@example.test)"


def sign_out(firefox, settings: str) -> None:
    firefox.evaluate(settings, "(document.querySelector('.mcp-sign-out').click(), true)")
    firefox.wait_for(settings, SIGN_IN)


def test_sign_in_through_firefox_s_own_window_then_sign_out(firefox, oauth_tracker):
    settings, settings_page = settings_with(firefox, oauth_tracker.url)
    sign_in_as_a_person(firefox, settings, oauth_tracker)
    checked = settings_page.ask_background("check-mcp-server", serverId=SERVER_ID)
    assert checked["ok"] and checked["server"] == "tabagent-oauth-test-server", checked
    redirect = [s for s in oauth_tracker.seen() if s["path"] == "/register"]
    assert redirect  # registered by itself, with Firefox's redirect address

    sign_out(firefox, settings)
    refused = settings_page.ask_background("check-mcp-server", serverId=SERVER_ID)
    assert not refused["ok"] and "needs authorisation" in refused["error"]
    assert [s for s in oauth_tracker.seen() if s["path"] == "/revoke"]
    settings_page.ask_background("save-mcp-servers", servers=[], secrets={})


def test_a_typed_client_secret_goes_to_the_token_endpoint_only(firefox, confidential_tracker):
    """The secret is typed in settings, the sign-in uses it (the token endpoint checks it), and
    afterwards it is not in the field, not in what an export writes or the server list, and no
    request but the token request carried it."""
    settings, settings_page = settings_with(firefox, confidential_tracker.url)
    settings_page.type_into(".mcp-client-id", CLIENT_ID)
    settings_page.type_into(".mcp-client-secret", CLIENT_SECRET)
    sign_in_as_a_person(firefox, settings, confidential_tracker)
    carried = [(seen["side"], seen["path"]) for seen in confidential_tracker.seen(everywhere=True) if seen["secret"]]
    assert carried == [("authorization server", "/token")]
    # in the form, as the client was registered, though the metadata lists HTTP Basic first
    assert [seen["client_auth"] for seen in confidential_tracker.seen() if seen["path"] == "/token"] == ["post"]
    shown = firefox.evaluate(settings, "document.documentElement.outerHTML + JSON.stringify("
                                       "[...document.querySelectorAll('input')].map((i) => i.value))")
    assert CLIENT_SECRET not in shown
    kept = firefox.evaluate(settings, "import('/extension/shared/settings/mcp-sign-ins.js').then((m) => m.loadSignIns())")
    assert kept[SERVER_ID]["client_secret"] == CLIENT_SECRET  # kept like the API key (the extension's IndexedDB)
    stored = firefox.evaluate(settings, "browser.storage.local.get(null)")  # what content scripts could read
    assert CLIENT_SECRET not in json.dumps(stored)
    assert CLIENT_SECRET not in json.dumps(settings_page.stored_conversations())  # what an export writes
    sign_out(firefox, settings)
    assert [seen["path"] for seen in confidential_tracker.seen(everywhere=True) if seen["secret"]] == ["/token"]
    settings_page.ask_background("save-mcp-servers", servers=[], secrets={})
