"""Which tab the page tools read: the tab the side panel belongs to, not one a page brought to the
front. A page that opens a pop-up window or a pop-under tab as it loads is not taken for the
user's tab, by hand or in a turn, even when the pop-under is in front before the turn starts,
while a tab the user opened from a link is theirs; and a turn whose tab was closed says so in words.

The pages are loaded through chrome.tabs, not Selenium: ChromeDriver waits on a page that
opens windows as it loads."""

import json
import threading

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply

from tests.helpers.page_content import article, page_content
from tests.helpers.panel_backends import ChromiumPanel
from tests.helpers.tool_calls import tool_call, told

pytestmark = pytest.mark.e2e

# All the windows, each with its tabs: [{id, type, tabs: [{id, active, url, status}]}].
WINDOWS = """
const done = arguments[arguments.length - 1];
chrome.windows.getAll({ populate: true }).then((windows) => done(windows.map((w) => ({ id: w.id, type: w.type,
  tabs: w.tabs.map((t) => ({ id: t.id, active: t.active, url: t.url || t.pendingUrl || "", status: t.status })) }))));
"""
LOAD = "chrome.tabs.update(arguments[0], { url: arguments[1] }).then(() => arguments[2]())"
CLOSE = "chrome.tabs.remove(arguments[0]).then(() => arguments[1]())"


@pytest.fixture
def page_tab(tool_calling, tabs, site):
    """The page tab's id, showing article.html; the advertisements' tabs are closed after."""
    tabs.show(site.url("article.html"))
    [tab] = [t["id"] for w in windows(tabs) for t in w["tabs"] if t["url"] == site.url("article.html")]
    yield tab
    for ad in ads(tabs, site):
        tabs.driver.execute_async_script(CLOSE, ad["id"])


def windows(tabs):
    if tabs.driver.current_window_handle != tabs.window:  # (chrome.windows is the panel's; switching brings it to the front)
        tabs.driver.switch_to.window(tabs.window)
    return tabs.driver.execute_async_script(WINDOWS)


def ads(tabs, site):
    """The loaded tabs showing the advertisement, with their window's type."""
    return [{**t, "window": w["type"]} for w in windows(tabs) for t in w["tabs"]
            if t["url"] == site.url("pop-ad.html") and t["status"] == "complete"]


def test_a_pop_up_window_the_page_opens_on_load_is_not_read(tabs, site, page_tab):
    tabs.driver.execute_async_script(LOAD, page_tab, site.url("pop-up.html"))
    tabs.wait(lambda _: any(ad["window"] == "popup" for ad in ads(tabs, site)), 20, "the pop-up never opened")
    fields, markdown = article(tabs.call_tool("read_page"))
    assert fields["Title"] == "Harbour ferry timetable" and "north pier" in markdown
    assert "“prize” does not occur in the page's text." in tabs.call_tool("find_in_page", query="prize")  # (nor any page tool)


def test_a_pop_under_tab_in_front_before_the_turn_starts_is_not_read(tabs, model, site, page_tab):
    """The user loads the hut's page; as it loads it opens the advertisement in a tab in front of
    itself. The user has not touched either page: read_page by hand, and a turn started now,
    read the hut's page, not the advertisement in front of it."""
    handles = set(tabs.driver.window_handles)
    tabs.driver.switch_to.window(tabs.page)  # (the user is on their tab, as the browser sees it, when the page opens the ad)
    tabs.driver.execute_script("location.href = arguments[0]", site.url("pop-under.html"))
    tabs.wait(lambda _: len(set(tabs.driver.window_handles) - handles) == 1, 20, "the pop-under never opened")
    # (Back in the panel, which is a tab here, the ad is the web tab looked at last.)
    tabs.wait(lambda _: any(ad["window"] == "normal" for ad in ads(tabs, site)), 20, "the pop-under never loaded")
    fields, markdown = article(tabs.call_tool("read_page"))
    assert fields["Title"] == "Mountain hut opening times" and "winter room" in markdown
    model.reset()
    model.script(Reply(tool_calls=[{"name": "read_page", "arguments": {}}]), Reply(text="Read."))
    tabs.new_conversation()
    tabs.send("What does this page say?")
    tabs.wait_for_status("ok")
    source, content = page_content(told(model, 1))
    assert source == site.url("pop-under.html") and "Mountain hut opening times" in content and "prize" not in content


def test_a_tab_the_user_opened_from_a_link_is_read(tabs, site, page_tab):
    """What must keep working: a page the user clicked a link in opened the new tab at their
    asking, so the new tab in front is the one read."""
    tabs.driver.execute_async_script(LOAD, page_tab, site.url("new-tab-link.html"))
    tabs.wait(lambda _: any(t["url"] == site.url("new-tab-link.html") and t["status"] == "complete"
                                     for w in windows(tabs) for t in w["tabs"]), 20, "the page never loaded")
    handles = set(tabs.driver.window_handles)
    tabs.driver.switch_to.window(tabs.page)
    tabs.driver.find_element("id", "timetable").click()  # (a real click: the page now has the user's activation)
    tabs.wait(lambda _: len(set(tabs.driver.window_handles) - handles) == 1, 20, "the link opened no tab")
    [opened] = set(tabs.driver.window_handles) - handles
    tabs.driver.switch_to.window(opened)
    tabs.wait(lambda _: tabs.driver.execute_script("return document.readyState") == "complete", 20, "never loaded")
    try:
        tabs.driver.switch_to.window(tabs.window)
        fields, _ = article(tabs.call_tool("read_page"))
        assert fields["Title"] == "Growing Tomatoes on a Balcony"
    finally:
        tabs.driver.switch_to.window(opened)
        tabs.driver.close()
        tabs.driver.switch_to.window(tabs.window)


