"""Pictures in a conversation's history stay within a size across its turns: a long
conversation with many large pictures keeps the newest, the oldest give way first to a note
the user sees under their message, and the stored record and its export stay small. The
newest picture is always kept, and a conversation within the size keeps every picture."""

import base64
import copy
import functools
import random
import struct
import uuid
import zlib

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply

from tests.helpers.history import import_file, notice, write_export

pytestmark = pytest.mark.e2e

LIMIT = 10_000_000  # extension/shared/storage/kept-pictures.js KEPT_PICTURE_CHARS


def noisy_png(width, height, seed):
    """A real PNG of random pixels (it does not compress): about 3 bytes a pixel."""
    rows = random.Random(seed).randbytes(height * (width * 3 + 1))
    rows = b"".join(b"\0" + rows[i * (width * 3 + 1) + 1:(i + 1) * (width * 3 + 1)] for i in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))
    return "data:image/png;base64," + base64.b64encode(png).decode()


@functools.cache
def picture(name):
    return noisy_png(1000, 1000, name)  # 4 MB of data URL: two fit in the size, three do not


def send_with_pictures(panel, model, conversation_id, text, names):
    model.script(Reply(text=f"Seen {text}."))
    images = [{"name": f"{name}.png", "url": picture(name)} for name in names]
    started = panel.ask_background("start-turn", conversationId=conversation_id, text=text, attachedImages=images)
    panel.wait(lambda _: any(t["id"] == started["turnId"] and t["status"] == "ok"
                             for r in panel.stored_conversations() for t in r["turns"]), 60, "the turn never ended")
    return started["conversationId"]


def record_of(panel, conversation_id):
    return next(r for r in panel.stored_conversations() if r["id"] == conversation_id)


def kept(record):
    """Per turn, per picture: is it still there, whole?"""
    return [[image.get("url") == picture(image["name"][0]) for image in turn["attachments"]["images"]]
            for turn in record["turns"]]


def exported(panel, conversation_id):
    """The conversation's JSON export, as History's export writes it."""
    return panel.driver.execute_async_script("""
      const [id, done] = arguments;
      Promise.all([import(chrome.runtime.getURL("extension/shared/storage/export.js")),
                   chrome.storage.local.get(`conversation:${id}`)])
        .then(([{ toJson }, stored]) => done(toJson([stored[`conversation:${id}`]])));""", conversation_id)


def test_the_oldest_pictures_give_way_first_and_the_user_sees_a_note(panel, model):
    conversation = send_with_pictures(panel, model, None, "first", ["a"])
    conversation = send_with_pictures(panel, model, conversation, "second", ["b"])
    assert kept(record_of(panel, conversation)) == [[True], [True]]  # within the size: every picture kept
    send_with_pictures(panel, model, conversation, "third", ["c", "d"])
    assert kept(record_of(panel, conversation)) == [[False], [False], [True, True]]
    send_with_pictures(panel, model, conversation, "fourth", ["e"])
    record = record_of(panel, conversation)
    assert kept(record) == [[False], [False], [False, True], [True]]  # the older of a turn's two goes first
    assert record["turns"][0]["attachments"]["images"] == [{"name": "a.png", "not_kept": True}]
    export = exported(panel, conversation)
    assert LIMIT < 5 * len(picture("a")) and len(export) < LIMIT + 4_000_000  # 8 MB of pictures, not 20

    panel.open_conversation(conversation)
    turns = panel.driver.find_elements(By.CSS_SELECTOR, "article.turn")
    notes = [[li.text for li in turn.find_elements(By.CSS_SELECTOR, '.attachment[data-kind="picture-not-kept"]')]
             for turn in turns]
    assert notes[0] == ["Picture “a.png” not kept: older pictures give way so the conversation stays small."]
    assert len(notes[2]) == 1 and "c.png" in notes[2][0] and notes[3] == []
    shown = turns[3].find_elements(By.CSS_SELECTOR, "img.sent-picture")
    assert [img.get_attribute("src") == picture("e") for img in shown] == [True]


def test_an_imported_conversation_full_of_pictures_is_stored_within_the_size(panel, model, tmp_path):
    conversation = send_with_pictures(panel, model, None, "template", ["a"])
    record = copy.deepcopy(record_of(panel, conversation))
    [turn] = record["turns"]
    record["turns"] = [{**copy.deepcopy(turn), "id": f"turn-{name}", "attachments": {**turn["attachments"],
                        "images": [{"name": f"{name}.png", "url": picture(name)}]}} for name in "abcd"]
    record.update(id=f"pictures-{uuid.uuid4()}", title="Many pictures, imported")
    path = write_export(tmp_path / "pictures.json", [record])
    import_file(panel, path)
    panel.wait(lambda d: "Imported 1 conversation" in notice(d), 60)
    [stored] = [r for r in panel.stored_conversations() if r["title"] == "Many pictures, imported"]
    assert kept(stored) == [[False], [False], [True], [True]]
