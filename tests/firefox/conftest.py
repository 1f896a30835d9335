"""The Firefox e2e harness: the Firefox build (dist/firefox/) in real headless Firefox ESR.

- both packages are built once per test session (build.py, then browser_builds.py);
- `firefox` is one Firefox with TabAgent installed, shared by the tests of a module;
- after every test, any console error or uncaught exception in the pages it drove fails it;
- `downloads`: a folder for a module's downloads (a Firefox that saves there is started with
  its preferences: see test_import.py).
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.helpers.coverage_skip import skip_or_fail_in_ci

from tests.helpers.firefox import FIREFOX, ROOT, Firefox


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/firefox/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.firefox)


@pytest.fixture(scope="session")
def firefox_build():
    if not shutil.which(FIREFOX):
        skip_or_fail_in_ci(f"{FIREFOX} is not installed: `make test` installs it (scripts/ensure-firefox.sh)")
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True)
    subprocess.run([sys.executable, str(ROOT / "scripts" / "browser_builds.py")], check=True)
    return ROOT / "dist" / "firefox"


@pytest.fixture(scope="module")
def firefox(firefox_build):
    instance = Firefox().start(firefox_build)
    yield instance
    instance.quit()


@pytest.fixture(autouse=True)
def no_errors_in_firefox(request):
    yield
    if "firefox" in request.fixturenames:
        problems = request.getfixturevalue("firefox").take_problems()
        assert not problems, "errors in the extension:\n" + "\n".join(problems)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("firefox-downloads")
