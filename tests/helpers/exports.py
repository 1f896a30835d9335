"""A conversation exported through the history's Export, then imported and continued, as a
user moving it to another browser would (the import tests and the red team's)."""

import json
import re

from selenium.webdriver.common.by import By

from tests.helpers.history import downloaded, import_file, notice, show_history, write_export
from tests.helpers.model_server import Reply

CLOCK = re.compile(r"Now: [^\n]*\.")


def timeless(messages):
    """The messages with the system prompt's clock line ("Now: Monday 7 December 2026, 10:10
    (UTC).") made one, so that two turns on either side of a minute's turn compare equal."""
    return [{**m, "content": CLOCK.sub("Now: (the time).", m["content"])} if isinstance(m.get("content"), str) else m
            for m in messages]


def exported_conversation(panel, model, downloads, question):
    """A real two-turn conversation (a tool call, then a plain answer), exported through the
    history's Export and then deleted, as a user moving it to another browser would. Gives the
    exported record and the messages the model was sent at its last turn."""
    panel.new_conversation()
    model.script(Reply(text="Let me convert.", tool_calls=[{"name": "convert_units", "arguments": {"value": 26.2, "from_unit": "mi", "to_unit": "km"}}]),
                 Reply(text="It is **42.2 km**."), Reply(text="You are welcome."))
    panel.send(question)
    panel.wait_for_status("ok")
    panel.send("Thanks")
    panel.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.turn[data-status=ok]")) == 2, 30)
    return exported_and_deleted(panel, downloads, question), timeless(model.requests[-1]["body"]["messages"])


def exported_and_deleted(panel, downloads, title):
    """The conversation as the history's Export writes it; then it is deleted here."""
    show_history(panel)
    panel.driver.find_element(By.ID, "export-all-json").click()
    path = downloaded(downloads, ".json")
    [record] = [r for r in json.loads(path.read_text(encoding="utf-8"))["conversations"] if r["title"] == title]
    panel.ask_background("delete-conversation", conversationId=record["id"])
    return record


def import_and_continue(panel, model, tmp_path, record, question, write=write_export):
    """Imports the record as an export file (as `write` writes it), opens it from the history and
    asks `question`; gives the notice the import showed and the messages the model was sent."""
    import_file(panel, write(tmp_path / "edited.json", [record]))
    panel.wait(lambda d: "Imported 1 conversation" in notice(d), 30)
    said = notice(panel.driver)
    show_history(panel)[record["title"]].click()
    panel.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.turn")) == len(record["turns"]), 30)
    model.script(Reply(text="Sure."))
    panel.send(question)
    panel.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.turn[data-status=ok]")) == len(record["turns"]) + 1, 30)
    return said, timeless(model.requests[-1]["body"]["messages"])
