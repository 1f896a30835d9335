"""The user's rules for acting on sites (settings: "site: allow | never | ask" per line): a rule
means exactly what it says, a site spelled another way is the same site, and the settings page
(extension/shared/settings/site-rules.js, the browser's URL parser) reads each line as Python does."""

import json
import shutil
import subprocess

import pytest

from tabagent.app.site_rules import SiteRule, canonical_host, parse_site_rules, rule_for
from tests.helpers.browser import ROOT


def test_rules_are_read_line_by_line_and_unreadable_lines_are_named():
    rules, unreadable = parse_site_rules("""
        shop.example: allow
        # a comment
        *.Bank.example : NEVER
        https://news.example/today: ask
        nonsense
        mail.example: sometimes
        ftp://files.example: allow
        someone@shop.example: allow
    """)
    assert rules == [SiteRule("shop.example", "allow"), SiteRule("bank.example", "never")]
    assert unreadable == ["https://news.example/today: ask", "nonsense", "mail.example: sometimes",
                          "ftp://files.example: allow", "someone@shop.example: allow"]


def test_a_rule_covers_the_subdomains_and_the_longest_host_wins():
    rules, _ = parse_site_rules("example.org: never\nshop.example.org: allow")
    assert rule_for(rules, "https://www.example.org") == "never"
    assert rule_for(rules, "https://shop.example.org") == "allow"
    assert rule_for(rules, "https://a.shop.example.org") == "allow"
    assert rule_for(rules, "https://notexample.org") == "ask"
    assert rule_for(rules, None) == "ask"


def test_a_rule_with_a_scheme_or_a_port_covers_only_that():
    rules, _ = parse_site_rules("https://shop.example:8443: allow\nhttp://blog.example: allow\nwiki.example:8080: allow")
    assert rule_for(rules, "https://shop.example:8443") == "allow"
    assert [rule_for(rules, site) for site in ("https://shop.example", "http://shop.example:8443",
                                               "https://www.shop.example:8443")] == ["ask"] * 3
    assert rule_for(rules, "http://blog.example") == rule_for(rules, "http://blog.example:80") == "allow"
    assert rule_for(rules, "https://blog.example") == rule_for(rules, "http://blog.example:8000") == "ask"
    assert rule_for(rules, "http://wiki.example:8080") == rule_for(rules, "https://a.wiki.example:8080") == "allow"
    assert rule_for(rules, "http://wiki.example") == "ask"


def test_never_covers_every_spelling_scheme_and_port_of_its_site():
    for written in ("bank.example", "BANK.Example.", "b%61nk.example", "ｂａｎｋ.example", "bank。example", "ba\u00adnk.example"):
        rules, unreadable = parse_site_rules(f"{written}: never")
        assert not unreadable, written
        for page in ("https://bank.example", "http://bank.example:8080", "https://www.bank.example.",
                     "https://bank.example.:443"):
            assert rule_for(rules, page) == "never", (written, page)
    for written in ("bücher.example", "BÜCHER.EXAMPLE.", "xn--bcher-kva.example"):  # an international name
        rules, _ = parse_site_rules(f"{written}: never")
        assert rule_for(rules, "https://xn--bcher-kva.example") == rule_for(rules, "http://shop.xn--bcher-kva.example.") == "never"
    rules, _ = parse_site_rules("0x7f.1: never")  # an address, as the browser writes it
    assert rule_for(rules, "http://127.0.0.1:8000") == "never"


def test_a_more_specific_allow_wins_and_between_equals_never_wins():
    rules, _ = parse_site_rules("shop.example: never\nhttps://shop.example:8443: allow")
    assert rule_for(rules, "https://shop.example:8443") == "allow"
    assert rule_for(rules, "https://shop.example") == "never"
    rules, _ = parse_site_rules("shop.example: never\nShop.Example.: allow")
    assert rule_for(rules, "https://shop.example") == "never"


LINES = ["shop.example: allow", "Shop.Example.: never", "https://shop.example:8443: allow", "https://shop.example:443: allow",
         "http://shop.example:80/: ask", "shop.example:80: never", "shop.example:443: never", "shop.example:: allow",
         "*.bank.example: never", "https://*.bank.example: never", "HTTPS://Bank.Example/: never",
         "bücher.example: never", "xn--bcher-kva.example: never", "straße.example: never", "ｂａｎｋ.example: never",
         "bank。example: never", "b%61nk.example: never", "ba\u00adnk.example: never", "0x7f.1: never", "127.1:8000: allow",
         "2130706433: never", "[::1]:8080: allow", "[0:0::1]: never", "http://[::1]: allow", "1.2.3.4.5: never",
         "256.1: never", "https://news.example/today: ask", "ftp://files.example: allow", "someone@shop.example: allow",
         "shop example: allow", "shop.example:99999: allow", "shop.example:8x: allow", "javascript:alert(1): allow",
         "shop.example: sometimes", "nonsense", "bank.example..: never", "xn--zz: never", "shop.example\\: allow",
         "shop.example?: allow", "shop.example#x: allow", "localhost: never", "LOCALHOST.:8080: allow",
         "https://127.0.0.1: never"]


def test_this_computers_names_are_one_host_to_a_rule():
    """localhost, 127.0.0.1 and [::1] (in any spelling the browser reads) reach the same servers:
    a `never` written with one covers the others (issue 46, 8)."""
    for written in ("localhost", "127.0.0.1", "[::1]", "LocalHost.", "127.1", "[0:0::1]", "2130706433"):
        rules, unreadable = parse_site_rules(f"{written}: never")
        assert not unreadable, written
        for page in ("http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000", "https://localhost",
                     "http://app.localhost:3000"):
            assert rule_for(rules, page) == "never", (written, page)
    rules, _ = parse_site_rules("http://127.0.0.1:8000: allow")
    assert rule_for(rules, "http://localhost:8000") == rule_for(rules, "http://[::1]:8000") == "allow"
    assert rule_for(rules, "http://localhost:8001") == "ask"


def test_the_settings_page_reads_each_line_as_python_does():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 to check the JavaScript modules")
    script = ("import { readRule } from './extension/shared/settings/site-rules.js';"
              f"console.log(JSON.stringify({json.dumps(LINES)}.map(readRule)));")
    done = subprocess.run([node, "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    for line, by_the_browser in zip(LINES, json.loads(done.stdout)):
        rules, _ = parse_site_rules(line)
        by_python = [{"scheme": r.scheme, "host": r.host, "port": r.port, "subdomains": r.subdomains, "rule": r.rule}
                     for r in rules]
        assert by_python == ([by_the_browser] if by_the_browser else []), line


def test_hosts_are_written_as_the_browser_writes_them():
    assert canonical_host("straße.example") == "xn--strae-oqa.example"  # not "strasse" (IDNA 2003)
    assert canonical_host("[0:0::1]") == "[::1]" and canonical_host("2130706433") == "127.0.0.1"
    assert canonical_host("a b") is None and canonical_host("256.1") is None
