"""Signing in to an MCP server with OAuth 2.1 (tabagent/mcp/oauth.py), against a real MCP server
and authorization server made of the official Python SDK's auth pieces, on two ports of
127.0.0.1 (tests/helpers/oauth_mcp_server.py): discovery from the 401, registration, PKCE, the
`resource` parameter, the login page filled as a person would, the token used for a call,
refresh, sign-out; and the sign-in details a hostile server sends, refused."""

import base64
import hashlib
import json
import re
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tabagent.hosts.cpython import CPythonHost
from tabagent.mcp import MCPClient, MCPError
from tabagent.mcp.oauth import finish_sign_in, plan_sign_in, refresh, sign_out
from tabagent.mcp.oauth_discovery import challenge
from tests.helpers.oauth_mcp_server import PASSWORD, USER, Hostile, OAuthMCPServer

pytestmark = pytest.mark.timeout(60)
REDIRECT = "https://abcdefghijklmnop.chromiumapp.org/"


@pytest.fixture(scope="module")
def server():
    with OAuthMCPServer(token_seconds=3) as running:
        yield running


def log_in_as_a_person(authorize_url: str, password: str = PASSWORD) -> str:
    """Opens the authorization address, fills the login page's form and submits it; the
    address the browser is sent back to."""
    with httpx.Client(follow_redirects=False, timeout=10) as browser:
        page = browser.get(authorize_url)
        assert page.status_code == 302, page.text
        login = browser.get(page.headers["location"])
        pending = re.search(r'name="pending" value="([^"]+)"', login.text).group(1)
        sent = browser.post(str(login.url.join("/login")), data={"pending": pending, "username": USER, "password": password})
        assert sent.status_code == 302, sent.text
        return sent.headers["location"]


async def signed_in(server, host):
    plan = await plan_sign_in(server.url, REDIRECT, host=host)
    return plan, await finish_sign_in(plan, log_in_as_a_person(plan["authorize_url"]), host=host)


async def call_whoami(server, record, host):
    async with MCPClient(server.url, host=host, headers={"Authorization": f"Bearer {record['access_token']}"}) as client:
        return (await client.call_tool("whoami", {}))["content"][0]["text"]


async def test_a_sign_in_found_from_the_401_gives_a_token_the_server_takes(server):
    host = CPythonHost()
    plan, record = await signed_in(server, host)
    query = parse_qs(urlsplit(plan["authorize_url"]).query)
    assert query["resource"] == [server.url] and query["code_challenge_method"] == ["S256"]
    challenge_sent = base64.urlsafe_b64encode(hashlib.sha256(plan["code_verifier"].encode()).digest()).rstrip(b"=").decode()
    assert query["code_challenge"] == [challenge_sent]
    assert query["redirect_uri"] == [REDIRECT] and query["scope"] == ["mcp openid"]
    assert plan["issuer"].rstrip("/") == server.issuer and plan["client_id"]  # registered by itself (RFC 7591)
    assert record["who"] == "Ada Lovelace (ada@example.test)"
    assert await call_whoami(server, record, host) == "signed in as user-1815"


async def test_without_a_token_the_server_is_refused_in_words(server):
    with pytest.raises(MCPError, match="needs authorisation"):
        async with MCPClient(server.url, host=CPythonHost()):
            pass


async def test_an_expired_token_is_refreshed_and_the_new_one_works(server):
    host = CPythonHost()
    _, record = await signed_in(server, host)
    assert record["expires_at"] - host.now() <= 3
    await host.sleep(3.5)
    with pytest.raises(MCPError, match="needs authorisation"):
        await call_whoami(server, record, host)
    fresh = await refresh(record, host)
    assert fresh["access_token"] != record["access_token"] and fresh["refresh_token"] != record["refresh_token"]
    assert fresh["who"] == record["who"]
    assert await call_whoami(server, fresh, host) == "signed in as user-1815"


async def test_sign_out_revokes_the_refresh_token_without_sending_the_access_token(server):
    host = CPythonHost()
    _, record = await signed_in(server, host)
    before = len(server.seen())
    await sign_out(record, host)
    revoked = [seen for seen in server.seen()[before:] if seen["path"] == "/revoke"]
    assert revoked and not any(seen["bearer"] for seen in server.seen())
    with pytest.raises(MCPError, match="refused the token request"):
        await refresh(record, host)


async def test_a_sign_in_answer_with_another_state_is_refused(server):
    host = CPythonHost()
    plan = await plan_sign_in(server.url, REDIRECT, host=host)
    ended = log_in_as_a_person(plan["authorize_url"])
    forged = re.sub(r"state=[^&]+", "state=someone-elses", ended)
    with pytest.raises(MCPError, match="state differs"):
        await finish_sign_in(plan, forged, host=host)
    with pytest.raises(MCPError, match="somewhere else"):
        await finish_sign_in(plan, ended.replace("chromiumapp.org", "evil.example"), host=host)


def test_the_challenge_is_read_with_quoted_and_bare_parameters():
    said = challenge('Bearer error="invalid_token", scope="files:read files:write", resource_metadata=https://a.example/x')
    assert said == {"error": "invalid_token", "scope": "files:read files:write", "resource_metadata": "https://a.example/x"}


