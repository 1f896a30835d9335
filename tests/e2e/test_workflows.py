"""Save as workflow, end to end: a scripted model searches a shop page on 127.0.0.1 and buys,
the user allows each action in the panel, then saves the turn as a workflow from the button
under it. The workflow (Python, read in the Tools view) is replayed with `/buy_kettle` on pages
that changed: only in their numbering (no model call at all), with a new search term, with the
Buy button gone (the agent takes over and the panel says so), and, as an attack, with a
same-named decoy button placed before the real one (never clicked: the agent is handed the step).
"""

import json

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from tests.helpers.exports import import_and_continue
from tests.helpers.history import downloaded, show_history
from tests.helpers.model_server import Reply
from tests.helpers.tool_calls import tool_call


pytestmark = pytest.mark.e2e

LOG = "return document.getElementById('log').textContent"
SEARCH = """<nav>{nav}</nav>
<form role="search" onsubmit="return false"><input id="q" aria-label="Search">
<button id="go" type="button" onclick="log('search ' + q.value)">Search</button></form>"""
CHECKOUT = """<main><form aria-label="Checkout" onsubmit="return false">{buttons}</form></main>"""
BUY = """<button type="button" onclick="log('buy')">Buy now</button>"""
PAGE = """<!doctype html><html><head><title>Kettle shop</title></head><body>{body}
<pre id="log"></pre><script>function log(t) {{ document.getElementById('log').textContent += t + '\\n'; }}</script>
</body></html>"""
TASK = "Search the shop for blue kettle and buy it"


def shop(nav="<a href='#home'>Home</a>", buttons=BUY):
    return PAGE.format(body=SEARCH.format(nav=nav) + CHECKOUT.format(buttons=buttons))


def shop_pages(root):
    pages = {
        "shop.html": shop(),
        # more controls before each one: every "ta-<n>" the turn saw now names another element
        "renumbered.html": shop(nav="<a href='#sale'>Sale</a> <a href='#new'>New</a> <a href='#home'>Home</a>"),
        "changed.html": shop(buttons="<button type='button' onclick=\"log('order')\">Place order</button>"),
        # the attack: a decoy with the recorded name, first in the same form
        "decoy.html": shop(buttons="<button type='button' onclick=\"log('decoy')\">Buy now</button>" + BUY),
    }
    for name, html in pages.items():
        (root / name).write_text(html)
    return root


SITE = shop_pages  # the conftest's `site` serves these


def new_chat(tabs, model, page):
    model.reset()
    tabs.show(page)
    tabs.new_conversation()


def allow_all(tabs, count):
    for n in range(count):
        try:
            tabs.question(n)  # waits until it is asking
        except TimeoutException:
            pytest.fail(f"confirmation {n} was never asked; the turn shows: {tabs.last_turn().get_attribute('textContent')}")
        tabs.answer_question(n, "once")


def saved_workflow(tool_calling, model, site):
    tabs = tool_calling
    """The recorded turn, saved from its button: the workflow's name and its source as shown."""
    new_chat(tabs, model, site.url("shop.html"))
    model.script(tool_call("type_text", locator="#q", text="blue kettle"), tool_call("click", locator="#go"),
                 tool_call("click", locator="main form button"), Reply(text="Bought the blue kettle."))
    tabs.send(TASK)
    allow_all(tabs, 3)
    tabs.wait_for_status("ok")
    assert tabs.in_page(LOG) == "search blue kettle\nbuy\n"
    save = tabs.last_turn().find_element(By.CSS_SELECTOR, ".action-save-workflow")
    assert save.is_displayed()
    save.click()
    return tabs.wait(shown_workflow, 30, "the saved workflow was never shown")


def shown_workflow(driver):
    """(name, source) of the workflow the Tools view shows unfolded, once it does."""
    for item in driver.find_elements(By.CSS_SELECTOR, ".workflows-list li[data-workflow]"):
        if item.find_element(By.TAG_NAME, "details").get_attribute("open") is not None:
            return item.get_attribute("data-workflow"), item.find_element(By.TAG_NAME, "textarea").get_attribute("value")
    return None


def run(tabs, text):
    if tabs.driver.find_element(By.ID, "tools").is_displayed():  # back to the conversation
        tabs.driver.find_element(By.ID, "show-tools").click()
    tabs.send(text)


