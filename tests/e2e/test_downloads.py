"""read_download in Chromium (issue 51): a file the page downloaded during the turn is read, after
the user allows it like reading another tab, its text inside the page-content marking: a text
file and a PDF (pdf.js). Red team, on the same pages: a download named like a system file (a path,
a right-to-left override) is shown harmless to the user and the model; a download from before the
turn is not offered; a download from a site the user's rules `never` allow is refused unasked; a
20 MB file is read only up to its bound, in parts."""

from __future__ import annotations

import time

import pytest

from tests.helpers.download_pages import NOTES, REPORT
from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import chromium_panel
from tests.helpers.tool_calls import call, told

from .page_tabs import page_content

pytestmark = pytest.mark.e2e


@pytest.fixture
def download_turn(tabs, model, download_sites, downloads):
    """A new conversation on the files page (the user's tab), the browser saving into `downloads`."""
    model.reset()
    tabs.show(download_sites[0].url("files.html"))
    panel = chromium_panel(tabs.browser)
    panel.configure(model.base_url, max_steps=8)
    panel.new_conversation()
    yield panel
    panel.configure(model.base_url)


def click_then_read(panel, model, locator, **read):
    """The model clicks the link (allowed once), then reads the download; the read's question."""
    model.script(call("click", locator=locator), call("read_download", **read), Reply(text="Done."))
    panel.send("Read the file the page gives")
    panel.question(0)
    panel.answer_question(0, "once")
    return panel.question(1, timeout=30)


def test_a_text_download_of_the_turn_is_asked_then_read_as_page_content(download_turn, model, download_sites):
    asked = click_then_read(download_turn, model, "#txt")
    assert asked["message"] == f"Read the file “notes.txt” (1 KB) that the page {download_sites[0].url('').rstrip('/')} downloaded in this turn?"
    download_turn.answer_question(1, "once")
    assert download_turn.wait_for_status("ok", "error") == "ok"
    source, content = page_content(told(model, 2))
    assert source == "the downloaded file notes.txt" and NOTES in content and content.startswith("File: notes.txt (text")


def test_a_pdf_download_is_read_with_pdfjs(download_turn, model):
    click_then_read(download_turn, model, "#pdf")
    download_turn.answer_question(1, "once")
    assert download_turn.wait_for_status("ok", "error") == "ok"
    _, content = page_content(told(model, 2))
    assert "PDF, 2 pages" in content and "--- PDF page 1 ---" in content and REPORT in content


def test_a_download_named_like_a_system_file_is_shown_harmless(download_turn, model, tabs):
    asked = click_then_read(download_turn, model, "#spoof")
    tabs.browser.screenshot("download-named-like-a-system-file")
    download_turn.answer_question(1, "once")
    assert download_turn.wait_for_status("ok", "error") == "ok"
    said = told(model, 2)
    for seen in (asked["message"], asked["details"]["file"], said):
        assert "\u202e" not in seen and "../" not in seen and "..\\" not in seen
    assert NOTES in said  # the file itself is read: only its name was hostile


def test_a_download_from_before_the_turn_is_not_offered(download_turn, model, tabs):
    tabs.in_page("document.getElementById('txt').click()")
    time.sleep(1.5)  # downloaded before the turn begins
    model.script(call("read_download"), Reply(text="Nothing to read."))
    download_turn.send("Read the file the page gave")
    assert download_turn.wait_for_status("ok", "error", timeout=60) == "ok"
    assert "No file was downloaded by this tab's page during this turn" in told(model, 1)
    assert download_turn.backend.run("[...document.querySelectorAll('article.turn')].at(-1).querySelectorAll('.confirmation').length") == 0


def test_a_download_from_a_site_the_rules_never_allow_is_refused_unasked(download_turn, model, download_sites):
    elsewhere = download_sites[1]
    never = f"127.0.0.1:{elsewhere.url('').rsplit(':', 1)[1].rstrip('/')}: never"
    download_turn.configure(model.base_url, max_steps=8, site_rules=never)
    elsewhere.requests.clear()
    model.script(call("click", locator="#elsewhere"), call("read_download"), Reply(text="Refused."))
    download_turn.send("Read the other site's file")
    download_turn.question(0)
    download_turn.answer_question(0, "once")
    assert download_turn.wait_for_status("ok", "error", timeout=60) == "ok"
    assert "did not allow reading the downloaded file secret.txt" in told(model, 2)
    states = download_turn.backend.run("[...[...document.querySelectorAll('article.turn')].at(-1).querySelectorAll('.confirmation')].map((b) => b.dataset.state)")
    assert states == ["once", "refused_by_settings"]
    assert len(elsewhere.requests) == 1  # the browser's download only: TabAgent fetched nothing


def test_a_huge_download_is_read_only_up_to_its_bound(download_turn, model):
    click_then_read(download_turn, model, "#huge")
    download_turn.answer_question(1, "once")
    assert download_turn.wait_for_status("ok", "error", timeout=90) == "ok"
    said = told(model, 2)
    assert "Only the first 8 MB of the file were read" in said and "this is part 1 of" in said
    assert len(said) < 40_000  # one part reaches the model, not 20 MB
