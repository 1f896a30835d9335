"""The e2e harness: the built extension in real headless Chromium.

- the extension is built once per test session;
- `browser` is one Chromium with TabAgent loaded, shared by the tests of a module;
- `fresh_browser` is a Chromium of its own with a new profile, for tests that need a cold
  start or stop the browser;
- after every test, any uncaught exception or console error in the extension's contexts
  fails it.
"""

from __future__ import annotations

import subprocess
import sys

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


@pytest.fixture(scope="module")
def model():
    """A scripted OpenAI-compatible model server on 127.0.0.1, for a test module."""
    from tests.helpers.model_server import ModelServer

    with ModelServer() as server:
        yield server


@pytest.fixture
def panel(browser, model):
    """The side panel on a new conversation, talking to the scripted model (tool calling)."""
    from .chat import configure, fresh_panel

    model.reset()
    fresh_panel(browser)
    configure(browser, model.base_url)
    return browser
