"""TabAgent boots in Firefox: the event page hosts Python (Firefox has no offscreen documents)."""

from __future__ import annotations

from tests.helpers.firefox import ROOT

from tests.helpers.panel_backends import FirefoxPanel


def test_the_chat_page_shows_python_ready(firefox):
    panel = FirefoxPanel(firefox)  # once Python is ready
    status = panel.run("document.getElementById('python-status').hidden")
    # Readiness shows only while Python is not ready; the versions are the tooltip of the
    # panel's name, which stays in sight.
    name = panel.run("document.querySelector('header .title').title")
    assert status is True
    assert name.startswith("Python 3.14"), name


def test_the_background_answers_with_pythons_versions(firefox):
    context = firefox.open_sidebar_page()
    info = FirefoxPanel(firefox, context).ask_background("ping")
    assert info["ready"] is True
    assert info["pythonVersion"].startswith("3.14.")
    version = (ROOT / "py" / "tabagent" / "__init__.py").read_text().split('__version__ = "')[1].split('"')[0]
    assert info["tabagentVersion"] == version
    # From the build's memory snapshot, as in Chrome: it is a fresh profile's first start.
    assert info["fromSnapshot"] is True, info
