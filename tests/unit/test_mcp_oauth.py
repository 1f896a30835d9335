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
from tests.helpers.oauth_mcp_server import Hostile, OAuthMCPServer, log_in_as_a_person

pytestmark = pytest.mark.timeout(60)
REDIRECT = "https://abcdefghijklmnop.chromiumapp.org/"
# Long enough for any machine: a test that needs a token ended ends it (server.expire_tokens()),
# rather than sleeping past a short lifetime that a loaded machine outruns before the first call.
TOKEN_SECONDS = 600


@pytest.fixture(scope="module")
def server():
    with OAuthMCPServer(token_seconds=TOKEN_SECONDS) as running:
        yield running


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
    assert 0 < record["expires_at"] - host.now() <= TOKEN_SECONDS
    server.expire_tokens()
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


# --- Address tricks: an address is read as the fetch that follows it reads it -------------------

ISSUER = "https://auth.example"
TRICKS = ["http://evil.example\\@127.0.0.1/token",     # urlsplit: 127.0.0.1; fetch: evil.example
          "http://evil.example\\\\@localhost:8080/token",
          "http://127.0.0.1:80@evil.example/token",       # a user name before the @
          "http://0x7f.1/token",                          # a shorthand the browser rewrites
          "http://127.0.0.1.evil.example/token",
          "http://[::ffff:7f00:1]/token"]


@pytest.mark.parametrize("address", TRICKS)
def test_an_endpoint_that_only_looks_local_is_refused(address):
    from tabagent.mcp.oauth_discovery import checked_authorization_server

    metadata = {"issuer": ISSUER, "authorization_endpoint": f"{ISSUER}/authorize", "token_endpoint": address,
                "code_challenge_methods_supported": ["S256"]}
    with pytest.raises(MCPError, match="must be an https address"):
        checked_authorization_server(metadata, ISSUER)


def test_the_browser_s_own_reader_decides_in_the_extension():
    """The Pyodide host reads addresses with the browser's URL parser: what it says is what counts."""
    from tabagent.host import Host
    from tabagent.mcp.oauth_discovery import safe_address

    class Browser(Host):
        def resolve_url(self, url, base):
            return (url, "http://evil.example") if "\\" in url else super().resolve_url(url, base)

    with pytest.raises(MCPError):
        safe_address("http://evil.example\\@127.0.0.1/token", "the token endpoint", Browser())
    assert safe_address("http://127.0.0.1:9/token", "the token endpoint", Browser()) == "http://127.0.0.1:9/token"


# --- One refresh at a time, secrets as registered -------------------------------------------------


class TokenEndpoint(CPythonHost):
    """A token endpoint that takes a while and rotates the refresh token: a second refresh with
    the same token would be refused."""

    def __init__(self):
        super().__init__()
        self.asked = []

    async def request(self, method, url, headers, body=None, timeout=None, follow_redirects=True):
        import asyncio

        from tabagent.host import Response

        self.asked.append((url, headers, body))
        await asyncio.sleep(0.2)
        answer = json.dumps({"access_token": f"a{len(self.asked)}", "token_type": "Bearer",
                             "refresh_token": f"r{len(self.asked)}", "expires_in": 60}).encode()

        class Answer(Response):
            async def chunks(self):
                yield answer

            async def close(self):
                pass
        return Answer(200, {"content-type": "application/json"})


RECORD = {"server_url": "http://127.0.0.1:9/mcp", "issuer": ISSUER, "token_endpoint": f"{ISSUER}/token",
          "client_id": "tabagent", "refresh_token": "r0", "access_token": "a0"}


async def test_two_refreshes_of_one_token_at_once_make_one_request():
    import asyncio

    host = TokenEndpoint()
    first, second = await asyncio.gather(refresh(RECORD, host), refresh(RECORD, host))
    assert len(host.asked) == 1 and first["access_token"] == second["access_token"] == "a1"


@pytest.mark.parametrize("method, in_header", [("client_secret_basic", True), ("client_secret_post", False)])
async def test_a_client_secret_goes_as_the_client_was_registered(method, in_header):
    host = TokenEndpoint()
    await refresh({**RECORD, "client_secret": "s3cr:et", "token_endpoint_auth_method": method}, host)
    [(_, headers, body)] = host.asked
    form = parse_qs(body.decode())
    if in_header:
        assert headers["authorization"] == "Basic " + base64.b64encode(b"tabagent:s3cr%3Aet").decode()
        assert "client_secret" not in form
    else:
        assert form["client_secret"] == ["s3cr:et"] and "authorization" not in headers


