"""Tools for unit tests of the agents' loops that log what they were asked: read_page gives `text`
whatever it is asked and logs each call's (page, max_tokens), so a test can say how often the page
was really read; click acts (a read is settled until something acts) and logs each locator."""

from __future__ import annotations

from tabagent.tools import tool


def logged_read_page(text: str, log: list):
    @tool
    def read_page(page: int = 1, max_tokens: int = 4000) -> str:
        """Reads the page the user is on.

        Args:
            page: which part
            max_tokens: how much
        """
        log.append((page, max_tokens))
        return text
    return read_page


def logged_click(log: list):
    @tool
    def click(locator: str) -> str:
        """Clicks.

        Args:
            locator: what
        """
        log.append(locator)
        return "clicked"
    click.acts = True
    return click
