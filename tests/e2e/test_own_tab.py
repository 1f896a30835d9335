"""The agent in a tab of its own (the "own tab" setting): a real turn opens a tab in the
background, in a tab group named for the task, and reads and acts there while the user's tab
stays exactly as it was (its address and DOM compared before and after); the panel names the
agent's tab; two managed agents called at once work in parallel, each in a tab of its own in the
task's group, their steps shown apart with their tab named among them; closing the agent's tab stops the turn. A scripted model, local pages, confirmations
answered in the panel like a person."""

import json
import threading

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply

from tests.helpers.history import import_file, notice, show_history, write_export
from tests.helpers.tool_calls import tool_call, settings, told
from tests.helpers.help_clicks import COUNT_HELP_CLICKS, HELP_CLICKS
from tests.helpers.panel_backends import last_turn, open_steps

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("tool_calling")]  # the scripted model, tools on

USERS_TAB = "return [location.href, document.documentElement.outerHTML]"
IN_WORKER = "chrome.tabs.query({}).then((tabs) => Promise.all(tabs.map(async (tab) => ({ id: tab.id, url: tab.url, " \
            "active: tab.active, group: tab.groupId > -1 ? (await chrome.tabGroups.get(tab.groupId)).title : null }))))"


def all_tabs(browser):
    return browser.evaluate_in(browser.service_worker_target(), IN_WORKER)


def agents_tabs(browser, site):
    return [tab for tab in all_tabs(browser) if tab["group"] is not None and tab["url"].startswith(site.url(""))]


@pytest.fixture
def own(tabs, model, site):
    """A new conversation with the own-tab setting on; the user is on controls.html."""
    model.reset()
    tabs.ask_background("save-settings", settings=settings(model, own_tab=True), apiKey="sk-test")
    tabs.show(site.url("controls.html"))
    tabs.in_page(COUNT_HELP_CLICKS)
    tabs.new_conversation()
    with tabs.closing_new_tabs():
        yield tabs
    tabs.configure(model.base_url, agent="tool_calling")


def test_a_turn_in_its_own_tab_leaves_the_users_tab_untouched(own, model, site):
    users_tab = own.in_page(USERS_TAB)
    model.script(tool_call("read_page"), tool_call("click", locator="[aria-label=Help]"), tool_call("read_page"), Reply(text="Helped."))
    own.send("Press Help for me")
    assert own.question(0)["details"]["page"] == site.url("controls.html")  # asked like any action
    own.screenshot("own-tab-indicator")
    own.answer_question(0, "once")
    own.wait_for_status("ok")
    [agents] = agents_tabs(own.browser, site)
    assert agents["group"] == "Press Help for me" and not agents["active"]  # in a group named for the task, behind
    assert own.in_page(USERS_TAB) == users_tab and own.in_page(HELP_CLICKS) == 0  # the user's tab: untouched
    assert "controls.html" in told(model, 1)
    line = own.last_turn().find_element(By.CSS_SELECTOR, ".own-tab")
    assert line.get_attribute("data-tab-id") == str(agents["id"]) and site.url("controls.html") in line.text


def team(model):
    members = [{"name": name, "description": f"Writes in the {name} note.", "agent": "tool_calling", "max_steps": 3}
               for name in ("north", "south")]
    return settings(model, own_tab=True, team=members)


def writes_its_name(requests):
    """The managed agent asking (the last request) types its own name in the page's note."""
    asking = json.dumps(requests[-1]["body"]["messages"])
    [name] = [name for name in ("north", "south") if f"You are '{name}'" in asking]
    return [{"name": "type_text", "arguments": {"locator": "#note", "text": f"by {name}"}}]


def note_in(browser, tab_id):
    """The note's value in that tab, read by the service worker."""
    return browser.evaluate_in(browser.service_worker_target(), f"chrome.scripting.executeScript({{ target: {{ tabId: {tab_id} }}, "
                               "func: () => document.querySelector('#note').value }).then(([frame]) => frame.result)")


