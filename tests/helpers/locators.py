"""The locators list_controls hands out, as (locator, number, its line)."""

from __future__ import annotations

import re

from tests.helpers.page_content import page_content

LOCATOR = re.compile(r"^(ta-(\d+)) ", re.M)


def locators(tabs, **args):
    """The locators list_controls gives, as (locator, number, its line)."""
    body = page_content(tabs.call_tool("list_controls", **args))[1].partition("\n\n")[2]
    return [(m.group(1), int(m.group(2)), line) for m, line in
            ((LOCATOR.match(line), line) for line in body.splitlines()) if m]
