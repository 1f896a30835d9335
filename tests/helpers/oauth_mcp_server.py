"""An MCP server that signs people in with OAuth 2.1, and its authorization server, both
made of the official Python SDK's own pieces (`mcp.server.auth`: the authorize, token,
registration and revocation handlers, the bearer-token middleware, the protected resource
metadata), run in one process on two ports of 127.0.0.1, as a hosted server and its identity
provider would be on two hosts.

The authorization server's login page asks for a name and a password (ada / lovelace), then
sends the browser back to the client's redirect address with the code. Its token answers carry
an OpenID-style `id_token` (the claims unsigned: TabAgent only shows them). Tokens live
`--token-seconds`; `expire_tokens()` ends them all at once, for a test to see one refreshed, and
`revoke_refresh_tokens()` forgets every refresh token (as a user's revocation at the provider
would), for a test to see a refresh refused. `/test/seen` lists the
requests each side received (path, whether they carried a bearer token, and whether the client
secret was anywhere in them: address, headers, a Basic header decoded, body).

`client=(id, secret, method)` registers a confidential client beforehand, as an administrator
would, whose token requests the SDK's token endpoint checks by its `token_endpoint_auth_method`
(`client_secret_basic` or `client_secret_post`); any redirect address is taken for it (each
browser gives the extension its own). `offered` replaces the list of ways the metadata says the
token endpoint takes a secret (`token_endpoint_auth_methods_supported`; the SDK's own is
["client_secret_post", "client_secret_basic"]); `seen` says which way each token request
carried one (`client_auth`: "basic", "post" or None).

    with OAuthMCPServer(token_seconds=5) as server:
        server.url          # http://127.0.0.1:PORT/mcp, the MCP endpoint (401 without a token)
        server.issuer       # http://127.0.0.1:PORT2, the authorization server
"""

import argparse
import asyncio
import base64
import json
import re
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.helpers.server_forks import forked
from tests.helpers.mcp_server import MCPTestServer, _free_port

ROOT = Path(__file__).resolve().parents[2]
USER, PASSWORD = "ada", "lovelace"
# A client an administrator registered for the user, with its secret (typed in the settings).
CLIENT_ID, CLIENT_SECRET = "tabagent-registered", "typed-s3cret-7f2b"
PROFILE = {"sub": "user-1815", "name": "Ada Lovelace", "email": "ada@example.test"}


class OAuthMCPServer(MCPTestServer):
    def __init__(self, token_seconds: int = 3600, registration: bool = True, client: tuple | None = None,
                 offered: list[str] | None = None):
        super().__init__("streamable-http")
        self.as_port = _free_port()
        self.issuer = f"http://127.0.0.1:{self.as_port}"
        self.token_seconds, self.registration, self.client, self.offered = token_seconds, registration, client, offered

    def _start(self) -> None:
        args = ["--port", str(self.port),
                "--as-port", str(self.as_port), "--token-seconds", str(self.token_seconds)]
        if not self.registration:
            args.append("--no-registration")
        if self.client:
            args += ["--client", json.dumps(list(self.client))]
        if self.offered is not None:
            args += ["--offered", json.dumps(self.offered)]
        self.process = forked("tests.helpers.oauth_mcp_server", args)
        self._wait_until_listening()
        self._wait_until_listening(port=self.as_port)  # its authorization server, in another thread

    def _new_ports(self) -> None:
        super()._new_ports()
        self.as_port = _free_port()
        self.issuer = f"http://127.0.0.1:{self.as_port}"

    def expire_tokens(self) -> None:
        """Ends every access token the server has given, now."""
        import urllib.request

        urllib.request.urlopen(urllib.request.Request(f"{self.issuer}/test/expire", method="POST"), timeout=5).close()

    def revoke_refresh_tokens(self) -> None:
        """Forgets every refresh token the server has given, now: a refresh is then refused."""
        import urllib.request

        urllib.request.urlopen(urllib.request.Request(f"{self.issuer}/test/revoke", method="POST"), timeout=5).close()

    def seen(self, everywhere: bool = False) -> list[dict]:
        """The requests the authorization server received; `everywhere`: the MCP server's too."""
        import urllib.request

        with urllib.request.urlopen(f"{self.issuer}/test/seen", timeout=5) as reply:
            seen = json.loads(reply.read())
        return seen if everywhere else [one for one in seen if one["side"] == "authorization server"]


