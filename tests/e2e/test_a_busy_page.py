"""A page whose own script never yields cannot run TabAgent's tools either: the browser never
answers the injection. The tool says so in words after a bound, the turn goes on, and the page
is read as usual once it is free again."""

import json

import pytest


from tests.helpers.page_content import article
from tests.helpers.panel_backends import ChromiumPanel

pytestmark = pytest.mark.e2e

# All from the panel, in one script: while a tab is busy, chromedriver answers nothing (it waits
# on every tab), so the test's own steps cannot wait on it. The page is loaded, found busy (a
# script of the test's own, injected in it, gets no answer), then read by the tool as the
# agent would; what the tool said comes back once chromedriver answers again.
READ_WHILE_BUSY = """
const [tabId, url, done] = arguments;
const answers = () => chrome.scripting.executeScript({ target: { tabId }, func: () => true }).then(() => true, () => true);
const quietFor = (ms) => new Promise((resolve) => setTimeout(() => resolve(false), ms));
(async () => {
  await chrome.tabs.update(tabId, { url });
  while (await Promise.race([answers(), quietFor(1000)]));
  done(await chrome.runtime.sendMessage({ target: "background", type: "call-tool", name: "read_page", args: {} }));
})().catch((error) => done({ ok: false, error: String(error) }));
"""


def users_tab(tabs):
    listing = tabs.call_tool("list_tabs")
    body = listing[listing.index("{"):listing.rindex("}") + 1]
    [tab_id] = [tab["tab_id"] for tab in json.loads(body)["tabs"] if tab["user_is_on"]]
    return tab_id


def test_a_page_busy_with_its_own_script_gets_a_sentence_then_is_read_when_free(browser, site):
    tabs = ChromiumPanel.beside_a_page(browser)
    tabs.show(site.url("article.html"))
    url = site.url("busy-page.html")
    reply = tabs.driver.execute_async_script(READ_WHILE_BUSY, users_tab(tabs), url)
    assert reply and reply.get("ok"), reply
    sentence = reply["result"]["result"]
    assert sentence.startswith(f"The page in this tab ({url}) did not answer for 15 s: its own scripts are keeping it busy")
    assert "look at the page before trying it again" in sentence
    # Thirty seconds after its load the page is free again: the same tool reads it.
    _, markdown = article(tabs.call_tool("read_page"))
    assert "keeps itself busy" in markdown
