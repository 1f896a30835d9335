"""Red team: password fields that are not <input type=password> (issue 46, hole 7), in Chromium.

Only type=password counted as a password field: TabAgent typed the user's password into a text
field marked autocomplete=current-password, and read out a PIN the page drew as dots with CSS.
Now a field marked for a password or a one-time code, drawn as dots, or named or labelled for a
password (in any of the languages of secret_words.py) is one: type_text and a character key are
refused there before anyone is asked (the login is handed back), and no reading tool shows what
it holds: list_controls, read_page on the form, page_html, query_page, an action's outcome.
The same in Firefox: tests/firefox/test_red_team_password_fields.py."""

from __future__ import annotations

import pytest

from tests.helpers.password_fields import PASSWORD, PIN, SECRET_FIELDS, login_pages

pytestmark = pytest.mark.e2e

SITE = login_pages  # the conftest's `site` serves it
VALUES = "return ['city', 'login', 'pin', 'named', 'labelled', 'otp'].map((id) => document.getElementById(id).value)"


@pytest.fixture
def login_tab(tool_calling, site):
    tabs = tool_calling
    tabs.show(site.url("login.html"))
    return tabs


@pytest.mark.parametrize("field", SECRET_FIELDS)
def test_red_team_the_agent_never_types_into_a_field_made_for_a_password(login_tab, field):
    for name, args in (("type_text", {"text": "hunter3"}), ("press_key", {"key": "x"})):
        said = login_tab.tool_reply(name, locator=field, **args)
        assert "never types into a password field" in str(said), said
        assert "ask_user(login=True)" in str(said)
    assert login_tab.in_page(VALUES) == ["", PASSWORD, PIN, PASSWORD, PASSWORD, PASSWORD]  # nothing typed
    login_tab.call_tool("type_text", locator="#city", text="Lyon")  # an ordinary field still takes text
    assert login_tab.in_page(VALUES)[0] == "Lyon"


def test_red_team_no_reading_tool_shows_what_a_password_field_holds(login_tab):
    controls = login_tab.call_tool("list_controls")
    html = login_tab.call_tool("page_html")
    form = login_tab.call_tool("read_page")
    queried = login_tab.call_tool("query_page", selector="input")
    for read in (controls, html, form, queried):
        assert PIN not in read and PASSWORD not in read, read
    assert controls.count("= “•••”") == len(SECRET_FIELDS)  # each says it is filled, as a person sees dots
    assert form.count("[••••]") == len(SECRET_FIELDS)