def agent_call(steps, name):
    """The manager's call of the agent `name`: its nested steps, opened as a person would."""
    call_of = steps.find_element(By.CSS_SELECTOR, f'details.tool[data-tool="{name}"]')
    if call_of.get_attribute("open") is None:
        call_of.find_element(By.TAG_NAME, "summary").click()
    return call_of.find_element(By.CSS_SELECTOR, ":scope > .nested")


def test_two_managed_agents_work_at_once_each_in_its_own_tab_with_their_steps_apart(own, model, site):
    own.ask_background("save-settings", settings=team(model), apiKey="sk-test")
    users_tab = own.in_page(USERS_TAB)
    model.script(Reply(tool_calls=[{"name": "north", "arguments": {"task": "Write in the note"}},
                                   {"name": "south", "arguments": {"task": "Write in the note"}}]),
                 Reply(calls_from=writes_its_name), Reply(calls_from=writes_its_name),
                 Reply(text="Written."), Reply(text="Written."), Reply(text="Both wrote."))
    own.send("Compare with two helpers")
    # Both ask at once, each inside its own agent's call, unfolded for the user to see: in parallel.
    asked = [own.question(0), own.question(1)]
    assert all(box.is_displayed() for box in own.question_boxes()), "a managed agent's question is folded away"
    own.screenshot("own-tab-parallel-agents-asking")
    own.answer_question(0, "once")
    own.answer_question(1, "once")
    own.wait_for_status("ok")
    tabs = agents_tabs(own.browser, site)
    assert [tab["group"] for tab in tabs] == ["Compare with two helpers"] * 3  # the turn's tab and one per agent, one group
    turns_tab = int(own.last_turn().find_element(By.CSS_SELECTOR, ":scope > .own-tab").get_attribute("data-tab-id"))
    steps = open_steps(own.last_turn())
    named = {}
    for name in ("north", "south"):
        nested = agent_call(steps, name)
        headers = [h.get_attribute("textContent") for h in nested.find_elements(By.CSS_SELECTOR, ".step > header")]
        assert headers and all(name in header for header in headers), (name, headers)
        [line] = nested.find_elements(By.CSS_SELECTOR, ":scope > .own-tab")  # the agent's tab, named among its steps
        named[name] = int(line.get_attribute("data-tab-id"))
        assert site.url("controls.html") in line.text and line.get_attribute("data-state") == "open"
    assert sorted([*named.values(), turns_tab]) == sorted(tab["id"] for tab in tabs)  # three tabs, none the user's
    for name, tab_id in named.items():
        assert note_in(own.browser, tab_id) == f"by {name}"  # each wrote in its own tab only
    assert note_in(own.browser, turns_tab) == "" and own.in_page(USERS_TAB) == users_tab
    assert own.in_page("return document.querySelector('#note').value") == ""
    assert sorted(q["details"]["page"] for q in asked) == [site.url("controls.html")] * 2
    own.screenshot("own-tab-parallel-agents")


def test_closing_the_agents_tab_stops_the_turn(own, model, site):
    held = threading.Event()
    model.script(tool_call("read_page"), Reply(text="Never said.", pause=held))
    own.send("Read it slowly")
    own.wait(lambda d: len(model.requests) == 2, 30, "the model was never asked again")
    [agents] = agents_tabs(own.browser, site)
    own.browser.evaluate_in(own.browser.service_worker_target(), f"chrome.tabs.remove({agents['id']})")
    try:
        own.wait_for_status("cancelled")
    finally:
        held.set()
    own.wait(lambda d: last_turn(d).find_element(By.CSS_SELECTOR, ".own-tab").get_attribute("data-state") == "closed",
         10, "the panel never said the agent's tab was closed")


