"""The panel in the browser's language, in Firefox too: German words where a German user looks
(the chat, its attach list, the settings page), from the same _locales as Chromium's."""

from __future__ import annotations

import pytest

from tests.helpers.firefox import Firefox
from tests.helpers.model_server import Reply

from tests.helpers.panel_driver import LAST_TURN


@pytest.fixture(scope="module")
def firefox(firefox_build):
    instance = Firefox(locale="de").start(firefox_build)
    yield instance
    instance.quit()


def test_the_panel_speaks_german_in_a_german_browser(panel, model):
    shown = panel.run("""({
      send: document.getElementById('send').textContent,
      placeholder: document.getElementById('prompt').placeholder,
      history: document.getElementById('show-history').textContent,
      lang: document.documentElement.lang,
      attach: document.getElementById('attach').getAttribute('aria-label'),
    })""")
    assert shown == {"send": "Senden", "placeholder": "TabAgent fragen…", "history": "Verlauf", "lang": "de",
                     "attach": "Einen Tab oder die Auswahl anhängen"}
    model.script(Reply(tool_calls=[{"name": "get_selection", "arguments": {}}]), Reply(text="Hallo!"))
    panel.send("Hallo, wie geht's?")
    assert panel.wait_for_status("ok", "error") == "ok"
    assert panel.run(f"{LAST_TURN}.querySelector('details.steps summary').textContent") == "2 Schritte · get_selection"
    assert panel.run(f"{LAST_TURN}.querySelector('.action-edit').textContent") == "Bearbeiten"


def test_the_settings_page_speaks_german_too(firefox):
    options = firefox.open_tab(firefox.url("extension/options/options.html"))
    firefox.wait_for(options, "document.getElementById('test-connection').textContent === 'Verbindung testen'", 30)
    assert firefox.evaluate(options, "document.title") == "TabAgent-Einstellungen"
