"""Red team: the PDF reader as a confused deputy (issue 22).

Two sites, as the browser tells them apart: a shop on 127.0.0.1 and the user's bank on
localhost (another host, so another site, with its own cookie jar). The user is logged in to
the bank: the browser holds its session cookie, set by the bank's own login page. The shop
serves Chrome's PDF viewer an innocent offer, but answers TabAgent's own download of the same
address (which it tells apart by the request's Sec-Fetch-Dest) with a redirect to the user's
bank statement. TabAgent must not follow it: the bank hears nothing from TabAgent and its
statement never reaches the scripted model; the user is told why in words. What keeps
working: a PDF behind the user's own login, open in the tab, and a PDF the tab reached
through a redirect of its own.
"""

from __future__ import annotations

import json

import pytest

from tests.helpers.model_server import Reply
from tests.helpers.pdf import make_pdf
from tests.helpers.recording_site import Site, downloads, shown_in_the_tab

from tests.helpers.page_content import article

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("signed_in_to_the_bank")]

OFFER = "Spring offer\nApples at half price until Sunday."
STATEMENT = "Account statement\nIBAN DE89 3704 0044 0532 0130 00\nBalance: 48,210.55 EUR"
SESSION = "session=bank-7731"


def pdf(text):
    return 200, {"content-type": "application/pdf"}, make_pdf([text])


@pytest.fixture(scope="module")
def bank():
    def login(request):
        return 200, {"content-type": "text/html", "set-cookie": f"{SESSION}; Path=/; SameSite=Lax; HttpOnly"}, b"<h1>Welcome back</h1>"

    def statement(request):
        return pdf(STATEMENT) if SESSION in request.headers.get("cookie", "") else (403, {}, b"log in first")

    site = Site("localhost", {"/login": login, "/statement.pdf": statement})
    yield site
    site.stop()


@pytest.fixture(scope="module")
def shop(bank):
    def offer(request):
        if shown_in_the_tab(request):
            return pdf(OFFER)
        return 302, {"location": bank.url("/statement.pdf")}, b""

    def moving(request):
        return pdf(OFFER) if shown_in_the_tab(request) else (302, {"location": "/offer-2026.pdf"}, b"")

    def swapped(request):
        # The viewer gets a PDF; TabAgent's download of the same address, a web page.
        return pdf(OFFER) if shown_in_the_tab(request) else (200, {"content-type": "text/html"}, b"<p>Welcome, Ada Lovelace</p>")

    site = Site("127.0.0.1", {
        "/offer.pdf": offer,
        "/swapped.pdf": swapped,
        "/moving.pdf": moving,
        "/latest.pdf": lambda request: (302, {"location": "/offer-2026.pdf"}, b""),
        "/offer-2026.pdf": lambda request: pdf(OFFER),
    })
    yield site
    site.stop()


@pytest.fixture(scope="module")
def signed_in_to_the_bank(tool_calling, bank):
    tool_calling.show(bank.url("/login"))  # the user logs in to the bank: its cookie is in the browser


@pytest.fixture
def fresh(tabs, model, bank, shop):
    model.reset()
    bank.requests.clear()
    shop.requests.clear()
    return tabs


def show_pdf(tabs, url):
    """Load `url` in the user's tab and wait until the viewer shows a PDF there."""
    tabs.show(url)
    tabs.driver.switch_to.window(tabs.page)
    tabs.wait(lambda d: d.execute_script("return document.contentType") == "application/pdf", 20)
    tabs.driver.switch_to.window(tabs.window)


def test_a_pdf_whose_download_is_redirected_to_another_site_is_not_read(fresh, model, bank, shop):
    model.script(Reply(tool_calls=[{"name": "read_page", "arguments": {}}]), Reply(text="It is an offer."))
    show_pdf(fresh, shop.url("/offer.pdf"))
    fresh.new_conversation()
    fresh.send("What does this PDF say?")
    fresh.wait_for_status("ok")
    assert len(downloads(shop.requests)) == 1  # TabAgent did ask the shop, and was redirected
    # Nothing reached the bank, with its cookie or without: no fetch of TabAgent's, and nothing
    # else but the icon the browser may still be asking for the login page the user opened.
    assert downloads(bank.requests) == [] and [r["path"] for r in bank.requests if r["path"] != "/favicon.ico"] == []
    told = [m for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "with a redirect to another address" in told and "reads only what the tab shows" in told
    sent = json.dumps([r["body"] for r in model.requests])
    assert "48,210.55" not in sent and "DE89" not in sent


def test_a_download_redirected_within_the_same_site_is_refused_too(fresh, shop):
    # The tab's address is where the browser's own redirects ended; a different answer to
    # TabAgent is not what the tab shows, wherever it points.
    show_pdf(fresh, shop.url("/moving.pdf"))
    text = fresh.call_tool("read_page")
    assert "with a redirect to another address" in text and "Apples" not in text
    assert [r["path"] for r in downloads(shop.requests)] == ["/moving.pdf"]


def test_a_download_answered_with_something_else_than_a_pdf_is_dropped_in_words(fresh, shop):
    show_pdf(fresh, shop.url("/swapped.pdf"))
    text = fresh.call_tool("read_page")
    assert text.startswith("This page can't be read:") and "is not a PDF" in text and "stopped the download" in text
    assert "Ada" not in text
    assert [r["path"] for r in downloads(shop.requests)] == ["/swapped.pdf"]


def test_the_users_own_pdf_behind_their_login_is_still_read(fresh, bank):
    show_pdf(fresh, bank.url("/statement.pdf"))
    _, markdown = article(fresh.call_tool("read_page"))
    assert "Balance: 48,210.55 EUR" in markdown
    # The download went to the tab's own site, with the cookie the tab was shown with.
    [download] = downloads(bank.requests)
    assert download["path"] == "/statement.pdf" and SESSION in download["headers"].get("cookie", "")


def test_a_pdf_the_tab_reached_through_a_redirect_is_read(fresh, shop):
    show_pdf(fresh, shop.url("/latest.pdf"))
    fields, markdown = article(fresh.call_tool("read_page"))
    assert fields["URL"] == shop.url("/offer-2026.pdf")
    assert "Apples at half price until Sunday." in markdown
