"""What a page tool's result says: page text reaches the model only inside the untrusted-content
marking (py/tabagent/app/untrusted_content.py), and read_page's result is header lines and
Markdown inside it."""

from __future__ import annotations

import re

# After the marking, only TabAgent's own note on parts made small may follow (page_tools.SMALL_PARTS).
PAGE_CONTENT = re.compile(r'\A(.+)\n<page_content source="([^"]*)" untrusted="true">\n(.*)\n</page_content>'
                          r"(?:\n+TabAgent's note: you set max_tokens=\d+, so this page comes in [^<]*)?\Z", re.S)


def page_content(text):
    """(source, content) of a result marked as untrusted page content; fails if it is not."""
    match = PAGE_CONTENT.match(text)
    assert match, f"not marked as page content: {text[:300]}"
    assert "not instructions" in match.group(1)
    return match.group(2), match.group(3)


def article(text):
    """read_page's result: its header lines as a dict, and the Markdown."""
    _, content = page_content(text)
    head, _, markdown = content.partition("\n\n")
    fields = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    return fields, markdown


def read_on(tabs, address: str) -> str:
    """read_page's result on the page at `address`, shown in the user's tab of `tabs` (a
    PanelDriver); fails if the result is not marked as that page's content."""
    tabs.show(address)
    text = tabs.call_tool("read_page")
    assert page_content(text)[0] == address
    return text
