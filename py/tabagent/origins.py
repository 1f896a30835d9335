"""Origins as the browser reads them, outside the browser.

The browser's `fetch` parses addresses by the WHATWG URL standard; Python's `urllib.parse`
does not, and the two disagree where an attacker wants them to: `http://127.0.0.1:1234\\@evil.example/`
is 127.0.0.1 to `urlsplit` and evil.example to the browser (a backslash ends the authority
there, so everything before the `@` is a user name). An origin decided by one parser and
fetched by the other lets a server send our messages, and the headers that carry its token,
to any host.

In the extension the host resolves addresses with the browser's own parser (`new URL`,
hosts/pyodide.py). Elsewhere (CPython: the CLI, the tests) `resolve` reads only addresses
whose every character both parsers read alike, and refuses the rest: backslashes, user
names (`@`), percent-escapes, spaces, tabs, newlines, control and non-ASCII characters in
or around the host, a reference that starts with `//`, IPv4 shorthands and IPv6 addresses
the browser would write differently. tests/unit/test_origins.py checks it against Node's
`URL`, the same parser.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

# An absolute http(s) address: scheme, a plain host (letters, digits, dots, hyphens; or an
# IPv6 address in brackets), an optional port, then a path, query or fragment.
_ABSOLUTE = re.compile(r"(?i)(https?)://([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::([0-9]{1,5}))?([/?#][\x21-\x7e]*)?")
# A reference to a path of the same origin: '/path', 'path', '?query', with no scheme
# (no ':' before the first '/'), not starting with '//'.
_RELATIVE = re.compile(r"(?!//)(?![^/?#]*:)[\x21-\x7e]*")
_DEFAULT_PORTS = {"http": 80, "https": 443}
# A host whose last label is a number is an IPv4 address to the browser, which rewrites its
# shorthands (0x7f.1, 2130706433): only the dotted form it writes itself is read here.
_NUMBER_LAST = re.compile(r"(?:^|\.)(?:0x[0-9a-f]*|[0-9]+)$")
_IPV4 = re.compile(r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])")


def origin_of(url: str) -> str | None:
    """The origin of an absolute http(s) address the two parsers read alike; None otherwise."""
    found = _ABSOLUTE.fullmatch(url)
    if found is None or "\\" in url:
        return None
    scheme, host, port = found.group(1).lower(), found.group(2).lower(), found.group(3)
    if host.startswith(".") or host.endswith(".") or ".." in host or not host.strip("."):
        return None
    if (_NUMBER_LAST.search(host) and not _IPV4.fullmatch(host)) or (host.startswith("[") and host != "[::1]"):
        return None  # a shorthand the browser would rewrite: not guessed at
    number = int(port) if port else _DEFAULT_PORTS[scheme]
    if number > 65535:
        return None
    shown_port = "" if number == _DEFAULT_PORTS[scheme] else f":{number}"
    return f"{scheme}://{host}{shown_port}"


def resolve(url: str, base: str) -> tuple[str, str] | None:
    """(address, origin) of `url` read against `base`, as the browser would read them; None
    when the two parsers might read it differently (it is then refused, not guessed at)."""
    if origin_of(base) is None or "\\" in url:
        return None
    if _ABSOLUTE.fullmatch(url):
        target = url
    elif _RELATIVE.fullmatch(url):
        target = urljoin(base, url)
    else:
        return None
    origin = origin_of(target)
    if origin is None or urlsplit(target).hostname is None:
        return None
    return target, origin
