"""The user's rules for acting on sites (settings: "host: allow | never | ask" per line)."""

from tabagent.app.site_rules import parse_site_rules, rule_for


def test_rules_are_read_line_by_line_and_unreadable_lines_are_named():
    rules, unreadable = parse_site_rules("""
        shop.example: allow
        # a comment
        *.Bank.example : NEVER
        https://news.example/today: ask
        nonsense
        mail.example: sometimes
    """)
    assert rules == {"shop.example": "allow", "bank.example": "never", "news.example": "ask"}
    assert unreadable == ["nonsense", "mail.example: sometimes"]


def test_a_rule_covers_the_subdomains_and_the_longest_host_wins():
    rules, _ = parse_site_rules("example.org: never\nshop.example.org: allow")
    assert rule_for(rules, "https://www.example.org") == "never"
    assert rule_for(rules, "https://shop.example.org") == "allow"
    assert rule_for(rules, "https://a.shop.example.org") == "allow"
    assert rule_for(rules, "https://notexample.org") == "ask"
    assert rule_for(rules, None) == "ask"
