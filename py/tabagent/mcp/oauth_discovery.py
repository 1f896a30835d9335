"""Where an MCP server's users sign in, found as the MCP specification's authorization section
(2025-11-25) says: from the server's 401 (`WWW-Authenticate: Bearer resource_metadata=...,
scope=...`), its protected resource metadata (RFC 9728; the address the 401 names, else the
well-known addresses, path first), and its authorization server's metadata (RFC 8414, else
OpenID discovery, in the spec's order).

What is refused, since each would hand a token for one server to another:
- protected resource metadata whose `resource` is not the server we asked (RFC 9728 §3.3),
  nor a part of its origin above it (`https://host` for `https://host/mcp`, as the
  specification's own examples publish it): a hostile server naming a trusted authorization
  server would get a token meant for another server;
- authorization server metadata whose `issuer` is not the server it was asked of (RFC 8414
  §3.3), and one that does not offer PKCE with S256 (the spec: refuse to go on);
- any address of these that is neither https nor on this machine (loopback http), read by
  the parser that will fetch it (the host's `resolve_url`: the browser's own in the extension),
  so that `http://evil.example\\@127.0.0.1/` is evil.example here as it is to `fetch`.
A server of the 2025-03-26 revision publishes no resource metadata: its own origin is then its
authorization server, at the well-known address or, without metadata, at the default
endpoints (/authorize, /token, /register) that revision names.
An authorization server on another host than the MCP server is what the spec expects (the
protected resource metadata names it): allowed. Redirects are never followed.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

from ..host import Host, NetworkError, RequestTimeout
from ..unseen import bounded
from . import messages
from .errors import MCPError

METADATA_BYTES = 256 * 1024
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
_PARAMETER = re.compile(r'([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))')


def challenge(header: str) -> dict:
    """The parameters of a `Bearer` challenge (resource_metadata, scope, error...)."""
    at = header.lower().find("bearer")
    if at < 0:
        return {}
    return {name.lower(): quoted if quoted else bare for name, quoted, bare in _PARAMETER.findall(header[at + 6:])}


def canonical(url: str) -> str:
    """An address as resources and issuers are compared: scheme and host in lower case, no
    fragment, no trailing slash on the path (`http://a/` and `http://a` name one server)."""
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/")
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}{query}"


def safe_address(url: str, what: str, host: Host | None = None) -> str:
    """`url` if it is https, or http on this machine, as the parser that fetches it reads it
    (the host's `resolve_url`); MCPError naming `what` otherwise."""
    read = (host or Host()).resolve_url(url, url) if isinstance(url, str) else None
    origin = read[1] if read else ""
    scheme, _, authority = origin.partition("://")
    name = authority.rsplit(":", 1)[0] if not authority.endswith("]") else authority
    if scheme == "https" or (scheme == "http" and name in LOOPBACK):
        return url
    raise MCPError(f"TabAgent does not sign in through {what} {bounded(str(url), 200)!r}: it must be an "
                   f"https address (or http on this machine).")


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


async def get_json(host: Host, url: str, timeout: float) -> dict | None:
    """The JSON object at `url`, or None when it answers anything but 200 with one."""
    try:
        response = await host.request("GET", url, {"accept": "application/json"}, None, timeout, follow_redirects=False)
    except (NetworkError, RequestTimeout) as e:
        raise MCPError(f"could not reach {bounded(url, 200)} ({e}).") from None
    body = await messages.read_body(response, url, METADATA_BYTES)
    if response.status != 200:
        return None
    try:
        found = json.loads(body)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def well_known(base: str, name: str, path_first: bool = True) -> list[str]:
    """`/.well-known/<name>` inserted before `base`'s path, then at its root."""
    parts = urlsplit(base)
    origin, path = f"{parts.scheme}://{parts.netloc}", parts.path.rstrip("/")
    root = f"{origin}/.well-known/{name}"
    return [f"{root}{path}", root] if path and path_first else [root]


async def protected_resource(host: Host, server_url: str, header: str, timeout: float) -> dict | None:
    """The server's protected resource metadata, checked to be about this very server; None
    when a server that names none publishes none (a server of the 2025-03-26 revision)."""
    named = challenge(header).get("resource_metadata")
    places = [safe_address(named, "the resource metadata at", host)] if named else well_known(server_url, "oauth-protected-resource")
    for place in places:
        found = await get_json(host, place, timeout)
        if found is not None:
            return checked_resource(found, server_url)
    if named:
        raise MCPError(f"the MCP server at {server_url} asks for sign-in but its protected resource metadata "
                       f"(RFC 9728) cannot be read, so TabAgent cannot tell where to sign in.")
    return None


def checked_resource(metadata: dict, server_url: str) -> dict:
    """The metadata, if its `resource` is this server or a part of its origin above it."""
    resource = metadata.get("resource")
    if not isinstance(resource, str) or not covers(resource, server_url):
        raise MCPError(f"the MCP server at {server_url} sent sign-in details for another server "
                       f"({bounded(str(resource), 200)!r}): TabAgent refused them, since a token made for "
                       f"that server would be sent to this one.")
    servers = metadata.get("authorization_servers")
    if not isinstance(servers, list) or not servers or not all(isinstance(s, str) for s in servers):
        raise MCPError(f"the MCP server at {server_url} names no authorization server to sign in with.")
    return metadata


def covers(resource: str, server_url: str) -> bool:
    """Whether a resource names this server: the same address, or its origin with a path that
    is a whole-segment beginning of the server's (`https://a/` and `https://a/v1` for `https://a/v1/mcp`)."""
    ours, theirs = canonical(server_url), canonical(resource)
    if "?" in theirs or "#" in resource:
        return ours == theirs
    return ours == theirs or (origin_of(ours) == origin_of(theirs) and ours.startswith(theirs + "/"))


def authorization_metadata_addresses(issuer: str) -> list[str]:
    """The spec's order: OAuth metadata, then OpenID discovery (path inserted, then appended)."""
    parts = urlsplit(issuer)
    origin, path = f"{parts.scheme}://{parts.netloc}", parts.path.rstrip("/")
    if not path:
        return [f"{origin}/.well-known/oauth-authorization-server", f"{origin}/.well-known/openid-configuration"]
    return [f"{origin}/.well-known/oauth-authorization-server{path}", f"{origin}/.well-known/openid-configuration{path}",
            f"{origin}{path}/.well-known/openid-configuration"]


async def authorization_server(host: Host, issuer: str, timeout: float, defaults: bool = False) -> dict:
    """The authorization server's metadata, checked: its own issuer, PKCE with S256, safe
    endpoints. `defaults`: a 2025-03-26 server's own origin, whose metadata may be missing:
    then the default endpoints that revision names."""
    safe_address(issuer, "the authorization server", host)
    for place in authorization_metadata_addresses(issuer):
        found = await get_json(host, place, timeout)
        if found is not None:
            return checked_authorization_server(found, issuer, host)
    if defaults:
        origin = origin_of(issuer)
        return checked_authorization_server({
            "issuer": issuer, "authorization_endpoint": f"{origin}/authorize", "token_endpoint": f"{origin}/token",
            "registration_endpoint": f"{origin}/register", "code_challenge_methods_supported": ["S256"]}, issuer, host)
    raise MCPError(f"the authorization server {bounded(issuer, 200)} publishes no metadata (RFC 8414 or "
                   f"OpenID discovery).")


def checked_authorization_server(metadata: dict, issuer: str, host: Host | None = None) -> dict:
    said = metadata.get("issuer")
    if not isinstance(said, str) or canonical(said) != canonical(issuer):
        raise MCPError(f"the authorization server {bounded(issuer, 200)} calls itself "
                       f"{bounded(str(said), 200)!r}: TabAgent refused to sign in with it.")
    if "S256" not in (metadata.get("code_challenge_methods_supported") or []):
        raise MCPError(f"the authorization server {bounded(issuer, 200)} does not offer PKCE with S256, "
                       f"which the MCP specification requires: TabAgent does not sign in without it.")
    for key in ("authorization_endpoint", "token_endpoint"):
        if not isinstance(metadata.get(key), str):
            raise MCPError(f"the authorization server {bounded(issuer, 200)} gives no {key}.")
        safe_address(metadata[key], f"the {key.replace('_', ' ')}", host)
    for key in ("registration_endpoint", "revocation_endpoint"):
        if metadata.get(key) is not None:
            safe_address(metadata[key], f"the {key.replace('_', ' ')}", host)
    return metadata