def test_a_saved_turn_replays_without_the_model_then_hands_a_changed_step_to_the_agent(tool_calling, model, site, browser):
    tabs = tool_calling
    name, source = saved_workflow(tabs, model, site)
    assert name == "search_the_shop_for_blue"
    assert "Place(role='button', name='Buy now', landmark='form', landmark_name='Checkout'" in source
    assert "parameters={'search': 'blue kettle'}" in source and "ta-" not in source
    browser.screenshot("workflow-saved")

    # renumbered: three questions, as for the agent's own actions, and no model call
    new_chat(tabs, model, site.url("renumbered.html"))
    run(tabs, f"/{name}")
    allow_all(tabs, 3)
    tabs.wait_for_status("ok")
    assert model.requests == []
    assert tabs.in_page(LOG) == "search blue kettle\nbuy\n"

    # new value, the shop allowed when the user ticked its box: no question, no model
    tabs.driver.find_element(By.ID, "show-tools").click()
    # pressed once the view has drawn its list again: the list shown before is replaced then
    tabs.wait(lambda d: d.find_element(By.ID, "show-tools").get_attribute("aria-pressed") == "true", 10)
    tabs.wait(lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-workflow="{name}"] .workflow-site input'), 10)
    item = tabs.driver.find_element(By.CSS_SELECTOR, f'[data-workflow="{name}"]')
    if not item.find_element(By.TAG_NAME, "details").get_attribute("open"):
        item.find_element(By.TAG_NAME, "summary").click()
    item.find_element(By.CSS_SELECTOR, ".workflow-site input").click()
    item.find_element(By.CSS_SELECTOR, ".workflow-save").click()
    tabs.wait(lambda d: d.find_element(By.CSS_SELECTOR, f'[data-workflow="{name}"] .workflow-said').text, 10)
    new_chat(tabs, model, site.url("renumbered.html"))
    run(tabs, f"/{name} red kettle")
    tabs.wait_for_status("ok")
    assert model.requests == [] and [box.get_attribute("data-state") for box in tabs.question_boxes()] == ["allowed_by_allowance"] * 3
    assert tabs.in_page(LOG) == "search red kettle\nbuy\n"

    # the Buy button is gone: two steps done, then the agent takes over, and the panel says so
    new_chat(tabs, model, site.url("changed.html"))
    model.script(Reply(text="There is no Buy now button any more; I did not order."))
    run(tabs, f"/{name}")
    tabs.wait_for_status("ok")
    notice = tabs.last_turn().find_element(By.CSS_SELECTOR, ".kind-workflow").text
    assert "could not do step 3 of 3" in notice and "agent takes over" in notice
    browser.screenshot("workflow-takeover")
    assert tabs.in_page(LOG) == "search blue kettle\n"
    assert len(model.requests) == 1
    told = model.requests[0]["body"]["messages"][-1]["content"]
    assert TASK in told and "stopped at step 3 of 3" in told


def test_a_same_named_decoy_added_before_the_real_button_is_never_clicked_by_a_replay(tool_calling, model, site):
    tabs = tool_calling
    name, _ = saved_workflow(tabs, model, site)
    new_chat(tabs, model, site.url("decoy.html"))
    # (not "I will not guess": a reply that says it will act sends the agent back to act)
    model.script(Reply(text="Two Buy now buttons now: nothing ordered, as which one is meant is unclear."))
    run(tabs, f"/{name}")
    allow_all(tabs, 2)
    tabs.wait_for_status("ok")
    assert tabs.in_page(LOG) == "search blue kettle\n"  # neither Buy now was clicked
    assert len(model.requests) == 1  # handed to the agent, with its rules, not done silently
    assert tabs.last_turn().find_elements(By.CSS_SELECTOR, ".kind-workflow")


def exported_replay(tabs, downloads, text):
    """The newest conversation whose first turn is `text`, as the history's Export writes it; then
    it is deleted (the export before it, if any, is taken away first: both go to one folder)."""
    for earlier in downloads.glob("*.json"):
        earlier.unlink()
    newest = max((r for r in tabs.stored_conversations() if r["turns"] and r["turns"][0]["text"] == text), key=lambda r: r["createdAt"])
    show_history(tabs)
    tabs.driver.find_element(By.ID, "export-all-json").click()
    exported = json.loads(downloaded(downloads, ".json").read_text(encoding="utf-8"))["conversations"]
    [record] = [r for r in exported if r["id"] == newest["id"]]
    tabs.ask_background("delete-conversation", conversationId=record["id"])
    return record


def test_a_replay_and_a_takeover_keep_what_the_model_knew_across_export_and_import(tool_calling, model, site, downloads, tmp_path):
    """A replay's steps are the workflow's, which its memory never holds: imported, its memory was
    made anew as if it left them out. It is now kept as it was (the model is sent the command, as
    before the export). One taken over by the agent, whose message TabAgent wrote from the workflow
    and the screen does not show, was dropped with the conversation's memory: now made anew, said."""
    tabs = tool_calling
    name, _ = saved_workflow(tabs, model, site)
    new_chat(tabs, model, site.url("renumbered.html"))
    run(tabs, f"/{name}")
    allow_all(tabs, 3)
    tabs.wait_for_status("ok")
    said, messages = import_and_continue(tabs, model, tmp_path, exported_replay(tabs, downloads, f"/{name}"), "Did it work?")
    assert "memory" not in said, said
    assert messages[-2:] == [{"role": "user", "content": f"/{name}"}, {"role": "user", "content": "Did it work?"}]

    new_chat(tabs, model, site.url("changed.html"))
    model.script(Reply(text="There is no Buy now button any more; I did not order."))
    run(tabs, f"/{name}")
    allow_all(tabs, 2)  # the search; then no Buy now button: the agent takes over
    tabs.wait_for_status("ok")
    record = exported_replay(tabs, downloads, f"/{name}")
    for replay in tabs.stored_conversations():  # the history opens it by its title: one of that title
        tabs.ask_background("delete-conversation", conversationId=replay["id"])
    (tmp_path / "taken").mkdir()  # a file of another name: the same one again would not be read
    said, messages = import_and_continue(tabs, model, tmp_path / "taken", record, "Why not?")
    assert "an agent took over a saved workflow in this conversation" in said, said
    assert {"role": "user", "content": f"/{name}"} in messages
    assert {"role": "assistant", "content": "There is no Buy now button any more; I did not order."} in messages
