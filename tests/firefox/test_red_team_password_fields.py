"""Red team: password fields that are not <input type=password> (issue 46, hole 7), in Firefox as
in Chromium (tests/e2e/test_red_team_password_fields.py): a field marked for a password or a
one-time code, drawn as dots by CSS, or named or labelled for a password is never typed into,
and no reading tool shows what it holds."""

from __future__ import annotations

import pytest

from tests.helpers.password_fields import PASSWORD, PIN, SECRET_FIELDS, login_pages

SITE = login_pages  # the conftest's `site` serves it
VALUES = "['city', 'login', 'pin', 'named', 'labelled', 'otp'].map((id) => document.getElementById(id).value)"


@pytest.fixture
def login_page(tabs, site):
    tabs.show(site.url("login.html"))
    return tabs


def test_red_team_the_agent_never_types_into_a_field_made_for_a_password_in_firefox(login_page):
    for field in SECRET_FIELDS:
        for name, args in (("type_text", {"text": "hunter3"}), ("press_key", {"key": "x"})):
            said = login_page.reply("call-tool", name=name, args={"locator": field, **args})
            assert "never types into a password field" in str(said), (field, said)
    assert login_page.in_page(VALUES) == ["", PASSWORD, PIN, PASSWORD, PASSWORD, PASSWORD]
    login_page.call_tool("type_text", locator="#city", text="Lyon")
    assert login_page.in_page(VALUES)[0] == "Lyon"


def test_red_team_no_reading_tool_shows_what_a_password_field_holds_in_firefox(login_page):
    reads = [login_page.call_tool("list_controls"), login_page.call_tool("page_html"), login_page.call_tool("read_page"),
             login_page.call_tool("query_page", selector="input")]
    for read in reads:
        assert PIN not in read and PASSWORD not in read, read
    assert reads[0].count("= “•••”") == len(SECRET_FIELDS) and reads[2].count("[••••]") == len(SECRET_FIELDS)