async def test_the_client_secret_never_goes_to_the_revocation_endpoint():
    host = TokenEndpoint()
    await sign_out({**RECORD, "client_secret": "s3cret", "revocation_endpoint": f"{ISSUER}/revoke"}, host)
    assert all(b"s3cret" not in (body or b"") and "authorization" not in headers for _, headers, body in host.asked)


# --- Sign-in asked by a turn ----------------------------------------------------------------------


class Panel:
    """The person at the panel, and the service worker's sign-in steps (mcp-sign-in.js
    signInForTurn) done as it does them, with the login page filled as a person would."""

    def __init__(self, server, *answers):
        self.server, self.answers, self.asked, self.signed = server, list(answers), [], []
        self.record = None

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
        return {"ok": False, "error": "no page"}

    async def confirm(self, id_, tool, message, details):
        self.asked.append((message, details))
        return self.answers.pop(0)

    async def sign_in(self, server_id, challenge_, interactive):
        from tabagent.app import mcp_sign_in

        host = CPythonHost()
        self.signed.append(interactive)
        if not interactive:
            if not self.record:
                return {"ok": False, "error": "not signed in"}
            answer = await mcp_sign_in.refresh(self.record, host)
        else:
            planned = await mcp_sign_in.plan({"url": self.server.url}, REDIRECT, host=host, known=self.record,
                                             header=challenge_)
            answer = await mcp_sign_in.finish(planned["plan"], log_in_as_a_person(planned["plan"]["authorize_url"]), host)
        self.record = answer["record"]
        return {"ok": True, "authorization": f"Bearer {self.record['access_token']}"}


def turn(server, headers=None):
    return {"conversation_id": "c1", "task": "Who am I?", "memory": None,
            "settings": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "agent": "tool_calling"},
            "mcp_servers": [{"id": "s", "name": "guarded", "url": server.url, "enabled": True, "tools": {}}],
            "mcp_headers": {"s": headers or {}}}


def whoami_twice():
    from tabagent.testing import ScriptedModel

    call = {"content": "", "tool_calls": [{"name": "guarded__whoami", "arguments": {}}]}
    return ScriptedModel([call, call, "Done."])


async def test_a_turn_asks_to_sign_in_when_its_server_asks_then_goes_on(server):
    from tabagent.app.turns import Turns

    panel, model = Panel(server, "once", "once", "once"), whoami_twice()
    await Turns().run(turn(server), lambda e: None, model=model, page=panel)
    assert panel.asked[0][0] == "The MCP server guarded asks you to sign in"
    assert panel.signed == [False, True]  # nothing to refresh: asked, then signed in
    assert [m["content"] for m in model.calls[-1]["messages"] if m["role"] == "tool"][0].count("signed in as user-1815")


async def test_a_token_that_expires_mid_turn_is_refreshed_without_asking(server):
    """The token ends between the turn's two calls (the server ends it, as the model thinks)."""

    from tabagent.app.turns import Turns
    from tabagent.testing import ScriptedModel

    panel = Panel(server, "once", "once")
    _, panel.record = await signed_in(server, CPythonHost())
    call = {"content": "", "tool_calls": [{"name": "guarded__whoami", "arguments": {}}]}

    def later(messages):  # the token ends while the model thinks before its second call that runs
        tools = [m for m in messages if m["role"] == "tool"]
        if len(tools) == 2:  # (the same call right after the first is told, not run: call_log.py)
            server.expire_tokens()
        return call if len(tools) < 3 else "Done."

    model = ScriptedModel(later)
    await Turns().run(turn(server, {"Authorization": f"Bearer {panel.record['access_token']}"}), lambda e: None,
                      model=model, page=panel)
    said = [m["content"] for m in model.calls[-1]["messages"] if m["role"] == "tool"]
    assert all("signed in as user-1815" in text for text in said), said
    assert panel.signed == [False]  # refreshed, never asked
    assert [message for message, _ in panel.asked] == ["Call a tool of the MCP server guarded"] * 2


