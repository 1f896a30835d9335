"""The user's rules for acting on sites, from the settings, one per line:

    shop.example: allow      actions on its pages need no question
    bank.example: never      no action on its pages, and no question: the model is told
    news.example: ask        the default: every action is asked

A rule names a host and covers its subdomains (bank.example covers www.bank.example); the
longest matching host wins. Lines that say none of these are left out.
"""

from __future__ import annotations

from urllib.parse import urlsplit

RULES = ("ask", "allow", "never")


def parse_site_rules(text: str) -> tuple[dict[str, str], list[str]]:
    """({host: rule}, the lines that could not be read)."""
    rules, unreadable = {}, []
    for line in (text or "").splitlines():
        if not line.strip() or line.strip().startswith("#"):
            continue
        host, _, rule = line.partition(":")
        host, rule = host.strip().lower().removeprefix("*."), rule.strip().lower()
        if "://" in line:  # an address written whole: its host
            host, rule = (urlsplit(line.rsplit(":", 1)[0].strip()).hostname or ""), line.rsplit(":", 1)[1].strip().lower()
        if not host or " " in host or rule not in RULES:
            unreadable.append(line.strip())
            continue
        rules[host] = rule
    return rules, unreadable


def rule_for(rules: dict[str, str], site: str | None) -> str:
    """The rule for the origin `site` ("https://www.bank.example"): its host's, or a parent's."""
    host = (urlsplit(site or "").hostname or "").lower()
    matching = [name for name in rules if host == name or host.endswith("." + name)]
    return rules[max(matching, key=len)] if matching else "ask"
