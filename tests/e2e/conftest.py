"""The e2e harness: the built extension in real headless Chromium (`browser`, of tests/conftest.py,
where `panel`, `tabs`, `tool_calling` and `turn` are too: here each is a ChromiumPanel, a
PanelDriver driving the side panel with Selenium, tests/helpers/panel_backends.py).

- `fresh_browser` is a Chromium of its own with a new profile, for tests that need a cold
  start or stop the browser;
- `sandbox`: the offscreen document's code sandbox (tests/helpers/sandbox.py), for a module;
- `chromium`: Chromium with no extension, the page tools injected by hand (tests/helpers/
  page_tools.py); `corpus`: the vendored Readability pages served;
- `downloads`: an empty folder where the browser of the module saves downloads;
- `llama`: llama.cpp's own server with a small model (tests/helpers/llama_server.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.browser import Browser, fresh_profile, remove_profile


@pytest.fixture
def fresh_browser(built_extension):
    profile = fresh_profile()
    instances = []

    def launch():
        instance = Browser(profile).start()
        instances.append(instance)
        return instance

    launch.profile = profile
    yield launch
    problems = []
    for instance in instances:
        problems += instance.take_problems()
        try:
            instance.quit()
        except Exception:
            pass
    remove_profile(profile)
    assert not problems, "errors in the extension:\n" + "\n".join(map(str, problems))


@pytest.fixture(scope="module")
def sandbox(browser):
    """The offscreen document's code sandbox, started by a panel, prepared from the build's snapshot."""
    from tests.helpers.sandbox import open_sandbox

    sandbox = open_sandbox(browser)
    info = sandbox.js("globalThis.tabagent.sandbox.prepare()")
    assert info["fromSnapshot"] is True, info
    return sandbox


@pytest.fixture(scope="module")
def chromium():
    from tests.helpers.page_tools import start_chromium

    driver = start_chromium()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def corpus():
    from tests.helpers.page_server import PageServer

    with PageServer(Path(__file__).parent / "pages" / "readability") as server:
        yield server


@pytest.fixture
def downloads(browser, tmp_path):
    folder = tmp_path / "downloads"
    folder.mkdir()
    browser.cdp.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
    return folder


@pytest.fixture(scope="module")
def llama():
    """llama.cpp's server with SmolLM2-135M-Instruct and a 2,048-token window, for a module."""
    from tests.helpers.coverage_skip import skip_or_fail_in_ci
    from tests.helpers.llama_server import LlamaServer, missing

    why = missing()
    if why:
        skip_or_fail_in_ci(why)
    with LlamaServer() as server:
        yield server
