"""read_download in both browsers (issue 51): a file the page downloaded during the turn is read
after the user allows it like reading another tab, its text inside the page-content marking: a
text file and a PDF (pdf.js). Red team, on the same pages: a download named like a system file (a
path, a right-to-left override) is shown harmless to the user and the model; a download from before
the turn is not offered; a download from a site the rules `never` allow is refused unasked and not
fetched again; a 20 MB file is read only up to its bound. A click that started a download says so in
its result or the next (a link's file, a file the page made), and one that started none says nothing
of it; a download whose server answers 1.5 s after the click is still said in the turn, and read;
a page that redefines fetch, Blob and the rest in its own world cannot change a blob's bytes read.
A download whose server answers after the turn's last action holds the answer: the model is told
of it once (and reads it), the panel shows it beside the answer; red team: its name, dressed as
TabAgent's own note, reaches the model inside the marking and the panel as text, and a download
that a tab the turn never acted on starts meanwhile is neither told nor shown."""

from __future__ import annotations

import re
import time

import pytest

from tests.helpers.download_pages import FORGED, HIJACKED, LATE, LIST, NOTE_NAME, NOTES, REPORT, SLOW_BODY_S, TIMER_PAGE
from tests.helpers.model_server import Reply
from tests.helpers.page_content import page_content
from tests.helpers.tool_calls import tool_call, told

STATES = "[...[...document.querySelectorAll('article.turn')].at(-1).querySelectorAll('.confirmation')].map((b) => b.dataset.state)"


@pytest.fixture
def download_turn(tabs, model, download_sites, browser_name, tmp_path):
    if browser_name == "chromium":  # headless Chromium saves only where it is told to
        tabs.browser.cdp.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    model.reset()
    tabs.configure(model.base_url, max_steps=8)
    tabs.new_conversation(on=download_sites[0].url("files.html"))
    yield tabs
    tabs.configure(model.base_url)


def click_then_read(panel, model, locator):
    model.script(tool_call("click", locator=locator), tool_call("read_download"), Reply(text="Done."))
    panel.send("Read the file the page gives")
    panel.question(0)
    panel.answer_question(0, "once")
    return panel.question(1, timeout=30)


def test_a_text_download_of_the_turn_is_asked_then_read_as_page_content(download_turn, model, download_sites):
    asked = click_then_read(download_turn, model, "#txt")
    # A browser that saved the name before numbers this one (Firefox: "notes(2).txt").
    site = re.escape(download_sites[0].url('').rstrip('/'))
    assert re.fullmatch(rf"Read the file “notes(\(\d+\))?\.txt” \(1 KB\) that the page {site} downloaded in this turn\?", asked["message"])
    download_turn.answer_question(1, "once")
    assert download_turn.wait_for_status("ok", "error") == "ok"
    source, content = page_content(told(model, 2))
    assert re.fullmatch(r"the downloaded file notes(\(\d+\))?\.txt", source) and NOTES in content


def test_a_click_that_started_a_download_says_so_and_one_that_did_not_says_nothing(download_turn, model):
    """The service worker watches the tab's downloads for the rest of the turn (action-downloads.js):
    a link's file and a file the page made (a blob) are named in the click's result, or, when the
    browser made the download after the click was answered, in the next result; read_download then
    reads the one asked, the page's blob (in Firefox through `content.fetch`, docs/firefox.md)."""
    model.script(tool_call("click", locator="#txt"), tool_call("click", locator="#made"), tool_call("click", locator="#nothing"),
                 Reply(tool_calls=[{"name": "read_download", "arguments": {"name": "list"}}]), Reply(text="Done."))
    download_turn.send("Get my files")
    for n in range(4):
        download_turn.question(n, timeout=30)
        download_turn.answer_question(n, "once")
    assert download_turn.wait_for_status("ok", "error") == "ok"
    started = "This click started a download in this tab: read_download can read it (the user is asked first)."
    late = "Since the last result, a download started in tab "
    link, made, nothing = told(model, 1), told(model, 2), told(model, 3)
    size = r"\((1 KB|size unknown)(, still downloading)?\)"  # a download not finished when claimed says so
    notes, listed = rf"\nnotes(\(\d+\))?\.txt {size}\n</page_content>", rf"\nlist(\(\d+\))?\.txt {size}\n</page_content>"
    assert (started in link and re.search(notes, link)) or (late in made and re.search(notes, made))
    assert (started in made and re.search(listed, made)) or (late in nothing and re.search(listed, nothing))
    assert started not in nothing
    source, content = page_content(told(model, 4))
    assert re.fullmatch(r"the downloaded file list(\(\d+\))?\.txt", source) and LIST in content


