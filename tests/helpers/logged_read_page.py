"""A read_page tool for unit tests of the agents' loops: it gives `text` whatever it is asked,
and logs each call's (page, max_tokens), so a test can say how often the page was really read."""

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
