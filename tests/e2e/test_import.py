"""Importing conversations: checked, all or nothing, any size; a bad record never breaks the rest.

An imported file is untrusted (design.md, "Trust boundaries"): each record is checked against
the stored schema before anything is stored, so a file with one bad record imports nothing
and says which record and why. A real export comes back exactly; a 70 MB one too (it goes to
the service worker in parts, each under Chrome's 64 MiB message limit).
"""

from __future__ import annotations

import copy
import json
import uuid

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply

from .chat import ask_background, send, stored_conversations, wait, wait_for_status
from .test_history import downloaded, history_entries, show_history

EXPORT_FORMAT = "tabagent-conversations"


@pytest.fixture
def downloads(browser, tmp_path):
    folder = tmp_path / "downloads"
    folder.mkdir()
    browser.cdp.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
    return folder


def real_record(panel, model, question, answer):
    """A conversation made by a real turn, as it is stored."""
    panel.driver.find_element(By.ID, "new-chat").click()
    model.script(Reply(text=answer))
    send(panel, question)
    wait_for_status(panel, "ok")
    [record] = [r for r in stored_conversations(panel) if r["title"] == question]
    return record


def import_file(panel, path):
    if not panel.driver.find_element(By.ID, "history").is_displayed():
        panel.driver.find_element(By.ID, "show-history").click()
    panel.driver.find_element(By.ID, "import-json").send_keys(str(path))


def notice(driver):
    return driver.find_element(By.ID, "notice-text").text


def write_export(path, records):
    path.write_text(json.dumps({"format": EXPORT_FORMAT, "version": 1, "conversations": records}), encoding="utf-8")
    return path


def test_a_real_export_of_several_conversations_round_trips(panel, model, downloads):
    first = real_record(panel, model, "Round trip one", "Answer **one**, with ünïcödé and 🐍.")
    second = real_record(panel, model, "Round trip two", "Answer two.")
    show_history(panel)
    panel.driver.find_element(By.ID, "export-all-json").click()
    exported = json.loads(downloaded(downloads, ".json").read_text(encoding="utf-8"))
    for record in (first, second):
        ask_background(panel, "delete-conversation", conversationId=record["id"])
    import_file(panel, downloaded(downloads, ".json"))
    count = len(exported["conversations"])
    try:
        wait(panel, lambda d: f"Imported {count} conversation" in notice(d), 10)
    except Exception:
        raise AssertionError(notice(panel.driver)) from None
    stored = {r["id"]: r for r in stored_conversations(panel)}
    for record in (first, second):
        restored = stored[record["id"]]
        assert {k: v for k, v in restored.items() if k != "updatedAt"} == {k: v for k, v in record.items() if k != "updatedAt"}
    show_history(panel)["Round trip one"].click()
    wait(panel, lambda d: "ünïcödé and 🐍" in d.find_element(By.ID, "conversation").text, 5)


def test_one_bad_record_imports_nothing_and_says_which_and_why(panel, model, tmp_path):
    good = real_record(panel, model, "A good one", "Fine.")
    records = []
    for n, title in enumerate(["Import A", "Import B", "Import C"]):
        record = copy.deepcopy(good)
        record.update(id=f"import-{n}-{uuid.uuid4()}", title=title)
        records.append(record)
    records[1]["turns"][0]["events"] = None
    before = {r["id"] for r in stored_conversations(panel)}
    import_file(panel, write_export(tmp_path / "bad.json", records))
    wait(panel, lambda d: "Nothing was imported" in notice(d), 10)
    assert "conversation 2 (“Import B”)" in notice(panel.driver)
    assert "turns[0].events must be a list, not null" in notice(panel.driver)
    assert {r["id"] for r in stored_conversations(panel)} == before  # not even A, which was fine


def test_a_bad_record_already_stored_never_breaks_search_or_export(panel, model, downloads):
    """Records stored before imports were checked may be any shape."""
    real_record(panel, model, "Healthy conversation", "Bananas are yellow.")
    bad = {"id": "old-bad-record", "title": "Old broken import", "createdAt": 1, "updatedAt": 2,
           "turns": [{"id": "t", "text": "x", "status": "ok", "events": None}, None, {"events": [None, {"kind": "final_answer", "data": None}]}]}
    panel.driver.execute_async_script(
        """
        const [bad, done] = arguments;
        chrome.storage.local.get("conversations").then(({ conversations: index = {} }) => {
          index[bad.id] = { id: bad.id, title: bad.title, createdAt: 1, updatedAt: "not a time" };
          return chrome.storage.local.set({ ["conversation:" + bad.id]: bad, conversations: index });
        }).then(() => done(true));
        """,
        bad,
    )
    show_history(panel)
    panel.driver.find_element(By.ID, "history-search").send_keys("bananas")
    wait(panel, lambda d: list(history_entries(d)) == ["Healthy conversation"], 5)
    panel.driver.find_element(By.ID, "history-search").clear()
    panel.driver.find_element(By.ID, "export-all-md").click()
    markdown = downloaded(downloads, ".md").read_text(encoding="utf-8")
    assert "**TabAgent:** Bananas are yellow." in markdown and "# Old broken import" in markdown
    panel.driver.find_element(By.ID, "export-all-json").click()
    exported = json.loads(downloaded(downloads, ".json").read_text(encoding="utf-8"))
    assert "Healthy conversation" in [r["title"] for r in exported["conversations"]]
    ask_background(panel, "delete-conversation", conversationId=bad["id"])


def test_a_70_mb_export_imports(panel, model, tmp_path):
    template = real_record(panel, model, "Template for the big import", "Small answer.")
    big_text = "A long tool result line, as a page read in full would give. " * 40_000  # about 2.4 MB
    records = []
    for n in range(32):
        record = copy.deepcopy(template)
        record.update(id=f"big-{n}-{uuid.uuid4()}", title=f"Big conversation {n}")
        events = record["turns"][0]["events"]
        events.insert(1, {**events[0], "kind": "tool_result", "data": {"id": "c", "name": "read_page", "result": big_text, "is_error": False}})
        records.append(record)
    path = write_export(tmp_path / "big.json", records)
    assert path.stat().st_size > 70_000_000
    import_file(panel, path)
    wait(panel, lambda d: "Imported 32 conversations" in notice(d), 180)
    stored = {r["title"]: r for r in stored_conversations(panel)}
    assert all(f"Big conversation {n}" in stored for n in range(32))
    assert stored["Big conversation 31"]["turns"][0]["events"][1]["data"]["result"] == big_text
    for record in records:
        ask_background(panel, "delete-conversation", conversationId=record["id"])


def test_an_import_cut_short_by_a_worker_restart_stores_nothing_and_says_so(panel):
    """The parts wait in the service worker's memory; if Chrome stops it, they are gone."""
    from .chat import SEND_MESSAGE

    def ask(type_, **payload):
        return panel.driver.execute_async_script(SEND_MESSAGE, {"target": "background", "type": type_, **payload})

    before = {r["id"] for r in stored_conversations(panel)}
    assert ask("import-part", importId="cut-short", text='{"format": "tabagent-conversations", ')["ok"]
    panel.stop_service_worker()
    reply = ask("import-conversations", importId="cut-short")
    assert not reply["ok"] and "The import was interrupted" in reply["error"] and "nothing was imported" in reply["error"]
    assert {r["id"] for r in stored_conversations(panel)} == before
