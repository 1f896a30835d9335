"""Signing in to an MCP server from the terminal (tabagent/app/cli_sign_in.py), against the real
MCP server and authorization server of tests/helpers/oauth_mcp_server.py: `--sign-in NAME` prints
the authorization address, the browser (here a person logging in, in place of `webbrowser.open`)
comes back to a listener on 127.0.0.1, the code is exchanged with PKCE and the token kept in a file
of the user's only; later runs send it to that server, refreshed when it has expired."""

from __future__ import annotations

import asyncio
import stat
import webbrowser
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tabagent.app import cli
from tabagent.app.cli_sign_in import SignIns, TerminalSignIn
from tabagent.hosts.cpython import CPythonHost
from tabagent.mcp import MCPClient
from tests.helpers.oauth_mcp_server import log_in_as_a_person

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def person(monkeypatch, tmp_path):
    """The person at the browser: logs in at the address TabAgent opens and follows the redirect back."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    opened = []

    def open_(address, *args, **kwargs):
        opened.append(address)
        back = log_in_as_a_person(address)
        opened.append(back)
        assert httpx.get(back, timeout=10).status_code == 200
        return True

    monkeypatch.setattr(webbrowser, "open", open_)
    return opened


async def whoami(server, headers):
    async with MCPClient(server.url, host=CPythonHost(), headers=headers) as client:
        return (await client.call_tool("whoami", {}))["content"][0]["text"]


def test_sign_in_comes_back_to_127_0_0_1_and_keeps_the_token_for_its_owner_only(oauth_tracker, person, tmp_path, capsys):
    assert cli.main(["--mcp", f"guarded={oauth_tracker.url}", "--sign-in", "guarded"]) == 0
    said = capsys.readouterr().err
    assert person[0] in said and "signed in to guarded as Ada Lovelace" in said
    redirect = parse_qs(urlsplit(person[0]).query)["redirect_uri"][0]
    assert redirect.startswith("http://127.0.0.1:") and redirect.endswith("/callback")
    assert parse_qs(urlsplit(person[0]).query)["code_challenge_method"] == ["S256"]
    kept = tmp_path / "tabagent" / "mcp-sign-ins.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    record = SignIns().get(oauth_tracker.url)
    assert record["access_token"] and record["who"] == "Ada Lovelace (ada@example.test)"


async def test_a_later_run_sends_the_kept_token_to_its_server_refreshed_when_expired(oauth_tracker, person):
    assert await asyncio.to_thread(cli.main, ["--mcp", f"guarded={oauth_tracker.url}", "--sign-in", "guarded"]) == 0
    sign_ins, host = SignIns(), CPythonHost()
    signing = TerminalSignIn([{"id": "guarded", "url": oauth_tracker.url}], sign_ins, host, can_ask=False)
    headers = await signing.headers({})
    assert await whoami(oauth_tracker, headers["guarded"]) == "signed in as user-1815"
    record = sign_ins.get(oauth_tracker.url)
    sign_ins.keep({**record, "expires_at": host.now() - 1})  # as if it had expired
    fresh = await signing.headers({})
    assert fresh["guarded"] != headers["guarded"] and sign_ins.get(oauth_tracker.url)["access_token"] != record["access_token"]
    assert await whoami(oauth_tracker, fresh["guarded"]) == "signed in as user-1815"
    asked = await signing.sign_in("guarded", "", interactive=False)  # a 401 mid-turn: refreshed, nobody asked
    assert asked["ok"] and asked["authorization"].startswith("Bearer ")


def test_sign_out_forgets_the_token_and_revokes_it(oauth_tracker, person, capsys):
    assert cli.main(["--mcp", f"guarded={oauth_tracker.url}", "--sign-in", "guarded"]) == 0
    before = len(oauth_tracker.seen())
    assert cli.main(["--mcp", f"guarded={oauth_tracker.url}", "--sign-out", "guarded"]) == 0
    assert SignIns().get(oauth_tracker.url) is None
    assert [seen["path"] for seen in oauth_tracker.seen()[before:]] == ["/revoke"]


def test_a_server_not_given_with_mcp_is_a_usage_error(capsys):
    assert cli.main(["--sign-in", "nowhere"]) == cli.USAGE_ERROR
    assert "give it with --mcp nowhere=URL" in capsys.readouterr().err
