"""The user's rules for acting on sites, from the settings, one per line:

    shop.example: allow              actions on its pages need no question
    bank.example: never              no action on its pages, and no question: the model is told
    news.example: ask                the default: every action is asked
    https://shop.example:8443: allow that scheme, host and port only

A rule means what it says. A host alone covers that host and its subdomains, on any scheme and
port; with a port ("shop.example:8443") only that port; written with its scheme
("https://shop.example") only that scheme, host and port (the scheme's own port when none is
written), without subdomains unless it starts with "*.". A line with a path, a user name, a
scheme other than http(s) or a rule other than these three is not read (the settings page shows
how each line was read: extension/shared/settings/site-rules.js, the browser's reading of the same text).

Hosts are compared as the browser's URL parser writes them (the WHATWG URL standard): lower case,
international names in punycode, percent-escapes decoded, IPv4 in dotted decimal, plus one step
of ours: trailing dots removed (bank.example. is bank.example), and this computer's own names,
`localhost`, `127.0.0.1` and `[::1]`, are one host. So a `never` cannot be missed by spelling
its site another way. When two rules cover a page the most specific wins (the longer
host, then a port, then a scheme); between equals, `never` wins.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote_to_bytes, urlsplit

RULES = ("ask", "allow", "never")
DEFAULT_PORTS = {"http": 80, "https": 443}
SEVERITY = {"allow": 0, "ask": 1, "never": 2}

# What may follow "scheme://" in a rule: a host, perhaps a port, perhaps a final "/".
SITE = re.compile(r"\A[^/\\?#@\s]+/?\Z")
# The WHATWG URL standard's forbidden domain code points.
FORBIDDEN = set("\x00\t\n\r #/:<>?@[\\]^|%\x7f") | {chr(c) for c in range(0x20)}
# UTS 46 keeps these as they are (non-transitional processing), where case folding would change them.
DEVIATIONS = "\u00df\u03c2\u200c\u200d"
# The names of this computer a browser reaches the same servers by: one host to a rule.
LOOPBACK = {"localhost": "localhost", "127.0.0.1": "localhost", "[::1]": "localhost"}
DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})


@dataclass(frozen=True)
class SiteRule:
    host: str                 # canonical: see canonical_host
    rule: str                 # "allow" | "never" | "ask"
    scheme: str | None = None  # None: http and https
    port: int | None = None    # None: any port
    subdomains: bool = True

    def covers(self, scheme: str, host: str, port: int) -> bool:
        if (self.scheme and self.scheme != scheme) or (self.port is not None and self.port != port):
            return False
        return host == self.host or (self.subdomains and host.endswith("." + self.host))

    def specificity(self) -> tuple:
        return (len(self.host), not self.subdomains, self.port is not None, self.scheme is not None,
                SEVERITY[self.rule])


def parse_site_rules(text: str) -> tuple[list[SiteRule], list[str]]:
    """(the rules, the lines that could not be read)."""
    rules, unreadable = [], []
    for line in re.split(r"\r\n|\r|\n", text or ""):  # as the settings page splits it
        if not line.strip() or line.strip().startswith("#"):
            continue
        rule = read_rule(line)
        if rule:
            rules.append(rule)
        else:
            unreadable.append(line.strip())
    return rules, unreadable


def read_rule(line: str) -> SiteRule | None:
    """One line, "site: rule", as a rule; None when it cannot be read."""
    site, colon, rule = line.strip().rpartition(":")
    rule, site, scheme = rule.strip().lower(), site.strip(), None
    if not colon or rule not in RULES:
        return None
    if "://" in site:
        scheme, _, site = site.partition("://")
        scheme = scheme.lower()
        if scheme not in DEFAULT_PORTS:
            return None
    subdomains = scheme is None or site.startswith("*.")
    site = site.removeprefix("*.")
    if not SITE.match(site):
        return None
    host, port = host_and_port(site.removesuffix("/"))
    host = rule_host(host) if port != -1 else None
    if not host:
        return None
    if scheme and port is None:
        port = DEFAULT_PORTS[scheme]
    return SiteRule(host, rule, scheme, port, subdomains)


def host_and_port(text: str) -> tuple[str, int | None]:
    """("host", port or None); port -1 when what follows the host is not a port."""
    if text.startswith("["):  # an IPv6 address, whose colons are its own
        host, bracket, rest = text.partition("]")
        host, port = host + bracket, rest[1:]
        if rest and not rest.startswith(":"):
            return host, -1
    else:
        host, colon, port = text.rpartition(":")
        if not colon:
            return text, None
    if not port:
        return host, None
    return (host, int(port)) if port.isascii() and port.isdigit() and int(port) <= 65535 else (host, -1)


def site_of(url: str | None) -> str | None:
    """The origin of an http(s) page, as "https://example.org"; None for anything else."""
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else None


def rule_for(rules: list[SiteRule], site: str | None) -> str:
    """The rule for the origin `site` ("https://www.bank.example"): the most specific rule that
    covers it, or "ask"."""
    where = origin_parts(site)
    matching = [rule for rule in rules if where and rule.covers(*where)]
    return max(matching, key=SiteRule.specificity).rule if matching else "ask"


@lru_cache(maxsize=256)  # asked before every action, of the few sites a turn works on
def origin_parts(site: str | None) -> tuple[str, str, int] | None:
    """(scheme, canonical host, port) of an http(s) origin, or None."""
    parts = urlsplit(site or "")
    if parts.scheme not in DEFAULT_PORTS:
        return None
    host, port = host_and_port(parts.netloc.rpartition("@")[2])
    host = rule_host(host) if port != -1 else None
    return (parts.scheme, host, port if port is not None else DEFAULT_PORTS[parts.scheme]) if host else None


def rule_host(text: str) -> str | None:
    """A host as rules compare it: canonical, and this computer's names one."""
    host = canonical_host(text)
    return LOOPBACK.get(host, host) if host else None