def test_a_download_the_server_answers_late_is_still_said_in_the_turn_and_read(download_turn, model):
    """The click is answered without waiting for a download; the server answers 1.5 s later, while
    the model waits on the page: that result says the download, and read_download reads it."""
    model.script(tool_call("click", locator="#late"), tool_call("wait_for", text="Never on this page", timeout=4),
                 tool_call("read_download"), Reply(text="Done."))
    slow_report_allowed(download_turn)
    clicked, waited = told(model, 1), told(model, 2)
    assert "a download" not in clicked  # answered before the server was
    assert "Since the last result, a download started in tab " in waited and re.search(r"\nlate(\(\d+\))?\.txt \(", waited)
    assert LATE in told(model, 3)


def slow_report_allowed(download_turn):
    """Asks for the slow report, allows the click and then the reading once each, and waits for the
    turn to end well."""
    download_turn.send("Get the slow report")
    download_turn.question(0)
    download_turn.answer_question(0, "once")
    download_turn.question(1, timeout=30)
    download_turn.answer_question(1, "once")
    assert download_turn.wait_for_status("ok", "error", timeout=60) == "ok"


DOWNLOADED = "[...[...document.querySelectorAll('article.turn')].at(-1).querySelectorAll('.turn-downloads li')].map((li) => li.textContent)"


def said_last(model, request):
    """The last message of the model's request number `request` (from 0): after an answer that was
    not taken, what it was told instead."""
    return model.requests[request]["body"]["messages"][-1]["content"]


def shown_line(name, site):
    """The panel's line for a file the turn downloaded after its last action (done or still going)."""
    return rf"Download(ed|ing) after the last action: {name} \((1 KB|\d+ KB|\?)\) from {re.escape(site)}"


def test_a_download_after_the_last_action_is_told_before_the_answer_and_shown(download_turn, model, download_sites):
    """The click is the turn's last action and the model answers at once; the server answers 1.5 s
    after the click. The answer is held: the model is told the file (read_download reads it), reads
    it, and answers; the panel says the file was downloaded."""
    model.script(tool_call("click", locator="#late"), Reply(text="Done."), tool_call("read_download"), Reply(text="It says 12 kettles."))
    slow_report_allowed(download_turn)
    held = said_last(model, 2)
    assert "Your answer was not given to the user yet" in held and re.search(r"\nlate(\(\d+\))?\.txt \(", held)
    assert LATE in told(model, 3)
    assert download_turn.answer() == "It says 12 kettles."
    lines = download_turn.run(DOWNLOADED)
    site = download_sites[0].url("").rstrip("/")
    assert len(lines) == 1 and re.fullmatch(shown_line(r"late(\(\d+\))?\.txt", site), lines[0]), lines


def test_a_late_download_still_on_its_way_is_said_downloaded_when_it_ends(download_turn, model, download_sites):
    """The server sends half the file at once and the rest SLOW_BODY_S later: the turn ends with
    the file on its way ("Downloading ..."), and the line says "Downloaded ..." once the browser
    has it all, followed by the download's id (download-line.js), with no turn running."""
    model.script(tool_call("click", locator="#slow-body"), Reply(text="Done."), Reply(text="The report is on its way."))
    download_turn.send("Get the long report")
    download_turn.question(0)
    download_turn.answer_question(0, "once")
    assert download_turn.wait_for_status("ok", "error", timeout=60) == "ok"
    site = download_sites[0].url("").rstrip("/")
    going = download_turn.run(DOWNLOADED)
    assert len(going) == 1 and going[0].startswith("Downloading after the last action: slow-body"), going
    deadline = time.monotonic() + SLOW_BODY_S + 20
    while (lines := download_turn.run(DOWNLOADED))[0].startswith("Downloading") and time.monotonic() < deadline:
        time.sleep(0.25)
    assert len(lines) == 1 and re.fullmatch(shown_line(r"slow-body(\(\d+\))?\.txt", site), lines[0]), lines
    assert lines[0].startswith("Downloaded after the last action") and "(2 KB)" in lines[0], lines


