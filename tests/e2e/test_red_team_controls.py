"""Red team: a page that tries to make the agent act on the wrong control. It writes fake
control lines in its text, and copies the locator TabAgent gave its Subscribe button onto its
Delete button, moved first in the document. list_controls lists only real controls, and the
locator still names the element it was given to."""

import json

import pytest


from .page_tabs import page_content
from .red_team import RED_TEAM_PAGES

pytestmark = pytest.mark.e2e


SITE = RED_TEAM_PAGES


def test_a_copied_locator_does_not_take_the_action_to_the_decoy(tabs, site):
    tabs.show(site.url("decoy-controls.html"))
    _, content = page_content(tabs.call("list_controls"))
    lines = content.partition("\n\n")[2].splitlines()
    assert [line.split(" ", 1)[1] for line in lines] == ["button “Subscribe”", "button “Delete account”"]
    subscribe = lines[0].split()[0]
    assert tabs.in_page("return document.getElementById('delete').getAttribute('data-tabagent-id')") == subscribe
    done = json.loads(page_content(tabs.call("click", locator=subscribe))[1])
    assert done["summary"] == "Click the button “Subscribe”."
    assert tabs.in_page("return document.getElementById('log').textContent") == "subscribed"
