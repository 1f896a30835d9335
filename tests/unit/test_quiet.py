"""stays_quiet fails the moment something happens, and waits the whole time otherwise."""

import time

import pytest

from tests.helpers.quiet import stays_quiet


def test_it_waits_the_whole_time_when_nothing_happens():
    started = time.monotonic()
    stays_quiet(lambda: [], 0.3)
    assert time.monotonic() - started >= 0.3


def test_it_fails_as_soon_as_something_happens_with_what_happened():
    started, hits = time.monotonic(), []
    with pytest.raises(AssertionError, match=r"a request left: \['/leak'\]"):
        stays_quiet(lambda: hits.append("/leak") or hits if time.monotonic() - started > 0.1 else [],
                    5, why="a request left")
    assert time.monotonic() - started < 2