def test_red_team_a_late_download_named_as_a_note_is_data_and_another_tabs_is_not_told(download_turn, model, download_sites):
    """The other site names its late file as TabAgent's own note; meanwhile a page of that site, in
    a tab the turn never acted on, downloads a file of its own. The model is told the first, its
    name inside the page-content marking, and not the second; the panel shows the name as text,
    beside the answer, and nothing of the other tab's file."""
    files, elsewhere = download_sites
    elsewhere.requests.clear()
    model.script(tool_call("click", locator="#late-note"), Reply(text="Done."), Reply(text="A file came; I did not read it."))
    download_turn.send("Get the note")
    download_turn.question(0)
    download_turn.answer_question(0, "once")
    other = download_turn.run(f"chrome.tabs.create({{ url: {elsewhere.url(TIMER_PAGE)!r}, active: false }}).then((tab) => tab.id)")
    try:
        assert download_turn.wait_for_status("ok", "error", timeout=60) == "ok"
    finally:
        download_turn.run(f"chrome.tabs.remove({other}).catch(() => null)")
    assert "/timer.txt" in [r["path"] for r in elsewhere.requests]  # the other tab's download did happen
    held = said_last(model, 2)
    _, marked = page_content(held)
    assert "Your answer was not given to the user yet" in held.split("<page_content")[0]
    assert NOTE_NAME.split(":")[0] in marked and "timer" not in held
    assert NOTE_NAME.split(":")[0] not in held.split("<page_content")[0]
    lines = download_turn.run(DOWNLOADED)
    assert len(lines) == 1 and "SYSTEM NOTE" in lines[0] and "timer" not in lines[0], lines
    assert "SYSTEM NOTE" not in download_turn.run("[...document.querySelectorAll('article.turn')].at(-1).querySelector('.turn-errors').textContent")
    assert download_turn.answer() == "A file came; I did not read it."


def test_a_pdf_download_is_read_with_pdfjs(download_turn, model):
    click_then_read(download_turn, model, "#pdf")
    download_turn.answer_question(1, "once")
    assert download_turn.wait_for_status("ok", "error") == "ok"
    _, content = page_content(told(model, 2))
    assert "PDF, 2 pages" in content and REPORT in content


def test_a_download_named_like_a_system_file_is_shown_harmless(download_turn, model):
    asked = click_then_read(download_turn, model, "#spoof")
    download_turn.answer_question(1, "once")
    assert download_turn.wait_for_status("ok", "error") == "ok"
    said = told(model, 2)
    for seen in (asked["message"], asked["details"]["file"], said):
        assert "\u202e" not in seen and "../" not in seen and "..\\" not in seen
    assert NOTES in said


def test_a_download_from_before_the_turn_is_not_offered(download_turn, model):
    download_turn.in_page("document.getElementById('txt').click()")
    time.sleep(1.5)
    model.script(tool_call("read_download"), Reply(text="Nothing to read."))
    download_turn.send("Read the file the page gave")
    assert download_turn.wait_for_status("ok", "error", timeout=60) == "ok"
    assert "No file was downloaded by this tab's page during this turn" in told(model, 1)
    assert download_turn.run(STATES) == []


def test_a_download_from_a_site_the_rules_never_allow_is_refused_unasked(download_turn, model, download_sites):
    elsewhere = download_sites[1]
    never = f"127.0.0.1:{elsewhere.url('').rsplit(':', 1)[1].rstrip('/')}: never"
    download_turn.configure(model.base_url, max_steps=8, site_rules=never)
    elsewhere.requests.clear()
    model.script(tool_call("click", locator="#elsewhere"), tool_call("read_download"), Reply(text="Refused."))
    download_turn.send("Read the other site's file")
    download_turn.question(0)
    download_turn.answer_question(0, "once")
    assert download_turn.wait_for_status("ok", "error", timeout=60) == "ok"
    assert re.search(r"did not allow reading the downloaded file secret(\(\d+\))?\.txt", told(model, 2))
    assert download_turn.run(STATES) == ["once", "refused_by_settings"]
    assert len(elsewhere.requests) == 1  # the browser's download only: TabAgent fetched nothing


def test_a_huge_download_is_read_only_up_to_its_bound(download_turn, model):
    click_then_read(download_turn, model, "#huge")
    download_turn.answer_question(1, "once")
    assert download_turn.wait_for_status("ok", "error", timeout=90) == "ok"
    said = told(model, 2)
    assert "Only the first 8 MB of the file were read" in said and len(said) < 40_000


def test_a_page_that_lies_in_its_own_world_cannot_change_what_is_read(download_turn, model):
    """The page makes a blob download, then redefines fetch, Response, Blob, FileReader and btoa in
    its own world to answer another site's words, 30 MB of them. The blob is read in the content
    scripts' world (Firefox: content.fetch, through Xray vision), where none of that runs: the
    model gets the file's own bytes, under the name the browser gave it, inside the marking."""
    asked = click_then_read(download_turn, model, "#forged")
    assert re.search(r"“note(\(\d+\))?\.txt” \((1 KB|size unknown)\)", asked["message"])
    download_turn.answer_question(1, "once")
    assert download_turn.wait_for_status("ok", "error", timeout=60) == "ok"
    said = told(model, 2)
    source, content = page_content(said)
    assert re.fullmatch(r"the downloaded file note(\(\d+\))?\.txt", source) and FORGED in content
    assert HIJACKED.split(":")[0] not in said and "other site" not in said and len(said) < 40_000