def test_the_site_rules_hold_in_the_agents_own_tab(own, model, site):
    host = site.url("").split("/")[2].split(":")[0]
    own.ask_background("save-settings", settings=settings(model, own_tab=True, site_rules=f"{host}: never"), apiKey="sk-test")
    model.script(tool_call("click", locator="[aria-label=Help]"), Reply(text="I could not."))
    own.send("Press Help in the background")
    own.wait_for_status("ok")
    assert own.question_boxes()[0].get_attribute("data-state") == "refused_by_settings"
    assert told(model, 1).startswith("The user denied this click: nothing was done.")
    assert len(agents_tabs(own.browser, site)) == 1 and own.in_page(HELP_CLICKS) == 0


def test_the_composers_own_tab_switch_chooses_for_one_message_the_setting_staying_the_default(own, model, site):
    toggle = own.driver.find_element(By.ID, "own-tab-toggle")
    own.wait(lambda d: toggle.is_selected(), 10, "the switch does not start as the setting (on)")
    toggle.click()  # this message: on the user's tab
    model.script(tool_call("read_page"), Reply(text="Read here."))
    own.send("Read my page")
    own.wait_for_status("ok")
    assert agents_tabs(own.browser, site) == [] and "controls.html" in told(model, 1)
    assert own.last_turn().find_elements(By.CSS_SELECTOR, ".own-tab") == []
    own.wait(lambda d: toggle.is_selected(), 10, "the switch is not the setting again after the message")

    own.ask_background("save-settings", settings=settings(model, own_tab=False), apiKey="sk-test")
    own.wait(lambda d: not toggle.is_selected(), 10, "the switch does not follow the setting")
    users_tab = own.in_page(USERS_TAB)
    toggle.click()  # this message: in a tab of its own, though the setting is off
    own.screenshot("own-tab-composer-switch")
    model.script(tool_call("read_page"), Reply(text="Read there."))
    own.send("Read it in your own tab")
    own.wait(lambda d: len(model.requests) == 4 and "Read there." in last_turn(d).text, 30, "the second message was not answered")
    own.wait_for_status("ok")
    [agents] = agents_tabs(own.browser, site)
    assert agents["group"] == "Read it in your own tab" and not agents["active"]
    assert own.in_page(USERS_TAB) == users_tab
    assert own.last_turn().find_element(By.CSS_SELECTOR, ".own-tab").get_attribute("data-tab-id") == str(agents["id"])
    assert not toggle.is_selected()


def test_red_team_an_imported_turn_naming_the_users_tab_shows_it_as_closed(own, model, site, tmp_path):
    """Tab ids are the browser session's: a conversation from a file (or from before a restart)
    may name any tab the user has open now. The panel names a tab only for the turn that worked
    in it this session, so the user's tab is neither described nor offered."""
    model.script(tool_call("read_page"), Reply(text="Read."))
    own.send("Read it in the background")
    own.wait_for_status("ok")
    [users] = [tab for tab in all_tabs(own.browser) if tab["group"] is None and tab["url"] == site.url("controls.html")]
    [record] = [r for r in own.stored_conversations() if r["title"] == "Read it in the background"]
    forged = json.loads(json.dumps(record))
    forged.update(id="forged-own-tab", title="A forged own tab")
    forged["turns"][0]["agentOwnTab"]["tabId"] = users["id"]
    import_file(own, write_export(tmp_path / "forged.json", [forged]))
    own.wait(lambda d: "Imported 1 conversation" in notice(d), 30)
    show_history(own)["A forged own tab"].click()
    line = lambda d: last_turn(d).find_element(By.CSS_SELECTOR, ".own-tab")  # noqa: E731
    own.wait(lambda d: line(d).get_attribute("data-state") == "closed", 10, "the user's tab was named")
    assert site.url("controls.html") not in line(own.driver).text
    assert not line(own.driver).find_element(By.CSS_SELECTOR, ".own-tab-show").is_displayed()
    own.ask_background("delete-conversation", conversationId="forged-own-tab")