async def test_a_registered_client_s_secret_is_taken_by_the_token_endpoint_and_goes_nowhere_else():
    """The SDK's token endpoint checks the secret as the client was registered (here HTTP Basic);
    the secret is in the token requests only (not the authorization address, the MCP server), and
    a wrong one is refused."""
    with OAuthMCPServer(registration=False, client=("registered", "s3cret:42", "client_secret_basic")) as server:
        host = CPythonHost()
        plan = await plan_sign_in(server.url, REDIRECT, "registered", host, client_secret="s3cret:42")
        assert "s3cret" not in plan["authorize_url"]
        record = await finish_sign_in(plan, log_in_as_a_person(plan["authorize_url"]), host=host)
        assert await call_whoami(server, record, host) == "signed in as user-1815"
        carried = {seen["path"] for seen in server.seen(everywhere=True) if seen["secret"]}
        assert carried == {"/token"}
        wrong = await plan_sign_in(server.url, REDIRECT, "registered", host, client_secret="not-it")
        with pytest.raises(MCPError, match="refused the token request"):
            await finish_sign_in(wrong, log_in_as_a_person(wrong["authorize_url"]), host=host)


# How the entered client was registered (what its token endpoint checks), what the metadata
# offers, in its order, and the ways TabAgent's token requests carried the secret: the form when
# offered, Basic when only Basic is; the other offered way once after an `invalid_client`, then
# only the way that worked (the refresh).
ENTERED = [("client_secret_post", ["client_secret_basic", "client_secret_post"], ["post", "post"]),
           ("client_secret_post", None, ["post", "post"]),  # the SDK's own: post, basic
           ("client_secret_basic", None, ["post", "basic", "basic"]),
           ("client_secret_basic", ["client_secret_basic"], ["basic", "basic"])]


@pytest.mark.parametrize("registered, offered, sent", ENTERED)
async def test_an_entered_client_s_secret_goes_the_way_the_server_takes_it(registered, offered, sent):
    with OAuthMCPServer(registration=False, client=("registered", "s3cret", registered), offered=offered) as server:
        host = CPythonHost()
        plan = await plan_sign_in(server.url, REDIRECT, "registered", host, client_secret="s3cret")
        record = await finish_sign_in(plan, log_in_as_a_person(plan["authorize_url"]), host=host)
        assert record["token_endpoint_auth_method"] == registered and "auth_method_fallback" not in record
        record = await refresh(record, host)
        assert await call_whoami(server, record, host) == "signed in as user-1815"
        assert [seen["client_auth"] for seen in server.seen() if seen["path"] == "/token"] == sent


async def test_a_form_client_at_a_server_that_takes_only_basic_is_refused_in_words():
    with OAuthMCPServer(registration=False, client=("registered", "s3cret", "client_secret_post"),
                        offered=["client_secret_basic"]) as server:
        host = CPythonHost()
        plan = await plan_sign_in(server.url, REDIRECT, "registered", host, client_secret="s3cret")
        with pytest.raises(MCPError, match=r"refused the token request \(HTTP 401"):
            await finish_sign_in(plan, log_in_as_a_person(plan["authorize_url"]), host=host)
        assert [seen["client_auth"] for seen in server.seen() if seen["path"] == "/token"] == ["basic"]


class RenewalRefused(Panel):
    """The service worker's answer when the kept sign-in's refresh is refused by the authorization
    server (mcp-sign-in.js signInForTurn: the refresh token revoked there)."""

    async def sign_in(self, server_id, challenge_, interactive):
        self.signed.append(interactive)
        return {"ok": False, "error": "The sign-in could not be renewed: invalid_grant", "ended": True}


async def test_a_sign_in_that_cannot_be_renewed_is_said_so_when_the_user_is_asked(server):
    from tabagent.app.turns import Turns
    from tabagent.testing import ScriptedModel

    panel = RenewalRefused(server, "deny")
    await Turns().run(turn(server, {"Authorization": "Bearer at-ended"}), lambda e: None, model=ScriptedModel(["Done."]), page=panel)
    assert panel.asked[0][0] == "Your sign-in to the MCP server guarded has ended and could not be renewed: sign in again?"
    assert panel.signed == [False]  # said no: no sign-in window


async def test_the_page_bridge_says_when_a_kept_sign_in_cannot_be_renewed():
    from tabagent.app.page_bridge import JsonBridge

    class Lent:
        async def signIn(self, server_id, challenge_, interactive):
            return json.dumps({"ok": False, "error": "The sign-in could not be renewed: invalid_grant", "ended": True})

    assert await JsonBridge(Lent()).sign_in("s", "", False) == {
        "ok": False, "error": "The sign-in could not be renewed: invalid_grant", "ended": True}