def canonical_host(text: str) -> str | None:
    """A host as the browser's URL parser writes it, without trailing dots; None if it is none."""
    if text.startswith("["):
        try:
            return f"[{ipaddress.IPv6Address(text[1:-1]).compressed}]" if text.endswith("]") else None
        except ValueError:
            return None
    try:
        domain = unquote_to_bytes(text).decode("utf-8")
    except UnicodeDecodeError:
        return None
    ascii_host = domain_to_ascii(domain)
    if not ascii_host or any(c in FORBIDDEN for c in ascii_host):
        return None
    if ends_in_a_number(ascii_host):
        return ipv4(ascii_host)
    return ascii_host.rstrip(".") or None


def domain_to_ascii(domain: str) -> str | None:
    """UTS 46 as the URL standard asks (non-transitional): map, normalise, punycode each label."""
    mapped = "".join(c if c in DEVIATIONS else unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", c).casefold())
                     for c in domain if not ignored(c))
    labels = unicodedata.normalize("NFC", mapped.translate(DOTS)).split(".")
    try:
        return ".".join(ascii_label(label) for label in labels)
    except ValueError:
        return None


def ignored(c: str) -> bool:
    """Characters UTS 46 leaves out: soft hyphen, zero-width space and other format characters
    (but the joiners, which it keeps), variation selectors."""
    return (unicodedata.category(c) == "Cf" and c not in "\u200c\u200d") or "\ufe00" <= c <= "\ufe0f"


def ascii_label(label: str) -> str:
    if label.isascii():
        if label.lower().startswith("xn--"):
            label.lower()[4:].encode("ascii").decode("punycode")  # raises ValueError if it is not punycode
        return label.lower()
    if "\u200c" in label or "\u200d" in label or any(unicodedata.category(c) in ("Cc", "Cn", "Co", "Cs", "Zs") for c in label):
        raise ValueError(label)
    return "xn--" + label.encode("punycode").decode("ascii")


def ends_in_a_number(host: str) -> bool:
    last = host.split(".")[-2] if host.endswith(".") and host.count(".") else host.split(".")[-1]
    return bool(last) and (last.isdigit() or bool(re.fullmatch(r"0[xX][0-9a-fA-F]*", last)))


def ipv4(host: str) -> str | None:
    """The URL standard's IPv4 parser: 127.1, 0x7f.0.0.1 and 2130706433 are 127.0.0.1."""
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    numbers = [ipv4_number(part) for part in parts]
    if len(parts) > 4 or None in numbers or any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(parts)):
        return None
    address = numbers[-1] + sum(n * 256 ** (3 - i) for i, n in enumerate(numbers[:-1]))
    return str(ipaddress.IPv4Address(address))


DIGITS = {8: "01234567", 10: "0123456789", 16: "0123456789abcdefABCDEF"}


def ipv4_number(part: str) -> int | None:
    base, digits = (16, part[2:]) if part[:2].lower() == "0x" else (8, part[1:]) if len(part) > 1 and part[0] == "0" else (10, part)
    if not part or not all(c in DIGITS[base] for c in digits):
        return None
    return int(digits, base) if digits else 0
