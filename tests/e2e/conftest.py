"""The e2e harness: the built extension in real headless Chromium.

- the extension is built once per test session;
- `browser` is one Chromium with TabAgent loaded, shared by the tests of a module;
- `fresh_browser` is a Chromium of its own with a new profile, for tests that need a cold
  start or stop the browser;
- after every test, any uncaught exception or console error in the extension's contexts
  fails it;
- `panel`: the side panel on a new conversation with the scripted model (`model`, of
  tests/conftest.py);
- `tabs`: a page tab the user is "on" and the side panel beside it (page_tabs.py), for a module;
  `tabs_beside_the_panel`: the page in a window of its own, which the browser can picture;
  `tool_calling` saves the scripted model and the tool-calling agent in its settings (a module
  whose turns call tools uses it: `pytest.mark.usefixtures("tool_calling")`);
- `chromium`: Chromium with no extension, the page tools injected by hand (tests/helpers/
  page_tools.py); `corpus`: the vendored Readability pages served;
- `downloads`: an empty folder where the browser of the module saves downloads;
- `llama`: llama.cpp's own server with a small model (tests/helpers/llama_server.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.browser import ROOT, Browser, fresh_profile, remove_profile


@pytest.fixture(scope="session")
def built_extension():
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True)
    return ROOT


def _launch(profile):
    return Browser(profile).start()


@pytest.fixture(scope="module")
def browser(built_extension):
    profile = fresh_profile()
    instance = _launch(profile)
    yield instance
    instance.quit()
    remove_profile(profile)


@pytest.fixture
def fresh_browser(built_extension):
    profile = fresh_profile()
    instances = []

    def launch():
        instance = _launch(profile)
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


@pytest.fixture(autouse=True)
def no_extension_errors(request):
    """Fails the test on any uncaught error or console.error in the extension."""
    watched = [name for name in ("browser",) if name in request.fixturenames]
    yield
    for name in watched:
        problems = request.getfixturevalue(name).take_problems()
        assert not problems, "errors in the extension:\n" + "\n".join(map(str, problems))


@pytest.fixture
def panel(browser, model):
    """The side panel on a new conversation, talking to the scripted model (tool calling)."""
    from .chat import configure, fresh_panel

    model.reset()
    fresh_panel(browser)
    configure(browser, model.base_url)
    return browser


@pytest.fixture(scope="module")
def tabs(browser):
    from .page_tabs import PageTabs

    return PageTabs(browser)


@pytest.fixture(scope="module")
def tabs_beside_the_panel(browser):
    """The page in a window of its own, in front there (so the browser can picture it), the
    side panel's page in another (sight_tabs.py)."""
    from .sight_tabs import WindowedTabs

    return WindowedTabs(browser)


@pytest.fixture(scope="module")
def tool_calling(tabs, model):
    from .chat import configure

    configure(tabs.browser, model.base_url, agent="tool_calling")
    return tabs


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
