"""Signing in to an MCP server with OAuth 2.1, as the MCP specification's authorization section
(2025-11-25) describes it. The browser's own sign-in window sits between the two halves, so
the flow is two calls around it:

    plan = await plan_sign_in(server_url, redirect_uri)   # discovery, client id, PKCE
    ... the browser opens plan["authorize_url"] and ends at redirect_uri?code=...&state=...
    record = await finish_sign_in(plan, where_it_ended)   # the code for tokens
    record = await refresh(record)                        # before the access token expires

The `record` is what is kept (like the API key: trusted contexts only, never exported). Its
access token is for the MCP server at `record["server_url"]` only: the extension sends it in
that server's `Authorization` header and nowhere else (never to the authorization server:
sign-out revokes the refresh token, which is the authorization server's own).

The client id: the one the user entered (with the secret the authorization server gave them,
for a client registered there beforehand), else dynamic client registration (RFC 7591). A client
ID metadata document needs an https address of TabAgent's own to publish it at, and TabAgent
has no server; a user who publishes one enters its address as the client id.

A client secret goes to the token endpoint only, as the registration chose
(`token_endpoint_auth_method`: HTTP Basic, or in the form); never to the authorization window,
the revocation endpoint or the MCP server. A client the user entered was registered in a way
TabAgent cannot read, and the server's `token_endpoint_auth_methods_supported` (RFC 8414: Basic
when it says nothing) lists what it takes of any client, not how this one was registered: the
form when offered, Basic when only Basic is, and, where both are, the other one once when the
token endpoint refuses the client (`invalid_client`, RFC 6749 §5.2); the one that worked is kept.

A server may ask for more than was granted (a 403 with `insufficient_scope`, "step-up"): the
sign-in is planned again with the scope it names added to what was asked before.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import secrets
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from ..host import Host, NetworkError, RequestTimeout
from ..hosts import default_host
from ..unseen import bounded
from . import messages
from .errors import MCPError
from .oauth_discovery import authorization_server, canonical, challenge, origin_of, protected_resource, safe_address

TIMEOUT = 15
CLIENT_NAME = "TabAgent"
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": CLIENT_NAME, "version": "1"}}}


def pkce_pair() -> tuple[str, str]:
    """(code_verifier, its S256 code_challenge): 64 unreserved characters, and their hash."""
    verifier = secrets.token_urlsafe(48)
    return verifier, _b64url(hashlib.sha256(verifier.encode("ascii")).digest())


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


async def unauthorized(host: Host, server_url: str) -> str:
    """The server's WWW-Authenticate, from the 401 an initialize without a token gets."""
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    try:
        response = await host.request("POST", server_url, headers, messages.json_bytes(INITIALIZE), TIMEOUT,
                                      follow_redirects=False)
    except (NetworkError, RequestTimeout) as e:
        raise MCPError(f"could not reach the MCP server at {server_url} ({e}).") from None
    await response.close()
    if response.status != 401:
        raise MCPError(f"the MCP server at {server_url} does not ask anyone to sign in (it answered HTTP "
                       f"{response.status}).")
    return response.headers.get("www-authenticate", "")