def test_a_pop_under_tab_brought_to_the_front_during_a_turn_is_not_read(tabs, model, site, page_tab):
    ad_in_front = threading.Event()
    model.reset()
    model.script(tool_call("navigate", url=site.url("pop-under.html")),
                 Reply(tool_calls=[{"name": "read_page", "arguments": {}}], pause=ad_in_front), Reply(text="Read."))
    tabs.new_conversation()
    tabs.send("Open the hut's page and read it")
    tabs.question(0)
    tabs.answer_question(0, "once")
    # The new tab is in front of the page before the agent reads (the pop-under's point).
    tabs.wait(lambda _: any(ad["active"] and ad["window"] == "normal" for ad in ads(tabs, site)), 20,
         "the pop-under never came to the front")
    ad_in_front.set()
    tabs.wait_for_status("ok")
    source, content = page_content(told(model, 2))
    assert source == site.url("pop-under.html") and "Mountain hut opening times" in content and "prize" not in content


def test_a_turn_whose_tab_was_closed_says_so_in_words(tabs, model, site, page_tab, browser):
    may_read = threading.Event()
    other = browser.open_tab(site.url("tables.html"))  # the tab the user is on when the turn starts
    [closing] = [t["id"] for w in windows(tabs) for t in w["tabs"] if t["url"] == site.url("tables.html")]
    model.reset()
    model.script(Reply(tool_calls=[{"name": "read_page", "arguments": {}}], pause=may_read), Reply(text="Gone."))
    tabs.new_conversation()
    tabs.send("Read the tables")
    tabs.wait(lambda _: len(model.requests) == 1, 30, "the turn never asked the model")
    tabs.driver.execute_async_script(CLOSE, closing)
    assert other not in tabs.driver.window_handles
    may_read.set()
    tabs.wait_for_status("ok")
    assert told(model, 1) == ("The tab this conversation was working on has been closed, so there is no page to work on; "
                              "the user can open the page again and ask once more.")


# What the user does in chrome://extensions, TabAgent's Details, "Site access": "On specific
# sites", with only `allowed` (a match pattern) among them; or, with `allowed` None, "On all sites".
SET_SITE_ACCESS = """
const [id, allowed, done] = arguments;
const access = allowed ? "ON_SPECIFIC_SITES" : "ON_ALL_SITES";
chrome.developerPrivate.updateExtensionConfiguration({ extensionId: id, hostAccess: access })
  .then(() => allowed && chrome.developerPrivate.addHostPermission(id, allowed))
  .then(() => done("ok"), (error) => done(String(error)));
"""


def test_a_site_the_user_keeps_tabagent_out_of_is_named_with_where_to_allow_it(fresh_browser, model, site):
    """The user has set TabAgent's site access to the model's own address only (127.0.0.1) and
    asks about a page of another site (the same server as localhost). A turn's read_page tells the
    model, and the panel shows, which page, why, and where to allow it; once the user allows it
    there (all sites), the same page is read."""
    browser = fresh_browser()
    browser.driver.get("chrome://extensions")  # (the browser's first tab, which becomes the page tab)
    assert browser.driver.execute_async_script(SET_SITE_ACCESS, browser.extension_id, "http://127.0.0.1/*") == "ok"
    tabs = ChromiumPanel.beside_a_page(browser)
    tabs.configure(model.base_url, agent="tool_calling")
    page = site.url("article.html").replace("127.0.0.1", "localhost")
    tabs.show(page)
    model.reset()
    model.script(Reply(tool_calls=[{"name": "read_page", "arguments": {}}]), Reply(text="Not allowed there."))
    tabs.send("What does this page say?")
    tabs.wait_for_status("ok")
    sentence = (f"TabAgent may not read or act on {page}: the user has not allowed TabAgent on {page.split('/')[2]}. "
                "To allow it, the user can open the Extensions menu (the puzzle piece in the browser's toolbar), let "
                "TabAgent read and change this site there, and ask again.")
    assert told(model, 1) == sentence
    shown = tabs.last_turn().find_element(By.CSS_SELECTOR, 'details.tool[data-tool="read_page"] pre.result')
    assert shown.get_attribute("textContent") == sentence
    assert tabs.call_tool("screenshot") == sentence  # (nor pictured, in the same words)
    [listed] = json.loads(page_content(tabs.call_tool("list_tabs"))[1])["tabs"]  # (the settings tab became the page tab)
    assert listed["url"] == page and listed["readable"] is False
    # What must keep working: the allowed site is read, and the page is once the user allows it.
    tabs.show(site.url("article.html"))
    assert article(tabs.call_tool("read_page"))[0]["Title"] == "Growing Tomatoes on a Balcony"
    browser.open_tab("chrome://extensions")
    assert browser.driver.execute_async_script(SET_SITE_ACCESS, browser.extension_id, None) == "ok"
    browser.driver.close()
    tabs.show(page)
    fields, markdown = article(tabs.call_tool("read_page"))
    assert fields["URL"] == page and "Choosing a variety" in markdown
