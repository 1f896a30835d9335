"""A browser whose start fails is quit (issue 23): chromedriver and Chromium left running
would load every later test and measurement, and nobody holds the browser to quit it."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from tests.helpers.browser import Browser, fresh_profile, remove_profile

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]


def chromium_running(profile) -> bool:
    """Whether a process of the Chromium that uses `profile` still runs (a zombie, ended but
    not yet reaped, has no command line left to match)."""
    return subprocess.run(["pgrep", "-f", f"user-data-dir={profile}"], capture_output=True).returncode == 0


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
        chromedriver = browser.driver.service.process
        deadline = time.monotonic() + 30  # Chromium's processes take a moment to end after quit
        while (chromedriver.poll() is None or chromium_running(profile)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert chromedriver.poll() is not None, "chromedriver is still running"
        assert not chromium_running(profile), "Chromium is still running"
    finally:
        remove_profile(profile)
