"""Asserting that nothing happens: `stays_quiet` watches for N seconds and fails the moment
something does, instead of a fixed sleep followed by one look (which passes when the thing
happens a little later, and says nothing of what it waited for)."""

from __future__ import annotations

import time


def stays_quiet(what_happened, seconds: float, every: float = 0.05, why: str = "") -> None:
    """Fails as soon as `what_happened()` returns something true within `seconds`; the value
    (a list of requests, a count, a sentence) is the failure's message."""
    end = time.monotonic() + seconds
    while True:
        happened = what_happened()
        if happened:
            raise AssertionError(f"{why or 'something happened that must not'}: {happened!r}")
        if time.monotonic() >= end:
            return
        time.sleep(min(every, max(0.0, end - time.monotonic())))
