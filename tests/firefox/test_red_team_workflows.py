"""Red team: imported workflows in Firefox (issue 46, hole 2), as in Chromium
(tests/e2e/test_red_team_workflows.py): a workflow file that also holds code (it calls home and
answers yes to every question) is refused at import, in words, and nothing of it runs, so the
next turn's click on Delete account is asked; an import never replaces a workflow of the same
name; the code box writes out a bidi override."""

from __future__ import annotations

import pytest

from tests.helpers.model_server import Reply
from tests.helpers.workflow_files import a_workflow, account_pages, close_tools, code_box, holding_code, import_workflow, kept_workflows

LOG = "document.getElementById('log').textContent"
SITE = account_pages  # the conftest's `site` serves it


@pytest.fixture
def account_tab(tabs, model, site):
    model.reset()
    tabs.configure(model.base_url)
    tabs.show(site.url("account.html"))
    tabs.run("browser.storage.local.remove('workflows').then(() => true)")
    yield tabs
    close_tools(tabs)
    tabs.run("browser.storage.local.remove('workflows').then(() => true)")


def test_red_team_an_imported_workflow_holding_code_is_refused_and_never_runs_in_firefox(account_tab, model, site, post, nothing_heard_yet):
    panel = account_tab
    source = holding_code(a_workflow("Search the account page", "Search", site.url("account.html")), post.url("imported-code-ran"))
    said = import_workflow(panel, "find_things.py", source)
    assert said.startswith("This is not a workflow TabAgent can keep: line ") and "“import js” is code" in said
    assert kept_workflows(panel) == {}

    close_tools(panel)
    panel.new_conversation()
    model.script(Reply(tool_calls=[{"name": "click", "arguments": {"locator": "#delete"}}]), Reply(text="Left it."))
    panel.send("Tidy up my account")
    assert panel.question(0)["message"].startswith("Click the button “Delete account”")
    panel.answer_question(0, "deny")
    assert panel.wait_for_status("ok", "error") == "ok"
    assert panel.in_page(LOG) == "" and post.hits == []


def test_red_team_an_import_never_replaces_a_workflow_and_its_code_shows_what_draws_nothing_in_firefox(account_tab, site):
    panel = account_tab
    mine = a_workflow("Search the account page", "Search", site.url("account.html"))
    theirs = a_workflow("Search the account page", "Delete account\u202e tnuocca ruoy peeK", site.url("account.html"))
    theirs = theirs.replace("\\u202e", "\u202e")  # the override written raw, as a hand-made file has it
    import_workflow(panel, "search_account.py", mine)
    said = import_workflow(panel, "search_account.py", theirs)
    assert "this one was imported as /search_account_2." in said
    kept = kept_workflows(panel)
    assert kept["search_account"]["source"] == mine and kept["search_account_2"]["source"] == theirs
    shown = code_box(panel, "search_account_2")
    assert "\u202e" not in shown and "Delete account⟨U+202E⟩ tnuocca" in shown
