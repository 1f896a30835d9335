"""Attacks on the command line's sign-in (tabagent/app/cli_sign_in.py): its listener on a loopback
port is reachable by any page the browser shows and any program on the machine, and the token it
keeps is a bearer credential. Each attack is made for real against the OAuth test servers
(tests/helpers/oauth_mcp_server.py) or a hostile one:
- a redirect carrying another state, sent before the real one: refused, nothing taken, the real
  sign-in still goes through and only its code reaches the token endpoint;
- a second answer with the right state (one code used once): refused, and the authorization
  server is asked for tokens once;
- the listener is on 127.0.0.1 only: not on ::1, not on the machine's other addresses;
- a token endpoint on another origin that redirects the code elsewhere: not followed, nothing kept;
- a kept token goes to the server it was given for, not to another server given the same name."""

from __future__ import annotations

import json
import socket
import webbrowser
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tabagent.app.cli_sign_in import SignIns, TerminalSignIn, sign_in
from tabagent.hosts.cpython import CPythonHost
from tabagent.mcp import MCPError
from tests.helpers.oauth_mcp_server import Hostile, log_in_as_a_person

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def sign_ins(tmp_path):
    return SignIns(tmp_path / "sign-ins.json")


def redirect_of(address: str) -> tuple[str, str]:
    query = parse_qs(urlsplit(address).query)
    return query["redirect_uri"][0], query["state"][0]


def outward_address() -> str:
    """This machine's address on its network (a UDP socket "connected" outwards sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            pytest.skip("this machine has no network interface but loopback")
        return probe.getsockname()[0]


def token_requests(server) -> int:
    return [seen["path"] for seen in server.seen()].count("/token")


async def signing_in(server, sign_ins, monkeypatch, browse):
    monkeypatch.setattr(webbrowser, "open", browse)
    return await sign_in("guarded", server.url, sign_ins, CPythonHost(), say=lambda words: None, timeout=30)


async def test_a_redirect_with_another_state_is_refused_and_the_real_one_still_signs_in(oauth_tracker, sign_ins, monkeypatch):
    answered = {}

    def browse(address):
        redirect, _ = redirect_of(address)
        answered["forged"] = httpx.get(f"{redirect}?code=the-attackers-code&state=guessed", timeout=10).status_code
        answered["real"] = httpx.get(log_in_as_a_person(address), timeout=10).status_code
        return True

    before = token_requests(oauth_tracker)
    record = await signing_in(oauth_tracker, sign_ins, monkeypatch, browse)
    assert answered == {"forged": 400, "real": 200}
    assert token_requests(oauth_tracker) == before + 1  # the attacker's code never went for tokens
    assert sign_ins.get(oauth_tracker.url)["access_token"] == record["access_token"]


async def test_one_code_is_taken_once(oauth_tracker, sign_ins, monkeypatch):
    answered = []

    def browse(address):
        back = log_in_as_a_person(address)
        for _ in range(2):
            try:
                answered.append(httpx.get(back, timeout=10).status_code)
            except httpx.ConnectError:
                answered.append("closed")
        return True

    before = token_requests(oauth_tracker)
    await signing_in(oauth_tracker, sign_ins, monkeypatch, browse)
    assert answered[0] == 200 and answered[1] in (400, "closed")
    assert token_requests(oauth_tracker) == before + 1


async def test_the_listener_is_on_127_0_0_1_only(oauth_tracker, sign_ins, monkeypatch):
    reached, outward = {}, outward_address()
    assert not outward.startswith("127.")

    def browse(address):
        redirect, _ = redirect_of(address)
        port = urlsplit(redirect).port
        for name, family, where in (("::1", socket.AF_INET6, "::1"),
                                    ("this machine's network address", socket.AF_INET, outward),
                                    ("127.0.0.2", socket.AF_INET, "127.0.0.2")):
            try:
                with socket.socket(family) as s:
                    s.settimeout(2)
                    s.connect((where, port))
                reached[name] = True
            except OSError:
                reached[name] = False
        httpx.get(log_in_as_a_person(address), timeout=10)
        return True

    await signing_in(oauth_tracker, sign_ins, monkeypatch, browse)
    assert reached == {"::1": False, "this machine's network address": False, "127.0.0.2": False}


async def test_a_token_endpoint_elsewhere_that_redirects_the_code_is_not_followed(sign_ins, monkeypatch):
    elsewhere, token_endpoint, mcp = Hostile({}), Hostile({}), Hostile({})
    issuer = f"http://127.0.0.1:{mcp.port}"
    metadata = {"issuer": issuer, "authorization_endpoint": f"{issuer}/authorize",
                "token_endpoint": f"http://127.0.0.1:{token_endpoint.port}/token",
                "registration_endpoint": f"{issuer}/register", "code_challenge_methods_supported": ["S256"]}
    mcp.routes.update({
        "/mcp": (401, {"www-authenticate": f'Bearer resource_metadata="{issuer}/prm"'}, b""),
        "/prm": (200, {"content-type": "application/json"},
                 json.dumps({"resource": mcp.url, "authorization_servers": [issuer]}).encode()),
        "/.well-known/oauth-authorization-server": (200, {"content-type": "application/json"}, json.dumps(metadata).encode()),
        "/register": (201, {"content-type": "application/json"}, b'{"client_id": "c-1"}')})
    token_endpoint.routes["/token"] = (307, {"location": f"http://127.0.0.1:{elsewhere.port}/steal"}, b"")

    def browse(address):
        redirect, state = redirect_of(address)
        httpx.get(f"{redirect}?code=the-code&state={state}", timeout=10)
        return True

    class Hosted:
        url = mcp.url

    try:
        with pytest.raises(MCPError, match="refused the token request"):
            await signing_in(Hosted, sign_ins, monkeypatch, browse)
    finally:
        for hostile in (elsewhere, token_endpoint, mcp):
            hostile.close()
    assert [heard[:2] for heard in token_endpoint.heard] == [("POST", "/token")]
    assert elsewhere.heard == [] and sign_ins.all() == {}


async def test_a_kept_token_goes_to_its_own_server_only(oauth_tracker, sign_ins, monkeypatch):
    await signing_in(oauth_tracker, sign_ins, monkeypatch, lambda address: bool(httpx.get(log_in_as_a_person(address))))
    other = Hostile({})
    try:
        signing = TerminalSignIn([{"id": "guarded", "url": other.url}], sign_ins, CPythonHost(), can_ask=False)
        assert await signing.headers({}) == {}
        assert not (await signing.sign_in("guarded", "", interactive=False))["ok"]
    finally:
        other.close()
    assert other.heard == []
