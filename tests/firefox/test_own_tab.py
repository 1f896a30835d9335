"""The agent in a tab of its own and a hand-back, in Firefox as in Chromium (tests/e2e/
test_own_tab.py, test_hand_back.py): with the own-tab setting a turn reads the page in a tab it
opened in the background, in a tab group named for the task (Firefox has tabGroups), asks the user
a question in the chat and goes on with the answer; the user's tab is left as it was."""

from __future__ import annotations

from tests.helpers.model_server import Reply
from tests.helpers.panel_driver import LAST_TURN

USERS_TAB = "[location.href, document.documentElement.outerHTML]"
GROUPED = """browser.tabs.query({}).then((tabs) => Promise.all(tabs.filter((tab) => tab.groupId > -1)
  .map(async (tab) => [tab.url, (await browser.tabGroups.get(tab.groupId)).title, tab.active])))"""


def test_a_turn_in_its_own_tab_asks_the_user_and_leaves_their_tab_alone(tabs, model, site):
    model.reset()
    tab = tabs
    tab.configure(model.base_url, own_tab=True)
    tab.new_conversation(on=site.url("article.html"))
    users_tab = tab.in_page(USERS_TAB)
    model.script(Reply(tool_calls=[{"name": "ask_user", "arguments": {"question": "Short or long summary?"}}]),
                 Reply(tool_calls=[{"name": "read_page", "arguments": {}}]), Reply(text="Summarised."))
    tab.send("Summarise this page")
    tab.wait_for(f"{LAST_TURN}?.querySelector('.hand-back[data-state=asking]') != null", 60,
                 "the hand-back never showed")
    tab.run(f"""(() => {{
      const box = {LAST_TURN}.querySelector('.hand-back');
      box.querySelector('textarea').value = 'Short';
      box.querySelector('button').click();
    }})()""")
    assert tab.wait_for_status("ok", "error", "cancelled") == "ok"
    told = [m for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]["content"]
    assert told == "The user answered: Short"
    read = [m for m in model.requests[2]["body"]["messages"] if m["role"] == "tool"][-1]["content"]
    assert site.url("article.html") in read
    assert tab.run(GROUPED) == [[site.url("article.html"), "Summarise this page", False]]
    assert tab.in_page(USERS_TAB) == users_tab
    assert tab.run(f"{LAST_TURN}.querySelector('.own-tab').dataset.state") == "open"