async def plan_sign_in(server_url: str, redirect_uri: str, client_id: str = "", host: Host | None = None,
                       client_secret: str = "", header: str | None = None, known: dict | None = None) -> dict:
    """Everything the sign-in window and the token request need, found from the server's 401
    (`header`, its WWW-Authenticate, when the caller has it: a step-up's names the scope it
    lacks; else asked for). `known`: the record of an earlier sign-in to this server, whose
    client is used again with the same authorization server (a server that moved to another
    is registered with anew) and whose granted scope is asked again with what is now needed."""
    host = host or default_host()
    safe_address(server_url, "the MCP server", host)
    header = await unauthorized(host, server_url) if header is None else header
    resource = await protected_resource(host, server_url, header, TIMEOUT)
    if resource is None:  # a 2025-03-26 server: its origin is its own authorization server
        issuer, resource = origin_of(server_url), {"resource": server_url}
        metadata = await authorization_server(host, issuer, TIMEOUT, defaults=True)
    else:
        issuer = _first_safe(resource["authorization_servers"], host)
        metadata = await authorization_server(host, issuer, TIMEOUT)
    scope = _scope(header, resource, metadata, (known or {}).get("scope"))
    client = entered_client(client_id, client_secret, metadata) if client_id else \
        same_client(known, metadata) or await register(host, metadata, redirect_uri, scope)
    verifier, challenge_ = pkce_pair()
    state = secrets.token_urlsafe(24)
    query = {"response_type": "code", "client_id": client["client_id"], "redirect_uri": redirect_uri,
             "code_challenge": challenge_, "code_challenge_method": "S256", "state": state,
             "resource": resource["resource"], **({"scope": scope} if scope else {})}
    endpoint = metadata["authorization_endpoint"]
    return {"server_url": server_url, "resource": resource["resource"], "issuer": metadata["issuer"],
            "iss_required": metadata.get("authorization_response_iss_parameter_supported") is True,
            "token_endpoint": metadata["token_endpoint"], "revocation_endpoint": metadata.get("revocation_endpoint"),
            "redirect_uri": redirect_uri, "state": state, "code_verifier": verifier, "scope": scope, **client,
            "authorize_url": f"{endpoint}{'&' if '?' in endpoint else '?'}{urlencode(query)}"}


def _first_safe(servers: list[str], host: Host) -> str:
    for issuer in servers:
        try:
            return safe_address(issuer, "the authorization server", host)
        except MCPError:
            continue
    return safe_address(servers[0], "the authorization server", host)  # says why the first is refused


def _scope(header: str, resource: dict, metadata: dict, more: str | None = None) -> str:
    """The 401's scope, else the resource's, with what a step-up asks for added; with `openid`
    where the server offers it (for the settings to say who signed in) and `offline_access`
    (for a refresh token: a turn outlives an access token) where the authorization server lists it."""
    said = challenge(header).get("scope") or " ".join(s for s in resource.get("scopes_supported") or [] if isinstance(s, str))
    scopes = said.split()
    offered = metadata.get("scopes_supported") if isinstance(metadata.get("scopes_supported"), list) else []
    extra = [*(more or "").split(), *(name for name in ("openid", "offline_access") if scopes and name in offered)]
    scopes += [name for name in extra if name not in scopes]
    return " ".join(scopes)


def same_client(known: dict | None, metadata: dict) -> dict | None:
    """The client of an earlier sign-in, if it was made with this very authorization server."""
    if not known or not known.get("client_id") or known.get("issuer") != metadata["issuer"]:
        return None
    return {key: known[key] for key in ("client_id", "client_secret", "token_endpoint_auth_method") if known.get(key)}


SECRET_METHODS = ("client_secret_post", "client_secret_basic")  # the order tried, where both are offered


def entered_client(client_id: str, client_secret: str, metadata: dict) -> dict:
    """A client the user registered beforehand: its id, its secret if it has one, how the token
    endpoint takes that secret (the form when offered, else Basic), and the other way, to try
    once if the token endpoint refuses the client that way (`auth_method_fallback`)."""
    if not client_secret:
        return {"client_id": client_id, "token_endpoint_auth_method": "none"}
    offered = metadata.get("token_endpoint_auth_methods_supported")
    offered = offered if isinstance(offered, list) and offered else ["client_secret_basic"]
    methods = [method for method in SECRET_METHODS if method in offered]
    if not methods:
        raise MCPError(f"the authorization server {metadata['issuer']} takes a client secret in none of the ways "
                       f"TabAgent sends one (HTTP Basic or the form): leave the secret out, or ask for a client "
                       f"without one.")
    return {"client_id": client_id, "client_secret": client_secret, "token_endpoint_auth_method": methods[0],
            **({"auth_method_fallback": methods[1]} if len(methods) > 1 else {})}


