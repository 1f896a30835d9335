"""Each reading tool through the whole extension, on pages made for the test: called by hand
from the side panel (call-tool), run by the Python tool, the service worker and the content
script in the page tab, and returned marked as untrusted page content. The content scripts'
finer details are tested alone in test_page_reading.py."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


from tests.helpers.page_content import article, page_content, read_on

pytestmark = pytest.mark.e2e


class SlowPage(BaseHTTPRequestHandler):
    """/<seconds>: a page whose end arrives that many seconds after its start."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/favicon.ico":
            return self.send_error(404)
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(b"<!doctype html><title>Slow page</title><p>The start of a slow page.</p>")
        self.wfile.flush()
        time.sleep(float(self.path.strip("/")))
        self.wfile.write(b"<p>The end of the slow page.</p>")


@pytest.fixture(scope="module")
def slow_site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), SlowPage)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def data(text):
    return json.loads(page_content(text)[1])


def test_read_page_gives_markdown_and_what_the_page_is(tabs, site):
    text = read_on(tabs, site.url("article.html"))
    fields, markdown = article(text)
    assert fields["Title"] == "Growing Tomatoes on a Balcony"
    assert (fields["URL"], fields["Byline"], fields["Language"]) == (site.url("article.html"), "Ada Gardener", "en")
    assert fields["Length"] == f"{len(markdown)} characters of Markdown; this is page 1 of 1"
    assert "## Choosing a variety" in markdown and "| May | 4 |" in markdown


def test_read_page_reads_same_origin_frames_with_the_page(tabs, site):
    tabs.show(site.url("frame.html"))
    _, markdown = article(tabs.call_tool("read_page"))
    assert "The outer page introduces" in markdown
    assert "The inner frame reports that the harvest doubled this year." in markdown
    assert "another origin" not in markdown  # the cross-origin frame stays closed


def test_get_selection(tabs, site):
    tabs.show(site.url("actions.html"))
    assert data(tabs.call_tool("get_selection"))["text"] == ""
    tabs.in_page("""
        const text = document.getElementById('quote').firstChild;
        const start = text.data.indexOf('quick brown fox');
        getSelection().setBaseAndExtent(text, start, text, start + 'quick brown fox'.length);""")
    selection = data(tabs.call_tool("get_selection", context_chars=20))
    assert (selection["before"], selection["text"], selection["after"]) == ("the selection. The", "quick brown fox", "jumps over the lazy")


def test_find_in_page_then_query_page_by_its_locator(tabs, site):
    tabs.show(site.url("actions.html"))
    found = data(tabs.call_tool("find_in_page", query="subscribe"))
    assert found["count"] == 1 and found["matches"][0]["element"] == "button “Subscribe”"
    locator = found["matches"][0]["locator"]
    element = data(tabs.call_tool("query_page", selector=locator, attributes=["id"]))["results"][0]
    assert element["attributes"] == {"id": "subscribe"} and element["text"] == "Subscribe"
    # The tools stay in the page between calls: the locator is the same the second time.
    assert data(tabs.call_tool("find_in_page", query="subscribe"))["matches"][0]["locator"] == locator


def test_list_links(tabs, site):
    tabs.show(site.url("links.html"))
    links = data(tabs.call_tool("list_links", scope="external"))["links"]
    assert [link["text"] for link in links] == ["external paper", "Wikipedia logo", "write to us"]
    internal = data(tabs.call_tool("list_links", filter="about"))["links"]
    assert internal == [{**internal[0], "text": "About us", "url": site.url("about.html"), "internal": True}]


def test_extract_tables_with_header_rows_and_spans(tabs, site):
    tabs.show(site.url("tables.html"))
    tables = data(tabs.call_tool("extract_tables"))
    assert tables["count"] == 3  # the layout table (role=presentation) is not data
    sales = tables["tables"][0]
    assert sales["caption"] == "Quarterly sales"
    assert sales["headers"] == ["Region", "Sales / 2023", "Sales / 2024"]  # two header rows, a colspan
    assert sales["rows"][-2:] == [["West", "8", "9"], ["Figures in millions"] * 3]  # rowspan, colspan repeated


