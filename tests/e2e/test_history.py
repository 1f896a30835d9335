"""Past conversations: reopen, continue, rename, delete, search, export and import."""

from __future__ import annotations

import json
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.helpers.model_server import Reply

from tests.helpers.history import downloaded, history_entries, show_history


def have_conversation(panel, model, question, answer):
    panel.new_conversation()
    model.script(Reply(text=answer))
    panel.send(question)
    panel.wait_for_status("ok")


def test_reopen_and_continue_an_older_conversation(panel, model):
    have_conversation(panel, model, "First topic: apples", "Apples are red.")
    have_conversation(panel, model, "Second topic: pears", "Pears are green.")
    entries = show_history(panel)
    assert list(entries)[:2] == ["Second topic: pears", "First topic: apples"]  # newest first
    entries["First topic: apples"].click()
    panel.wait(lambda d: "Apples are red." in d.find_element(By.ID, "conversation").text, 5)
    model.script(Reply(text="Still apples."))
    panel.send("More about them?")
    panel.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.turn")) == 2, 5)
    panel.wait_for_status("ok")
    assert "First topic: apples" in [m.get("content") for m in model.requests[-1]["body"]["messages"]]
    panel.screenshot("history-list")


def test_search_rename_and_delete(panel, model):
    have_conversation(panel, model, "Quantum kittens", "They are both asleep and awake.")
    have_conversation(panel, model, "Gardening tips", "Water in the morning.")
    show_history(panel)
    search = panel.driver.find_element(By.ID, "history-search")
    search.send_keys("awake")  # found in the answer, not the title
    panel.wait(lambda d: list(history_entries(d)) == ["Quantum kittens"], 5)
    search.clear()
    search.send_keys(Keys.SPACE, Keys.BACKSPACE)
    panel.wait(lambda d: "Gardening tips" in history_entries(d), 5)
    time.sleep(0.3)  # let the list settle after the search is cleared
    panel.driver.find_element(By.XPATH, "//li[button[@class='open' and text()='Gardening tips']]//button[@class='rename']").click()
    field = panel.driver.find_element(By.CSS_SELECTOR, "#history-list .title-field")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Plants", Keys.ENTER)
    panel.wait(lambda d: "Plants" in history_entries(d), 5)
    assert any(r["title"] == "Plants" for r in panel.stored_conversations())
    delete = "//li[button[@class='open' and text()='Plants']]//button[@class='delete']"
    panel.driver.find_element(By.XPATH, delete).click()
    assert "Plants" in history_entries(panel.driver)  # asks once more first
    panel.driver.find_element(By.XPATH, delete).click()
    panel.wait(lambda d: "Plants" not in history_entries(d), 5)
    assert not any(r["title"] == "Plants" for r in panel.stored_conversations())


def test_export_json_and_markdown_then_import_round_trip(panel, model, downloads):
    have_conversation(panel, model, "Export me please", "Exported **answer**.")
    entries = show_history(panel)
    row = entries["Export me please"].find_element(By.XPATH, "..")
    row.find_element(By.CSS_SELECTOR, ".export-json").click()
    exported = json.loads(downloaded(downloads, ".json").read_text())
    assert exported["format"] == "tabagent-conversations"
    [record] = exported["conversations"]
    assert record["title"] == "Export me please"
    assert "sk-test" not in json.dumps(exported)  # the key is never exported
    assert "model_call" in [e["kind"] for e in record["turns"][0]["events"]]  # the trace goes along
    row.find_element(By.CSS_SELECTOR, ".export-md").click()
    markdown = downloaded(downloads, ".md").read_text()
    assert "# Export me please" in markdown and "**You:** Export me please" in markdown
    assert "**TabAgent:** Exported **answer**." in markdown

    panel.ask_background("delete-conversation", conversationId=record["id"])
    assert not any(r["id"] == record["id"] for r in panel.stored_conversations())
    panel.driver.find_element(By.ID, "import-json").send_keys(str(downloaded(downloads, ".json")))
    panel.wait(lambda d: "Imported 1 conversation" in d.find_element(By.ID, "notice-text").text, 5)
    [restored] = [r for r in panel.stored_conversations() if r["id"] == record["id"]]
    assert restored["turns"] == record["turns"] and restored["memory"] == record["memory"]
    show_history(panel)["Export me please"].click()
    panel.wait(lambda d: "Exported answer." in d.find_element(By.ID, "conversation").text, 5)


def test_import_refuses_a_file_that_is_not_an_export(panel, tmp_path):
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"hello": "world"}')
    show_history(panel) if panel.stored_conversations() else panel.driver.find_element(By.ID, "show-history").click()
    panel.driver.find_element(By.ID, "import-json").send_keys(str(bogus))
    panel.wait(lambda d: "not a TabAgent conversation export" in d.find_element(By.ID, "notice-text").text, 5)