async def register(host: Host, metadata: dict, redirect_uri: str, scope: str) -> dict:
    """A client id from dynamic client registration: asked for as a public client (PKCE, no
    secret); a secret the server gives anyway is kept, and sent as its answer says."""
    endpoint = metadata.get("registration_endpoint")
    if not endpoint:
        raise MCPError(f"the authorization server {metadata['issuer']} does not register clients by "
                       f"itself: enter a client id (and its secret, if it gave you one) for TabAgent in the "
                       f"server's settings.")
    body = {"client_name": CLIENT_NAME, "redirect_uris": [redirect_uri], "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"], "token_endpoint_auth_method": "none", "application_type": "native",
            **({"scope": scope} if scope else {})}
    answer = await _post(host, endpoint, json.dumps(body).encode(), "application/json", "registration")
    if not isinstance(answer.get("client_id"), str):
        raise MCPError(f"the authorization server {metadata['issuer']} registered no client id.")
    kept = {"client_id": answer["client_id"], "token_endpoint_auth_method": "none"}
    if isinstance(answer.get("client_secret"), str) and answer["client_secret"]:
        chosen = answer.get("token_endpoint_auth_method")
        kept.update(client_secret=answer["client_secret"],
                    token_endpoint_auth_method=chosen if chosen in ("client_secret_basic", "client_secret_post")
                    else "client_secret_basic")
    return kept


async def _post(host: Host, url: str, body: bytes, kind: str, what: str, headers: dict | None = None) -> dict:
    try:
        response = await host.request("POST", url, {"content-type": kind, "accept": "application/json", **(headers or {})},
                                      body, TIMEOUT, follow_redirects=False)
    except (NetworkError, RequestTimeout) as e:
        raise MCPError(f"could not reach the authorization server's {what} ({e}).") from None
    raw = await messages.read_body(response, url, 256 * 1024)
    try:
        answer = json.loads(raw)
    except ValueError:
        answer = None
    if not 200 <= response.status < 300 or not isinstance(answer, dict):
        said = answer.get("error_description") or answer.get("error") if isinstance(answer, dict) else ""
        raise MCPError(f"the authorization server refused the {what} (HTTP {response.status}"
                       f"{': ' + bounded(str(said), 200) if said else ''}).", code=response.status,
                       data=answer.get("error") if isinstance(answer, dict) else None)
    return answer


def code_from(plan: dict, ended_at: str) -> str:
    """The code in the address the sign-in window ended at, once that address is ours, its
    state is the one we sent, and its issuer (when said, RFC 9207) the one we asked."""
    if canonical(ended_at.split("?")[0]) != canonical(plan["redirect_uri"].split("?")[0]):
        raise MCPError("the sign-in window ended somewhere else than TabAgent's address.")
    query = {k: v[0] for k, v in parse_qs(urlsplit(ended_at).query).items()}
    if query.get("state") != plan["state"]:
        raise MCPError("the sign-in answer was not for this sign-in (its state differs): nothing was kept.")
    # RFC 9207: the issuer said is the one asked, character for character; one that says it
    # always names itself must.
    if ("iss" in query and query["iss"] != plan["issuer"]) or ("iss" not in query and plan.get("iss_required")):
        raise MCPError("the sign-in answer did not come from the authorization server TabAgent asked (its "
                       "issuer is missing or another): nothing was kept.")
    if "error" in query:
        said = query.get("error_description") or query["error"]
        raise MCPError(f"the authorization server did not sign you in: {bounded(said, 200)}.")
    if not query.get("code"):
        raise MCPError("the sign-in window ended without a code.")
    return query["code"]


async def finish_sign_in(plan: dict, ended_at: str, host: Host | None = None) -> dict:
    """The kept record: the plan's server, issuer and client, and the tokens the code is for."""
    code = code_from(plan, ended_at)
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": plan["redirect_uri"],
            "code_verifier": plan["code_verifier"]}
    return await _tokens(host or default_host(), plan, form)


# One refresh of a token at a time: two at once would spend the refresh token twice, and an
# authorization server that rotates it refuses the second (and may revoke the first's).
_refreshing: dict[tuple, asyncio.Future] = {}


async def refresh(record: dict, host: Host | None = None) -> dict:
    """The record with new tokens (the refresh token rotated when the server rotates it); a
    refresh of the same token already under way is waited for, not repeated."""
    if not record.get("refresh_token"):
        raise MCPError(f"the sign-in to {record.get('server_url')} has expired: sign in again in settings.")
    key = (record.get("server_url"), record["refresh_token"])
    if key not in _refreshing:
        form = {"grant_type": "refresh_token", "refresh_token": record["refresh_token"]}
        _refreshing[key] = asyncio.ensure_future(_tokens(host or default_host(), record, form))
        _refreshing[key].add_done_callback(lambda _: _refreshing.pop(key, None))
    return await asyncio.shield(_refreshing[key])