async def test_resource_metadata_for_another_server_is_refused_before_any_sign_in(server):
    """A hostile server names the real server's authorization server and says its resource is
    the real server: the token would be made for the real server and sent to the hostile one."""
    metadata = json.dumps({"resource": server.url, "authorization_servers": [server.issuer]}).encode()
    hostile = Hostile({"/mcp": (401, {"www-authenticate": 'Bearer resource_metadata="http://127.0.0.1:{port}/prm"'}, b""),
                       "/prm": (200, {"content-type": "application/json"}, metadata)})
    before = len(server.seen())
    try:
        with pytest.raises(MCPError, match="sign-in details for another server"):
            await plan_sign_in(hostile.url, REDIRECT, host=CPythonHost())
    finally:
        hostile.close()
    assert server.seen()[before:] == []  # the authorization server never heard of it


async def test_an_authorization_server_that_calls_itself_another_is_refused(server):
    """The resource names an authorization server on another host (allowed) whose metadata
    says it is the real one (a mix-up): refused."""
    real = httpx.get(f"{server.issuer}/.well-known/oauth-authorization-server").content
    pretender = Hostile({"/.well-known/oauth-authorization-server": (200, {"content-type": "application/json"}, real)})
    metadata = json.dumps({"resource": "", "authorization_servers": [f"http://127.0.0.1:{pretender.port}"]})
    hostile = Hostile({"/mcp": (401, {"www-authenticate": "Bearer"}, b""),
                       "/.well-known/oauth-protected-resource/mcp": (200, {}, b"")})
    hostile.routes["/.well-known/oauth-protected-resource/mcp"] = (
        200, {"content-type": "application/json"}, metadata.replace('""', json.dumps(hostile.url)).encode())
    try:
        with pytest.raises(MCPError, match="calls itself"):
            await plan_sign_in(hostile.url, REDIRECT, host=CPythonHost())
    finally:
        hostile.close()
        pretender.close()


async def test_an_authorization_server_on_another_host_without_s256_is_refused(server):
    issuer = "http://127.0.0.1:{port}"
    hostile = Hostile({"/mcp": (401, {"www-authenticate": "Bearer"}, b"")})
    hostile.routes["/.well-known/oauth-protected-resource/mcp"] = (200, {}, json.dumps(
        {"resource": hostile.url, "authorization_servers": [issuer.format(port=hostile.port)]}).encode())
    hostile.routes["/.well-known/oauth-authorization-server"] = (200, {}, json.dumps(
        {"issuer": issuer.format(port=hostile.port), "authorization_endpoint": "http://127.0.0.1:1/a",
         "token_endpoint": "http://127.0.0.1:1/t", "code_challenge_methods_supported": ["plain"]}).encode())
    try:
        with pytest.raises(MCPError, match="PKCE with S256"):
            await plan_sign_in(hostile.url, REDIRECT, host=CPythonHost())
    finally:
        hostile.close()


async def test_metadata_at_a_plain_http_address_elsewhere_is_refused():
    hostile = Hostile({"/mcp": (401, {"www-authenticate": 'Bearer resource_metadata="http://metadata.example/prm"'}, b"")})
    try:
        with pytest.raises(MCPError, match="must be an https address"):
            await plan_sign_in(hostile.url, REDIRECT, host=CPythonHost())
    finally:
        hostile.close()


async def test_a_token_never_follows_a_redirect_to_another_site(server):
    host = CPythonHost()
    _, record = await signed_in(server, host)
    elsewhere = Hostile({})
    redirecting = Hostile({"/mcp": (307, {"location": f"http://127.0.0.1:{elsewhere.port}/mcp"}, b"")})
    try:
        with pytest.raises(MCPError, match="redirect"):
            async with MCPClient(redirecting.url, host=host, headers={"Authorization": f"Bearer {record['access_token']}"}):
                pass
    finally:
        redirecting.close()
        elsewhere.close()
    assert elsewhere.heard == []


async def test_the_extension_s_steps_answer_in_words_never_with_a_traceback(server):
    from tabagent.app import mcp_sign_in

    open_server = Hostile({"/mcp": (200, {"content-type": "application/json"}, b"{}")})
    try:
        said = await mcp_sign_in.plan({"url": open_server.url}, REDIRECT, host=CPythonHost())
    finally:
        open_server.close()
    assert said == {"ok": False, "error": f"the MCP server at {open_server.url} does not ask anyone to sign in "
                                          f"(it answered HTTP 200)."}
    planned = await mcp_sign_in.plan({"url": server.url}, REDIRECT, host=CPythonHost())
    assert planned["ok"] and planned["plan"]["authorize_url"].startswith(f"{server.issuer}/authorize?")
    broken = await mcp_sign_in.finish(planned["plan"], f"{REDIRECT}?error=access_denied&state={planned['plan']['state']}",
                                      host=CPythonHost())
    assert broken == {"ok": False, "error": "the authorization server did not sign you in: access_denied."}
