"""Waiting on what a test's own servers, files or scripted model hold (a panel's own state is
waited on in the panel: PanelDriver's `wait_for`)."""

from __future__ import annotations

import time


def until(value, timeout: float, message: str):
    """Waits until `value()` is truthy, for `timeout` seconds at most; gives it."""
    deadline = time.monotonic() + timeout
    while not (found := value()):
        assert time.monotonic() < deadline, message
        time.sleep(0.05)
    return found