async def _tokens(host: Host, record: dict, form: dict) -> dict:
    form = {**form, "resource": record.get("resource") or record["server_url"]}
    try:
        answer = await _token_request(host, record, form)
    except MCPError as refused:
        fallback = record.get("auth_method_fallback")
        if not fallback or not (refused.data == "invalid_client" or refused.code == 401):
            raise
        record = {**record, "token_endpoint_auth_method": fallback}  # (the fallback itself is not KEPT)
        answer = await _token_request(host, record, form)
    if not isinstance(answer.get("access_token"), str) or str(answer.get("token_type", "")).lower() != "bearer":
        raise MCPError("the authorization server answered without a bearer access token.")
    kept = {k: record[k] for k in KEPT if record.get(k) is not None}
    expires = answer.get("expires_in")
    granted = answer.get("scope") if isinstance(answer.get("scope"), str) else record.get("scope")
    return {**kept, "scope": granted, "access_token": answer["access_token"],
            "refresh_token": answer.get("refresh_token") or record.get("refresh_token"),
            "expires_at": host.now() + float(expires) if isinstance(expires, (int, float)) else None,
            "who": signed_in_as(answer.get("id_token")) or kept.get("who")}


async def _token_request(host: Host, record: dict, form: dict) -> dict:
    form, headers = client_authentication(record, form)
    return await _post(host, record["token_endpoint"], urlencode(form).encode(), "application/x-www-form-urlencoded",
                       "token request", headers)


KEPT = ("server_url", "resource", "issuer", "token_endpoint", "revocation_endpoint", "client_id", "client_secret",
        "token_endpoint_auth_method", "scope", "who")


def client_authentication(record: dict, form: dict) -> tuple[dict, dict]:
    """The token request's form and headers with the client named as it was registered: its
    secret in an HTTP Basic header (RFC 6749 §2.3.1, each part form-encoded), in the form, or none."""
    secret, method = record.get("client_secret"), record.get("token_endpoint_auth_method")
    if secret and method != "client_secret_post":
        pair = f"{quote(record['client_id'], safe='')}:{quote(secret, safe='')}"
        return form, {"authorization": "Basic " + base64.b64encode(pair.encode()).decode("ascii")}
    return {**form, "client_id": record["client_id"], **({"client_secret": secret} if secret else {})}, {}


def signed_in_as(id_token: object) -> str | None:
    """Who an OpenID id_token says signed in (name and email, else a user name or subject),
    only to be shown: the token came straight from the token endpoint, and decides nothing."""
    if not isinstance(id_token, str) or id_token.count(".") != 2:
        return None
    try:
        payload = id_token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except ValueError:
        return None
    if not isinstance(claims, dict):
        return None
    name, email = claims.get("name"), claims.get("email")
    said = f"{name} ({email})" if name and email else name or email or claims.get("preferred_username") or claims.get("sub")
    return bounded(str(said), 120) if said else None


async def sign_out(record: dict, host: Host | None = None) -> None:
    """Tells the authorization server to forget the refresh token (RFC 7009), where it offers
    revocation; the access token is never sent to it. What it answers changes nothing: the
    extension forgets the record anyway."""
    endpoint, token = record.get("revocation_endpoint"), record.get("refresh_token")
    if not endpoint or not token:
        return
    # The client secret goes to the token endpoint only: a confidential client's revocation may
    # be refused for want of it, and the extension forgets the record all the same.
    form = {"token": token, "token_type_hint": "refresh_token", "client_id": record.get("client_id", "")}
    try:
        response = await (host or default_host()).request(
            "POST", endpoint, {"content-type": "application/x-www-form-urlencoded"}, urlencode(form).encode(),
            TIMEOUT, follow_redirects=False)
        await response.close()
    except (NetworkError, RequestTimeout):
        pass
