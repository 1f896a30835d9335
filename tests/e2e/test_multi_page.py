"""Work that spans pages: the tools keep working after the tab navigates (the content scripts
are put into each new document), and a locator handed out on an earlier page, or in another
tab, is refused in words instead of naming whatever the new page numbered the same, even
when that page writes the old locator on an element of its own, and even when the service
worker was stopped in between. Called by hand through the real extension, as a model would."""

import re

import pytest

from .page_tabs import page_content
from .test_page_tools import site, tabs  # noqa: F401  (fixtures: a panel beside a page tab, the pages)

pytestmark = pytest.mark.e2e

LOCATOR = re.compile(r"^(ta-(\d+)) ", re.M)
HELP_CLICKS = "return window.helpClicks ?? 0"
HELP = "document.querySelector('[aria-label=Help]')"  # controls.html's first control
COUNT_HELP_CLICKS = f"window.helpClicks = 0; {HELP}.addEventListener('click', () => window.helpClicks++)"


def locators(tabs, **args):
    """The locators list_controls gives, as (locator, number, its line)."""
    body = page_content(tabs.call("list_controls", **args))[1].partition("\n\n")[2]
    return [(m.group(1), int(m.group(2)), line) for m, line in
            ((LOCATOR.match(line), line) for line in body.splitlines()) if m]


def click(tabs, locator):
    reply = tabs.call_reply("click", locator=locator)
    assert reply["ok"], reply
    return reply["result"]["result"]


def test_a_locator_from_the_page_before_is_refused_after_the_tab_navigates(tabs, site):
    tabs.show(site.url("form-controls.html"))
    earlier = locators(tabs)
    tabs.show(site.url("controls.html"))
    tabs.in_page(COUNT_HELP_CLICKS)
    here = locators(tabs)  # the tools work on the new document
    assert here and min(n for _, n, _ in here) > max(n for _, n, _ in earlier)
    first, _, _ = earlier[0]
    said = click(tabs, first)
    assert f"The locator {first} was given on an earlier page or in another tab" in said
    assert "list_controls" in said and tabs.in_page(HELP_CLICKS) == 0
    help_button = next(loc for loc, _, line in here if "“Help”" in line)
    assert "Help" in click(tabs, help_button) and tabs.in_page(HELP_CLICKS) == 1


def test_a_page_that_writes_an_old_locator_on_its_own_button_does_not_get_the_click(tabs, site):
    tabs.show(site.url("form-controls.html"))
    old, _, _ = locators(tabs)[0]
    tabs.show(site.url("controls.html"))
    tabs.in_page(COUNT_HELP_CLICKS)
    # The page, knowing how locators look, puts the old one on its Help button before any tool ran.
    tabs.in_page(f"{HELP}.setAttribute('data-tabagent-id', arguments[0])", old)
    assert "was given on an earlier page" in click(tabs, old)
    assert tabs.in_page(HELP_CLICKS) == 0
    listed = locators(tabs)
    assert old not in [loc for loc, _, _ in listed]  # the button gets a number of its own
    assert "Help" in click(tabs, listed[0][0]) and tabs.in_page(HELP_CLICKS) == 1


def test_a_locator_from_another_tab_is_refused_there(tabs, site, browser):
    tabs.show(site.url("controls.html"))
    from_first_tab, _, _ = locators(tabs)[0]
    other = browser.open_tab(site.url("controls.html"))  # the user moves to another tab
    try:
        browser.driver.execute_script(COUNT_HELP_CLICKS)
        browser.driver.switch_to.window(tabs.panel)
        assert "was given on an earlier page or in another tab" in click(tabs, from_first_tab)
        browser.driver.switch_to.window(other)
        assert browser.driver.execute_script(HELP_CLICKS) == 0
    finally:
        browser.driver.switch_to.window(other)
        browser.driver.close()
        browser.driver.switch_to.window(tabs.panel)


def test_numbering_goes_on_after_the_service_worker_was_stopped(tabs, site, browser):
    tabs.show(site.url("form-controls.html"))
    earlier = locators(tabs)
    browser.stop_service_worker()
    tabs.show(site.url("controls.html"))
    tabs.in_page(COUNT_HELP_CLICKS)
    assert min(n for _, n, _ in locators(tabs)) > max(n for _, n, _ in earlier)
    assert "was given on an earlier page" in click(tabs, earlier[0][0])
    assert tabs.in_page(HELP_CLICKS) == 0


BOTH_AT_ONCE = """
const [first, second, done] = arguments;
const list = (windowId) => chrome.runtime.sendMessage({ target: "background", type: "call-tool", name: "list_controls", args: {}, windowId });
Promise.all([list(first), list(second)]).then(done, (e) => done(String(e)));
"""


def test_two_tabs_listed_at_the_same_instant_never_share_a_locator(tabs, site, browser):
    # Two turns acting in two windows at once: both calls reach the service worker together.
    tabs.show(site.url("controls.html"))
    driver = browser.driver
    driver.switch_to.new_window("window")
    driver.get(site.url("form-controls.html"))
    other = driver.current_window_handle
    try:
        driver.switch_to.window(tabs.panel)
        windows = driver.execute_async_script(
            "const done = arguments[0]; chrome.tabs.query({}).then((all) => done(all.map((t) => [t.url, t.windowId])))")
        first = next(w for url, w in windows if url.endswith("/controls.html") and "form-" not in url)
        second = next(w for url, w in windows if url.endswith("/form-controls.html"))
        replies = driver.execute_async_script(BOTH_AT_ONCE, first, second)
        numbers = []
        for reply in replies:
            assert reply["ok"], reply
            body = page_content(reply["result"]["result"])[1].partition("\n\n")[2]
            numbers.append({int(m.group(2)) for m in LOCATOR.finditer(body)})
        assert numbers[0] and numbers[1] and not numbers[0] & numbers[1]
    finally:
        driver.switch_to.window(other)
        driver.close()
        driver.switch_to.window(tabs.panel)
