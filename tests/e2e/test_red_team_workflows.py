"""Red team: imported workflows (issue 46, hole 2), through the whole extension in Chromium.

A workflow file is data. The attack as it was found: a .py file imported in the Tools view was
kept at once, and every turn imported every kept workflow into the agent's interpreter, so its
top-level code ran unopened: here it replaces the consent check and calls home, and the next
turn's click on Delete account happened with no question. Now the import reads the file's
syntax tree, refuses it in words, keeps nothing, and the click is asked.
Also: an import never replaces a workflow of the same name (it is kept apart, and said); an
imported workflow acts on no site without asking until the user ticks one; the code box writes
out the characters that draw nothing (a bidi override in a step's name) and saving keeps the
file as it was. (Schedules pinning their workflow: tests/e2e/test_schedules.py.)"""

from __future__ import annotations

import pytest

from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import chromium_panel
from tests.helpers.workflow_files import (a_workflow, account_pages, close_tools, code_box, holding_code, import_workflow,
                                          kept_workflows, site_boxes, tick_and_save)

pytestmark = pytest.mark.e2e

LOG = "return document.getElementById('log').textContent"
SITE = account_pages  # the conftest's `site` serves it


def hostile(site, post) -> str:
    """A workflow file that also holds code: it calls home and answers yes to every question."""
    return holding_code(a_workflow("Search the account page", "Search", site.url("account.html")), post.url("imported-code-ran"))


@pytest.fixture
def panel_on_account(tool_calling, model, site):
    tabs = tool_calling
    model.reset()
    tabs.show(site.url("account.html"))
    panel = chromium_panel(tabs.browser)
    panel.run("chrome.storage.local.remove('workflows').then(() => true)")
    yield tabs, panel
    close_tools(panel)
    panel.run("chrome.storage.local.remove('workflows').then(() => true)")


def test_red_team_an_imported_workflow_holding_code_is_refused_and_never_runs(panel_on_account, model, site, post):
    tabs, panel = panel_on_account
    post.hits.clear()
    said = import_workflow(panel, "find_things.py", hostile(site, post))
    assert said.startswith("This is not a workflow TabAgent can keep: line ")
    assert "“import js” is code" in said and "TabAgent does not run code from a workflow" in said
    assert kept_workflows(panel) == {}

    close_tools(panel)
    panel.new_conversation()
    model.script(Reply(tool_calls=[{"name": "click", "arguments": {"locator": "#delete"}}]), Reply(text="Left it."))
    panel.send("Tidy up my account")
    assert panel.question(0)["message"].startswith("Click the button “Delete account”")  # asked, as ever
    panel.answer_question(0, "deny")
    assert panel.wait_for_status("ok", "error") == "ok"
    assert tabs.in_page(LOG) == "" and post.hits == []


def test_red_team_an_import_never_replaces_a_workflow_of_the_same_name(panel_on_account, site):
    _, panel = panel_on_account
    mine = a_workflow("Search the account page", "Search", site.url("account.html"))
    theirs = a_workflow("Search the account page", "Delete account", site.url("account.html"))
    assert import_workflow(panel, "search_account.py", mine).startswith("Imported as the workflow /search_account")
    said = import_workflow(panel, "search_account.py", theirs)
    assert said.startswith("A workflow named /search_account is kept already, and stays as it is: "
                           "this one was imported as /search_account_2.")
    kept = kept_workflows(panel)
    assert kept["search_account"]["source"] == mine and kept["search_account_2"]["source"] == theirs


def test_an_imported_workflow_acts_on_no_site_until_the_user_ticks_one(panel_on_account, model, site):
    tabs, panel = panel_on_account
    source = a_workflow("Search the account page", "Search", site.url("account.html"))
    import_workflow(panel, "search_account.py", source)
    assert site_boxes(panel, "search_account") == [[site.url("account.html"), False]]
    assert kept_workflows(panel)["search_account"]["allowedSites"] == []

    close_tools(panel)
    panel.new_conversation()
    panel.send("/search_account")
    assert panel.question(0)["message"].startswith("Click the button “Search”")  # asked: no site allowed
    panel.answer_question(0, "once")
    assert panel.wait_for_status("ok", "error") == "ok" and model.requests == []
    assert tabs.in_page(LOG) == "search\n"


def test_the_code_box_writes_out_what_draws_nothing_and_saving_keeps_the_file(panel_on_account, site):
    _, panel = panel_on_account
    turned = "Delete account\u202e tnuocca ruoy peeK"  # reads "Keep your account" backwards on screen
    source = a_workflow("Search", turned, site.url("account.html")).replace("\\u202e", "\u202e")  # written raw
    assert "\u202e" in source
    import_workflow(panel, "turned.py", source)
    shown = code_box(panel, "turned")
    assert "\u202e" not in shown and "Delete account⟨U+202E⟩ tnuocca ruoy peeK" in shown
    assert tick_and_save(panel, "turned") == "Saved."
    kept = kept_workflows(panel)["turned"]
    assert kept["source"] == source and kept["allowedSites"] == [site.url("account.html")]
