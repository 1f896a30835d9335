"""Quick actions (issue 14): the context menu's items, run through the handler Chrome calls,
and the user's own prompts in the menu and as /name slash commands in the composer."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import last_turn


PAGE = "data:text/html,<title>Fox facts</title><p>The quick brown fox jumps over the lazy dog.</p>"


def selection_marked(task: str, selection: str) -> bool:
    """The selection is inside the one page-content marking (page_bridge.selection_task)."""
    start, end = task.find("<page_content"), task.rfind("</page_content>")
    return 0 <= start < task.find(selection) < end


def click_menu(panel, item_id, selection=None):
    """Calls the context menu's handler as Chrome does for a click on `item_id` in the page's tab."""
    info = {"menuItemId": item_id, "selectionText": selection} if selection else {"menuItemId": item_id}
    return panel.browser.call_module_function(
        panel.browser.service_worker_target(), "onRightClickMenuClick",
        f"""const [tab] = await chrome.tabs.query({{ title: "Fox facts" }});
          return fn({{ ...{json.dumps(info)}, pageUrl: tab.url }}, tab);""",
    )


def open_page_then_panel(panel):
    panel.browser.open_tab(PAGE)
    panel.driver.switch_to.window(panel.window)


def chat_requests(model):
    return [r for r in model.requests if r["path"].endswith("/chat/completions")]


def save_prompts(panel, model, prompts):
    settings = {"provider": "custom", "base_url": model.base_url, "model": "scripted-model", "agent": "tool_calling",
                "max_steps": 6, "custom_prompts": prompts}
    panel.ask_background("save-settings", settings=settings, apiKey="sk-test")


def menu_items(panel):
    # Chrome offers no API to read the menu back: making it again returns what it creates.
    return panel.browser.call_module_function(panel.browser.service_worker_target(), "createRightClickMenu",
                                              "return (await fn()).map((i) => i.title);")


def test_menu_offers_the_ready_made_actions_and_the_users_prompts(panel, model):
    save_prompts(panel, model, "tldr: Summarize {{selection}} in one sentence.\nnot a prompt line")
    titles = menu_items(panel)
    for title in ("Summarize this page", "Explain the selection", "Translate the selection", "Rewrite the selection",
                  "Ask about selection…", "tldr"):
        assert title in titles, titles


def test_summarize_this_page_starts_its_turn(panel, model):
    open_page_then_panel(panel)
    # An answer before the page was read is held once (reply_checks.py): the second one stands.
    model.script(Reply(text="A page about a fox."), Reply(text="A page about a fox."))
    assert click_menu(panel, "summarize-page")["conversationId"]
    panel.wait(lambda d: last_turn(d) is not None and "Summarize this page." in last_turn(d).text, 10)
    panel.wait_for_status("ok")
    assert chat_requests(model)[-2]["body"]["messages"][-1]["content"] == "Summarize this page."


def test_translate_and_rewrite_send_the_selection_marked_as_page_content(panel, model):
    open_page_then_panel(panel)
    model.script(Reply(text="Der schnelle braune Fuchs."), Reply(text="A fast fox."))
    click_menu(panel, "translate-selection", "The quick brown fox")
    panel.wait_for_status("ok")
    task = chat_requests(model)[-1]["body"]["messages"][-1]["content"]
    assert task.startswith("Translate this selection into ") and selection_marked(task, "The quick brown fox")
    click_menu(panel, "rewrite-selection", "The quick brown fox")
    panel.wait(lambda d: "Rewrite this selection" in last_turn(d).text, 10)
    panel.wait_for_status("ok")


def test_ask_about_selection_attaches_it_and_puts_the_cursor_in_the_box(panel, model):
    open_page_then_panel(panel)
    assert click_menu(panel, "ask-about-selection", "The quick brown fox") is None
    attached = panel.wait(lambda d: d.find_element(By.ID, "attached").is_displayed() and d.find_element(By.ID, "attached"), 10)
    assert "The quick brown fox" in attached.text and "Fox facts" in attached.text
    assert panel.driver.switch_to.active_element.get_attribute("id") == "prompt"
    assert chat_requests(model) == []  # nothing asked until the user writes
    model.script(Reply(text="It is about a fox."))
    panel.driver.switch_to.active_element.send_keys("Who is quick here?", Keys.ENTER)
    panel.wait_for_status("ok")
    task = chat_requests(model)[-1]["body"]["messages"][-1]["content"]
    assert task.startswith("Who is quick here?") and selection_marked(task, "The quick brown fox")
    assert not panel.driver.find_element(By.ID, "attached").is_displayed()
    assert panel.last_turn().find_element(By.CSS_SELECTOR, "blockquote.context").text == "The quick brown fox"


def test_own_prompt_from_the_menu_and_as_a_slash_command(panel, model):
    open_page_then_panel(panel)
    save_prompts(panel, model, "tldr: Summarize {{selection}} in one sentence.\nkids: Explain {{page}} to a child.")
    model.script(Reply(text="A fox jumps."), Reply(text="A story about a fox."), Reply(text="A story about a fox."))
    click_menu(panel, "prompt:0", "The quick brown fox")
    panel.wait_for_status("ok")
    task = chat_requests(model)[-1]["body"]["messages"][-1]["content"]
    assert task.startswith("Summarize the selected text (below) in one sentence.") and "The quick brown fox" in task
    box = panel.driver.find_element(By.ID, "prompt")
    box.send_keys("/ki")
    hint = panel.wait(lambda d: d.find_element(By.ID, "slash-commands").is_displayed() and d.find_element(By.ID, "slash-commands"), 5)
    assert hint.text.startswith("/kids")
    hint.find_element(By.CSS_SELECTOR, "button").click()
    assert box.get_attribute("value") == "/kids "
    box.send_keys(Keys.ENTER)
    panel.wait(lambda d: len(chat_requests(model)) == 3, 10)  # "the page I am on", unread: held once
    panel.wait_for_status("ok")
    assert chat_requests(model)[-2]["body"]["messages"][-1]["content"] == "Explain the page I am on to a child."
