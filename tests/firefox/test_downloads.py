"""read_download in Firefox (issue 51), as in Chromium's tests/e2e/test_downloads.py: a text
file and a PDF the page downloaded during the turn are read after the user allows it, inside the
page-content marking. Red team: a name like a system file is shown harmless, a download from
before the turn is not offered, a site the rules `never` allow is refused unasked, a 20 MB file
is bounded."""

from __future__ import annotations

import time

import pytest

from tests.helpers.download_pages import NOTES, REPORT
from tests.helpers.firefox import Firefox
from tests.helpers.model_server import Reply
from tests.helpers.panel_backends import firefox_panel
from tests.helpers.tool_calls import call, told

from tests.e2e.page_tabs import page_content

from .page_tab import PageTab

STATES = "[...[...document.querySelectorAll('article.turn')].at(-1).querySelectorAll('.confirmation')].map((b) => b.dataset.state)"


@pytest.fixture(scope="module")
def firefox(firefox_build, downloads):
    """A Firefox that saves downloads into `downloads` without asking, as a user's usually does."""
    prefs = {"browser.download.folderList": 2, "browser.download.dir": str(downloads), "browser.download.useDownloadDir": True,
             "browser.download.always_ask_before_handling_new_types": False, "browser.download.panel.shown": True}
    instance = Firefox(extra_prefs=prefs).start(firefox_build)
    yield instance
    instance.quit()


@pytest.fixture(scope="module")
def files_tab(firefox):
    return PageTab(firefox)


@pytest.fixture
def download_chat(files_tab, model, download_sites):
    model.reset()
    files_tab.show(download_sites[0].url("files.html"))
    panel = firefox_panel(files_tab.firefox, files_tab.chat)
    panel.configure(model.base_url, max_steps=8)
    panel.new_conversation()
    yield panel
    panel.configure(model.base_url)


def click_then_read(panel, model, locator):
    model.script(call("click", locator=locator), call("read_download"), Reply(text="Done."))
    panel.send("Read the file the page gives")
    panel.question(0)
    panel.answer_question(0, "once")
    return panel.question(1, timeout=30)


def test_a_text_download_of_the_turn_is_asked_then_read_as_page_content(download_chat, model, download_sites):
    asked = click_then_read(download_chat, model, "#txt")
    assert asked["message"] == f"Read the file “notes.txt” (1 KB) that the page {download_sites[0].url('').rstrip('/')} downloaded in this turn?"
    download_chat.answer_question(1, "once")
    assert download_chat.wait_for_status("ok", "error") == "ok"
    source, content = page_content(told(model, 2))
    assert source == "the downloaded file notes.txt" and NOTES in content


def test_a_pdf_download_is_read_with_pdfjs(download_chat, model):
    click_then_read(download_chat, model, "#pdf")
    download_chat.answer_question(1, "once")
    assert download_chat.wait_for_status("ok", "error") == "ok"
    _, content = page_content(told(model, 2))
    assert "PDF, 2 pages" in content and REPORT in content


def test_a_download_named_like_a_system_file_is_shown_harmless(download_chat, model):
    asked = click_then_read(download_chat, model, "#spoof")
    download_chat.answer_question(1, "once")
    assert download_chat.wait_for_status("ok", "error") == "ok"
    said = told(model, 2)
    for seen in (asked["message"], asked["details"]["file"], said):
        assert "\u202e" not in seen and "../" not in seen and "..\\" not in seen
    assert NOTES in said


def test_a_download_from_before_the_turn_is_not_offered(download_chat, model, files_tab, firefox):
    firefox.evaluate(files_tab.page, "document.getElementById('txt').click()")
    time.sleep(1.5)
    model.script(call("read_download"), Reply(text="Nothing to read."))
    download_chat.send("Read the file the page gave")
    assert download_chat.wait_for_status("ok", "error", timeout=60) == "ok"
    assert "No file was downloaded by this tab's page during this turn" in told(model, 1)
    assert download_chat.backend.run(STATES) == []


def test_a_download_from_a_site_the_rules_never_allow_is_refused_unasked(download_chat, model, download_sites):
    elsewhere = download_sites[1]
    never = f"127.0.0.1:{elsewhere.url('').rsplit(':', 1)[1].rstrip('/')}: never"
    download_chat.configure(model.base_url, max_steps=8, site_rules=never)
    elsewhere.requests.clear()
    model.script(call("click", locator="#elsewhere"), call("read_download"), Reply(text="Refused."))
    download_chat.send("Read the other site's file")
    download_chat.question(0)
    download_chat.answer_question(0, "once")
    assert download_chat.wait_for_status("ok", "error", timeout=60) == "ok"
    assert "did not allow reading the downloaded file secret.txt" in told(model, 2)
    assert download_chat.backend.run(STATES) == ["once", "refused_by_settings"]
    assert len(elsewhere.requests) == 1


def test_a_huge_download_is_read_only_up_to_its_bound(download_chat, model):
    click_then_read(download_chat, model, "#huge")
    download_chat.answer_question(1, "once")
    assert download_chat.wait_for_status("ok", "error", timeout=90) == "ok"
    said = told(model, 2)
    assert "Only the first 8 MB of the file were read" in said and len(said) < 40_000
