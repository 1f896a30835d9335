"""A browser whose start fails is quit (issue 23): chromedriver and Chromium left running
would load every later test and measurement, and nobody holds the browser to quit it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.helpers.browser import Browser, fresh_profile, remove_profile

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


def processes_naming(text: str) -> list[int]:
    """The processes whose command line holds `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and text in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                found.append(int(entry.name))
        except OSError:
            continue  # it ended while we looked
    return found


def still_running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's bookkeeping is left


def test_a_start_that_fails_leaves_no_chromedriver_and_no_chromium(tmp_path):
    # What the boot benchmark once loaded: an extension whose manifest names messages that
    # have no _locales, which Chromium refuses to load, so the start waits for it in vain.
    (tmp_path / "manifest.json").write_text(json.dumps({
        "manifest_version": 3, "name": "__MSG_name__", "version": "1", "default_locale": "en",
        "background": {"service_worker": "extension/background/service-worker.js"},
    }))
    profile = fresh_profile()
    browser = Browser(profile)
    try:
        with pytest.raises(RuntimeError, match="did not load"):
            browser.start(tmp_path)
        chromedriver = browser.driver.service.process.pid
        deadline = time.monotonic() + 30  # Chromium's processes take a moment to end after quit
        while (still_running(chromedriver) or processes_naming(str(profile))) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not still_running(chromedriver), "chromedriver is still running"
        assert not [pid for pid in processes_naming(str(profile)) if still_running(pid)], "Chromium is still running"
    finally:
        remove_profile(profile)