def test_page_html_of_a_selector(tabs, site):
    tabs.show(site.url("tables.html"))
    html = data(tabs.call_tool("page_html", selector="#people"))
    assert html["count"] == 1 and "<td>Ada</td>" in html["html"] and html["html"].startswith('<table id="people">')


def test_list_tabs_and_read_another_tab_without_switching(tabs, site, browser):
    tabs.show(site.url("tables.html"))
    other = browser.open_tab(site.url("article.html"))
    try:
        tabs.driver.switch_to.window(tabs.page)  # the user goes back to the tables
        tabs.driver.switch_to.window(tabs.window)
        listed = data(tabs.call_tool("list_tabs"))["tabs"]
        by_title = {tab["title"]: tab for tab in listed}
        assert by_title["Sales tables"]["user_is_on"] and not by_title["Growing Tomatoes on a Balcony"]["user_is_on"]
        assert not any(tab["url"].startswith("chrome-extension://") for tab in listed)  # not our own panel
        fields, markdown = article(tabs.call_tool("read_tab", tab_id=by_title["Growing Tomatoes on a Balcony"]["tab_id"]))
        assert fields["Title"] == "Growing Tomatoes on a Balcony" and "Choosing a variety" in markdown
        assert article(tabs.call_tool("read_page"))[0]["Title"] == "Sales tables"  # still on the tables
        assert tabs.call_tool("read_tab", tab_id=1) == "There is no tab 1 with a web page; list_tabs gives the ids of the open tabs."
    finally:
        tabs.driver.switch_to.window(other)
        tabs.driver.close()
        tabs.driver.switch_to.window(tabs.window)


def test_a_browser_page_gives_a_clear_sentence(tabs):
    elsewhere = "The user can open a web page in this tab, or go to a tab that shows one, and ask again."
    tabs.show("chrome://version")
    sentence = ("TabAgent cannot read or act on chrome://version/: it is one of the browser's own pages, "
                f"which browsers keep every extension out of. {elsewhere}")
    assert tabs.call_tool("read_page") == sentence
    assert tabs.call_tool("find_in_page", query="Chromium") == sentence
    tabs.show("about:blank")  # (a tab with no page: not one of the browser's own pages)
    assert tabs.call_tool("read_page") == f"TabAgent cannot read or act on about:blank: the tab shows no page, so there is nothing to read. {elsewhere}"


def test_a_loading_page_is_waited_for_briefly_then_explained(tabs, site, slow_site):
    tabs.show(site.url("article.html"))
    [user_tab] = [tab["tab_id"] for tab in data(tabs.call_tool("list_tabs"))["tabs"] if tab["user_is_on"]]

    def start_loading(url):  # from the panel, so that Selenium does not wait for the load
        tabs.driver.execute_async_script(
            "chrome.tabs.update(arguments[0], { url: arguments[1] }).then(() => arguments[2]())", user_tab, url)

    start_loading(f"{slow_site}/1.5")
    _, markdown = article(tabs.call_tool("read_page"))
    assert "The end of the slow page." in markdown  # it waited for the page
    start_loading(f"{slow_site}/8")
    assert tabs.call_tool("read_page") == f"The page in this tab ({slow_site}/8) is still loading; try again in a moment."


def test_a_wrong_call_by_hand_is_refused_with_the_reason(tabs, site):
    tabs.show(site.url("article.html"))
    assert "missing required argument 'query'" in tabs.tool_reply("find_in_page")["error"]
    assert "There is no tool named 'read_everything'" in tabs.tool_reply("read_everything")["error"]
    # A tool that fails on the page says why in a sentence (marked: such sentences quote the
    # page); the turn would go on.
    assert page_content(tabs.call_tool("find_in_page", query="   "))[1] == "find_in_page needs some text to look for."