def log_in_as_a_person(authorize_url: str, password: str = PASSWORD) -> str:
    """Opens the authorization address, fills the login page's form and submits it; the
    address the browser is sent back to."""
    import httpx

    with httpx.Client(follow_redirects=False, timeout=10) as browser:
        page = browser.get(authorize_url)
        assert page.status_code == 302, page.text
        login = browser.get(page.headers["location"])
        pending = re.search(r'name="pending" value="([^"]+)"', login.text).group(1)
        sent = browser.post(str(login.url.join("/login")), data={"pending": pending, "username": USER, "password": password})
        assert sent.status_code == 302, sent.text
        return sent.headers["location"]


SIGN_IN = """
import asyncio, json, sys
from tabagent.hosts.cpython import CPythonHost
from tabagent.mcp.oauth import finish_sign_in, plan_sign_in
from tests.helpers.oauth_mcp_server import log_in_as_a_person

async def main(url, redirect):
    host = CPythonHost()
    plan = await plan_sign_in(url, redirect, host=host)
    print(json.dumps(await finish_sign_in(plan, log_in_as_a_person(plan["authorize_url"]), host=host)))

asyncio.run(main(*sys.argv[1:]))
"""


def signed_in_record(server_url: str, redirect_uri: str) -> dict:
    """A sign-in record as the extension's Python makes it (tabagent.mcp.oauth: registration,
    PKCE, the token request), the login page filled as a person would; for a browser test, whose
    process has no tabagent on its path, made in one of its own."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "py"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", SIGN_IN, server_url, redirect_uri], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


class Hostile:
    """A hostile server on 127.0.0.1: answers each path as `routes` says ({path: (status,
    headers, body)}, "{port}" in a header filled with its own), and keeps what it heard."""

    def __init__(self, routes: dict):
        self.routes, self.heard = routes, []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self):
                outer.heard.append((self.command, self.path, self.headers.get("authorization")))
                status, headers, body = outer.routes.get(self.path, (404, {}, b""))
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value.format(port=outer.port))
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


def _unsigned_jwt(claims: dict) -> str:
    part = lambda value: base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()  # noqa: E731
    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}."


def registered_client(client_id: str, secret: str, method: str):
    """A confidential client an administrator registered, taking any redirect address."""
    from mcp.shared.auth import OAuthClientInformationFull

    class Registered(OAuthClientInformationFull):
        def validate_redirect_uri(self, redirect_uri):
            return redirect_uri

    return Registered(client_id=client_id, client_secret=secret, token_endpoint_auth_method=method,
                      redirect_uris=["https://registered.invalid/"], grant_types=["authorization_code", "refresh_token"],
                      response_types=["code"], scope="mcp openid")


def provider_for(issuer: str, token_seconds: int):
    from mcp.server.auth.provider import AccessToken, AuthorizationCode, RefreshToken, construct_redirect_uri
    from mcp.shared.auth import OAuthToken

    class Provider:
        """Clients, codes and tokens in memory; a code is given only after the login page."""

        def __init__(self):
            self.clients, self.pending, self.codes, self.access, self.refresh = {}, {}, {}, {}, {}

        async def get_client(self, client_id):
            return self.clients.get(client_id)

        async def register_client(self, client_info):
            self.clients[client_info.client_id] = client_info

        async def authorize(self, client, params):
            pending = secrets.token_urlsafe(16)
            self.pending[pending] = (client.client_id, params)
            return f"{issuer}/login?pending={pending}"

        def login(self, pending: str) -> str:
            client_id, params = self.pending.pop(pending)
            code = secrets.token_urlsafe(24)
            self.codes[code] = AuthorizationCode(
                code=code, scopes=params.scopes or ["mcp"], expires_at=time.time() + 300, client_id=client_id,
                code_challenge=params.code_challenge, redirect_uri=params.redirect_uri,
                redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
                resource=params.resource, subject=PROFILE["sub"])
            return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

        async def load_authorization_code(self, client, code):
            return self.codes.get(code)

        def _tokens(self, client_id, scopes, resource) -> OAuthToken:
            access, refresh = f"at-{secrets.token_urlsafe(16)}", f"rt-{secrets.token_urlsafe(16)}"
            self.access[access] = AccessToken(token=access, client_id=client_id, scopes=scopes,
                                              expires_at=int(time.time()) + token_seconds, resource=resource,
                                              subject=PROFILE["sub"])
            self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes,
                                                 resource=resource, subject=PROFILE["sub"])
            return OAuthToken(access_token=access, expires_in=token_seconds, scope=" ".join(scopes),
                              refresh_token=refresh)

        async def exchange_authorization_code(self, client, code):
            del self.codes[code.code]
            return self._tokens(client.client_id, code.scopes, code.resource)

        async def load_refresh_token(self, client, token):
            return self.refresh.get(token)

        async def exchange_refresh_token(self, client, refresh_token, scopes):
            del self.refresh[refresh_token.token]  # rotated
            return self._tokens(client.client_id, scopes or refresh_token.scopes, refresh_token.resource)

        async def load_access_token(self, token):
            found = self.access.get(token)
            return found if found and found.expires_at > time.time() else None

        def expire_all(self) -> int:
            """Every access token ends now (refresh tokens live on): what a test waits for, made
            to happen, instead of a sleep past a short lifetime that a loaded machine outruns."""
            for token, found in self.access.items():
                self.access[token] = found.model_copy(update={"expires_at": int(time.time()) - 1})
            return len(self.access)

        def revoke_all(self) -> int:
            """Every refresh token is forgotten (access tokens live on, until they expire)."""
            count = len(self.refresh)
            self.refresh.clear()
            return count

        async def revoke_token(self, token):
            self.access.pop(token.token, None)
            self.refresh.pop(token.token, None)

    return Provider()


LOGIN_PAGE = """<!doctype html><title>Sign in to Example Tracker</title>
<h1>Sign in to Example Tracker</h1><form method="post" action="/login">
<input type="hidden" name="pending" value="{pending}">
<label>Name <input name="username" autocomplete="username"></label>
<label>Password <input name="password" type="password"></label>
<button type="submit">Sign in and allow</button></form><p>{error}</p>"""


def authorization_server(provider, issuer: str, registration: bool, seen: list):
    from mcp.server.auth.routes import create_auth_routes
    from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse
    from starlette.routing import Route

    async def login_page(request):
        return HTMLResponse(LOGIN_PAGE.format(pending=request.query_params.get("pending", ""), error=""))

    async def login(request):
        form = await request.form()
        if (form.get("username"), form.get("password")) != (USER, PASSWORD):
            return HTMLResponse(LOGIN_PAGE.format(pending=form.get("pending", ""), error="Wrong name or password."))
        return RedirectResponse(provider.login(str(form.get("pending"))), status_code=302)

    async def seen_requests(request):
        return JSONResponse(seen)

    async def expire(request):
        return JSONResponse(provider.expire_all())

    async def revoke(request):
        return JSONResponse(provider.revoke_all())

    routes = [Route("/login", login_page, methods=["GET"]), Route("/login", login, methods=["POST"]),
              Route("/test/seen", seen_requests), Route("/test/expire", expire, methods=["POST"]),
              Route("/test/revoke", revoke, methods=["POST"])]
    from pydantic import AnyHttpUrl

    routes += create_auth_routes(provider, issuer_url=AnyHttpUrl(issuer),
                                 client_registration_options=ClientRegistrationOptions(enabled=registration,
                                                                                       valid_scopes=["mcp", "openid"]),
                                 revocation_options=RevocationOptions(enabled=True))
    return with_id_token(Starlette(routes=routes), issuer, seen)


def carries(secret: str | None, scope, body: bytes) -> bool:
    """Whether the client secret is anywhere in a request: address, headers (a Basic one
    decoded), body, as sent or form-encoded."""
    if not secret:
        return False
    from urllib.parse import quote_plus

    raw = b" ".join([scope.get("query_string", b""), body, *(v for _, v in scope.get("headers") or [])])
    for _, value in scope.get("headers") or []:
        if value.lower().startswith(b"basic "):
            try:
                raw += b" " + base64.b64decode(value[6:])
            except ValueError:
                pass
    return any(form.encode() in raw for form in {secret, quote_plus(secret), secret.replace(":", "%3A")})


def seeing(app, side: str, seen: list, secret: str | None):
    """Records each request that reaches `side` (not the tests' own /test/ paths)."""

    async def wrapped(scope, receive, send):
        if scope["type"] != "http" or scope["path"].startswith("/test/"):
            return await app(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        headers = dict(scope.get("headers") or [])
        authorization = headers.get(b"authorization", b"").lower()
        seen.append({"side": side, "path": scope["path"], "secret": carries(secret, scope, body),
                     "bearer": authorization.startswith(b"bearer"),
                     "client_auth": "basic" if authorization.startswith(b"basic ") else
                     "post" if b"client_secret=" in body else None})

        replay = [{"type": "http.request", "body": with_client_id(scope, body), "more_body": False}]

        async def replayed():  # the body once, then what the connection says (a disconnect)
            return replay.pop() if replay else await receive()

        return await app(scope, replayed, send)

    return wrapped


def with_client_id(scope, body: bytes) -> bytes:
    """The SDK's client authenticator reads `client_id` from the form even when the client
    authenticates with HTTP Basic (where RFC 6749 §2.3.1 puts it): copied from the header."""
    basic = dict(scope.get("headers") or []).get(b"authorization", b"")
    if scope["path"] != "/token" or not basic.lower().startswith(b"basic ") or b"client_id=" in body:
        return body
    client_id = base64.b64decode(basic[6:]).split(b":", 1)[0]
    return body + b"&client_id=" + client_id


def offering(app, offered: list[str] | None):
    """The authorization server's metadata saying its token endpoint takes a secret the
    `offered` ways (in that order), whatever the SDK says."""
    if offered is None:
        return app

    async def wrapped(scope, receive, send):
        if scope["type"] != "http" or scope["path"] != "/.well-known/oauth-authorization-server":
            return await app(scope, receive, send)
        parts = []

        async def collect(message):
            parts.append(message)

        await app(scope, receive, collect)
        metadata = json.loads(b"".join(p.get("body", b"") for p in parts[1:]))
        body = json.dumps({**metadata, "token_endpoint_auth_methods_supported": offered}).encode()
        await send({**parts[0], "headers": [(k, v) for k, v in parts[0]["headers"] if k != b"content-length"]
                    + [(b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    return wrapped


def with_id_token(app, issuer: str, seen: list):
    """Adds an OpenID-style id_token to the token endpoint's successful answers (the SDK's
    token model has none)."""

    async def wrapped(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        if scope["path"] == "/revoke":
            return await app(scope, with_empty_secret(receive), send)
        if scope["path"] != "/token":
            return await app(scope, receive, send)
        parts = []

        async def collect(message):
            parts.append(message)

        await app(scope, receive, collect)
        start, body = parts[0], b"".join(p.get("body", b"") for p in parts[1:])
        if start["status"] == 200:
            answer = json.loads(body)
            answer["id_token"] = _unsigned_jwt({**PROFILE, "iss": issuer, "aud": "tabagent",
                                                "iat": int(time.time()), "exp": int(time.time()) + 3600})
            body = json.dumps(answer).encode()
            start = {**start, "headers": [(k, v) for k, v in start["headers"] if k != b"content-length"]
                     + [(b"content-length", str(len(body)).encode())]}
        await send(start)
        await send({"type": "http.response.body", "body": body})

    return wrapped


def with_empty_secret(receive):
    """The SDK's revocation request model requires a `client_secret` field even of a public
    client (registered with `token_endpoint_auth_method: none`, which has none): an empty one
    is added where the client rightly sent none."""
    async def replayed():
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        if b"client_secret=" not in body:
            body += b"&client_secret="
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed


def resource_server(provider, url: str, issuer: str):
    from mcp.server.auth.settings import AuthSettings
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.types import ToolAnnotations

    class Verifier:
        async def verify_token(self, token):
            found = await provider.load_access_token(token)
            return found if found and found.resource == url else None  # issued for this server only

    server = MCPServer("tabagent-oauth-test-server", token_verifier=Verifier(),
                       auth=AuthSettings(issuer_url=issuer, resource_server_url=url, required_scopes=["mcp"],
                                         validate_token_resource=False))

    @server.tool(description="Says who the token belongs to.", annotations=ToolAnnotations(readOnlyHint=True))
    def whoami(ctx: Context) -> str:
        from mcp.server.auth.middleware.auth_context import get_access_token

        token = get_access_token()
        return f"signed in as {token.subject if token else 'nobody'}"

    return server


async def serve(port: int, as_port: int, token_seconds: int, registration: bool, client: str | None = None,
                offered: list[str] | None = None) -> None:
    import uvicorn

    issuer, url = f"http://127.0.0.1:{as_port}", f"http://127.0.0.1:{port}/mcp"
    seen: list = []
    provider = provider_for(issuer, token_seconds)
    secret = None
    if client:
        client_id, secret, method = json.loads(client)
        provider.clients[client_id] = registered_client(client_id, secret, method)
    mcp_app = seeing(resource_server(provider, url, issuer).streamable_http_app(), "mcp server", seen, secret)
    as_app = seeing(offering(authorization_server(provider, issuer, registration, seen), offered),
                    "authorization server", seen, secret)
    servers = [uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=p, log_level="warning"))
               for app, p in ((as_app, as_port), (mcp_app, port))]
    await asyncio.gather(*(s.serve() for s in servers))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--as-port", type=int, required=True)
    parser.add_argument("--token-seconds", type=int, default=3600)
    parser.add_argument("--no-registration", action="store_true")
    parser.add_argument("--client", help="[id, secret, method] in JSON: a client registered beforehand")
    parser.add_argument("--offered", type=json.loads, help="the metadata's token_endpoint_auth_methods_supported, in JSON")
    options = parser.parse_args()
    asyncio.run(serve(options.port, options.as_port, options.token_seconds, not options.no_registration, options.client,
                      options.offered))


if __name__ == "__main__":
    main()
