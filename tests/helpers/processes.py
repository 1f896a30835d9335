"""Ending the processes the tests start (browsers, model and MCP servers) whatever state they are in."""

from __future__ import annotations

import subprocess


def end_within(process: subprocess.Popen, seconds: float) -> None:
    """Gives `process` (already asked to end) `seconds` to do so, then kills it and waits for that."""
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
