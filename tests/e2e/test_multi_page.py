"""Work that spans pages: the tools keep working after the tab navigates (the content scripts
are put into each new document), and a locator handed out on an earlier page, or in another
tab, is refused in words instead of naming whatever the new page numbered the same, even
when that page writes the old locator on an element of its own, and even when the service
worker was stopped in between. Called by hand through the real extension, as a model would."""

import threading

import pytest

from tests.helpers.recording_site import Site

from tests.helpers.page_content import page_content
from tests.helpers.locators import locators
from tests.helpers.locators import LOCATOR

pytestmark = pytest.mark.e2e

HELP_CLICKS = "return window.helpClicks ?? 0"
HELP = "document.querySelector('[aria-label=Help]')"  # controls.html's first control
COUNT_HELP_CLICKS = f"window.helpClicks = 0; {HELP}.addEventListener('click', () => window.helpClicks++)"


def click(tabs, locator):
    reply = tabs.tool_reply("click", locator=locator)
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
        browser.driver.switch_to.window(tabs.window)
        assert "was given on an earlier page or in another tab" in click(tabs, from_first_tab)
        browser.driver.switch_to.window(other)
        assert browser.driver.execute_script(HELP_CLICKS) == 0
    finally:
        browser.driver.switch_to.window(other)
        browser.driver.close()
        browser.driver.switch_to.window(tabs.window)


def test_numbering_goes_on_after_the_service_worker_was_stopped(tabs, site, browser):
    tabs.show(site.url("form-controls.html"))
    earlier = locators(tabs)
    browser.stop_service_worker()
    tabs.show(site.url("controls.html"))
    tabs.in_page(COUNT_HELP_CLICKS)
    assert min(n for _, n, _ in locators(tabs)) > max(n for _, n, _ in earlier)
    assert "was given on an earlier page" in click(tabs, earlier[0][0])
    assert tabs.in_page(HELP_CLICKS) == 0


HELD = b"""<!doctype html><title>A held control</title>
<held-button role="button" tabindex="0">Held</held-button>
<script>
// A component that, once TabAgent names it, asks its server on the page's own thread and waits
// for the answer (here: until the test lets it go), in the middle of the call that named it.
customElements.define("held-button", class extends HTMLElement {
  static observedAttributes = ["data-tabagent-id"];
  attributeChangedCallback() {
    const request = new XMLHttpRequest();
    request.open("GET", "/hold", false);
    request.send();
  }
});
</script>"""
BUTTONS = b"<!doctype html><title>Buttons</title><button>One</button><button>Two</button><button>Three</button>"

START = """
const [message, name, done] = arguments;
(window.replies ??= {})[name] = null;
chrome.runtime.sendMessage({ target: "background", type: "call-tool", ...message }).then((reply) => (window.replies[name] = reply));
done(true);
"""


@pytest.fixture
def two_windows(tabs, browser):
    """A page whose listing is held until the test lets it go (on 127.0.0.1), and another site's
    page in a window of its own (localhost: another site, so another renderer, not held too)."""
    release = threading.Event()

    def hold(request):
        release.wait(120)  # longer than any test here waits
        return 200, {"content-type": "text/plain"}, b"done"

    slow = Site("127.0.0.1", {"/held.html": lambda r: (200, {"content-type": "text/html"}, HELD), "/hold": hold})
    other = Site("localhost", {"/buttons.html": lambda r: (200, {"content-type": "text/html"}, BUTTONS)})
    tabs.show(slow.url("/held.html"))
    driver = browser.driver
    driver.switch_to.new_window("window")
    driver.get(other.url("/buttons.html"))
    handle = driver.current_window_handle
    driver.switch_to.window(tabs.window)
    windows = driver.execute_async_script(
        "const done = arguments[0]; chrome.tabs.query({}).then((all) => done(all.map((t) => [t.url, t.windowId])))")
    window_of = {url: window for url, window in windows}
    yield slow, release, window_of[slow.url("/held.html")], window_of[other.url("/buttons.html")]
    release.set()
    driver.switch_to.window(handle)
    driver.close()
    driver.switch_to.window(tabs.window)
    slow.stop()
    other.stop()


def test_a_tab_listed_while_another_tabs_listing_is_running_never_shares_its_locators(tabs, two_windows):
    """Two turns acting in two windows at once. The first tab's list_controls has given its first
    locator and is still running (its page holds it) when the second tab is listed: the two
    never give the same number."""
    held, release, first, second = two_windows
    driver = tabs.driver
    driver.execute_async_script(START, {"name": "list_controls", "args": {}, "windowId": first}, "first")
    tabs.wait(lambda d: any(r["path"] == "/hold" for r in held.requests), 20, "the first listing never started")
    driver.execute_async_script(START, {"name": "list_controls", "args": {}, "windowId": second}, "second")
    # The second does not wait for the first: it ends while the first is still held.
    tabs.wait(lambda d: d.execute_script("return window.replies.second"), 30, "the second listing never ended")
    release.set()
    replies = tabs.wait(lambda d: d.execute_script(
        "return window.replies.first && window.replies.second && window.replies"), 30, "the calls never finished")
    numbers = {}
    for name in ("first", "second"):
        assert replies[name]["ok"], replies[name]
        body = page_content(replies[name]["result"]["result"])[1].partition("\n\n")[2]
        numbers[name] = {int(m.group(2)) for m in LOCATOR.finditer(body)}
    assert len(numbers["first"]) == 1 and len(numbers["second"]) == 3
    assert not numbers["first"] & numbers["second"]


def test_a_page_that_holds_its_call_for_good_does_not_stop_the_tools_in_another_tab(tabs, two_windows):
    """A page can hold a call for as long as it likes (its own thread waits): another tab's call
    runs meanwhile, without waiting for it, and TabAgent gives up on the held one after its
    bound (page-tool-relay.js, PAGE_SILENT_MS: 15 s) with a sentence."""
    held, _release, first, second = two_windows
    driver = tabs.driver
    driver.execute_async_script(START, {"name": "list_controls", "args": {}, "windowId": first}, "first")
    tabs.wait(lambda d: any(r["path"] == "/hold" for r in held.requests), 20, "the first listing never started")
    driver.execute_async_script(START, {"name": "list_controls", "args": {}, "windowId": second}, "second")
    reply = tabs.wait(lambda d: d.execute_script("return window.replies.second"), 60, "the other tab's call never ran")
    assert reply["ok"] and "“Three”" in reply["result"]["result"]
    assert driver.execute_script("return window.replies.first") is None  # still held
    given_up = tabs.wait(lambda d: d.execute_script("return window.replies.first"), 60, "the held call never ended")
    assert given_up["ok"] and "did not answer for 15 s: its own scripts are keeping it busy" in given_up["result"]["result"]
