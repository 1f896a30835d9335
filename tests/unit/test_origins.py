"""Origins outside the browser (tabagent.origins) against the browser's own URL parser: Node's
`URL` is the WHATWG parser Chromium's and Firefox's fetch follow. Whatever the conservative
reader accepts, the browser reads as the same origin; what the two might read differently
(the attacks an MCP server's `endpoint` event could send) is refused."""

import json
import subprocess

import pytest

from tabagent.origins import resolve

BASE = "http://127.0.0.1:1234/sse"

ADDRESSES = [
    # the plain ones a real server sends
    "/messages?session_id=abc", "messages?x=1", "?session=1", "http://127.0.0.1:1234/messages",
    "HTTP://127.0.0.1:01234/m", "http://127.0.0.1:1234", "/a/../b/./c", "/x@y", "http://127.0.0.1:1234/p@q",
    # one parser's host is not the other's
    "http://evil.example\\@127.0.0.1:1234/x", "http://127.0.0.1:1234\\@evil.example/x", "\\\\evil.example/x",
    "/\\evil.example/x", "//evil.example/x", "http://evil.example@127.0.0.1:1234/x",
    "http://127.0.0.1:1234@evil.example/x", "http:evil.example/x", "http:/evil.example/x",
    "http://evil.example%5C@127.0.0.1:1234/", "http://127.0.0.1%3a1234@evil.example/",
    "http://evil.example\t@127.0.0.1:1234/", "http://ev\nil.example/", " http://evil.example/",
    "http://evil.example#@127.0.0.1:1234/", "http://evil.example?@127.0.0.1:1234/",
    "http://ｅvil.example/", "http://127.0.0.1.:1234/", "http://0x7f.1:1234/", "http://[::ffff:7f00:1]:1234/",
    "https://127.0.0.1:1234/", "http://127.0.0.1:80/", "ftp://127.0.0.1:1234/", "javascript:alert(1)",
    "http://127.0.0.1:1234\u3000@evil.example/", "http://127.0.0.1:1234;@evil.example/",
]

BROWSER = """
const [base, addresses] = JSON.parse(require("fs").readFileSync(0, "utf8"));
const read = (a) => { try { const u = new URL(a, base); return [u.href, u.origin]; } catch { return null; } };
process.stdout.write(JSON.stringify(addresses.map(read)));
"""


@pytest.fixture(scope="module")
def browser_reads():
    """How the browser's URL parser reads each address against BASE."""
    ran = subprocess.run(["node", "-e", BROWSER], input=json.dumps([BASE, ADDRESSES]), capture_output=True,
                         text=True, timeout=30, check=True)
    return dict(zip(ADDRESSES, json.loads(ran.stdout)))


@pytest.mark.parametrize("address", ADDRESSES)
def test_an_origin_read_in_python_is_the_one_the_browser_reads(browser_reads, address):
    ours = resolve(address, BASE)
    if ours is not None:
        assert browser_reads[address] is not None and ours[1] == browser_reads[address][1]


def test_what_the_two_parsers_read_differently_is_refused():
    for address in ["http://evil.example\\@127.0.0.1:1234/x", "http://127.0.0.1:1234\\@evil.example/x",
                    "/\\evil.example/x", "//evil.example/x", "http://evil.example@127.0.0.1:1234/x",
                    "http://evil.example\t@127.0.0.1:1234/", "http:evil.example/x"]:
        assert resolve(address, BASE) is None, address


def test_the_addresses_real_servers_send_are_read():
    assert resolve("/messages?session_id=abc", BASE) == ("http://127.0.0.1:1234/messages?session_id=abc", "http://127.0.0.1:1234")
    assert resolve("http://127.0.0.1:1234/messages", BASE)[1] == "http://127.0.0.1:1234"
    assert resolve("/messages/", "https://mcp.example.com/sse")[1] == "https://mcp.example.com"
