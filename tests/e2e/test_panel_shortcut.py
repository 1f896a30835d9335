"""The toolbar shortcut opens the side panel and, pressed again, closes it (issue 14, item 4);
the toolbar button still opens it.

The key is pressed as a person presses it: a key event delivered to the browser window (CDP's
Input.dispatchKeyEvent on the tab, or on the panel whose message box has focus). Chrome, not
the test, matches it against the extension's commands and fires commands.onCommand with its
user gesture, so the panel really opens and closes in headless Chromium: its page appears
among the targets and Chrome counts it as a SIDE_PANEL context, then both go away.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.helpers.browser import ROOT
from tests.helpers.cdp import CDPError

PAGE = "data:text/html,<title>A page</title><p>Something to read.</p>"
MODIFIERS = {"Alt": 1, "Ctrl": 2, "Command": 4, "Shift": 8}


def suggested_key() -> str:
    manifest = json.loads((ROOT / "manifest.json").read_text())
    return manifest["commands"]["toggle-panel"]["suggested_key"]["default"]


def in_worker(browser, expression: str):
    """Evaluates in the service worker. After a stop, the next event starts it again: until then
    there is none, and one just started may not have its `chrome` yet."""
    deadline = time.monotonic() + 10
    while True:
        worker = browser.service_worker_target()
        try:
            if worker:
                return browser.evaluate_in(worker, expression)
        except CDPError as error:
            if "chrome is not defined" not in str(error):
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"no service worker answered {expression}")
        time.sleep(0.1)


def assigned_shortcut(browser) -> str:
    """The key Chrome gave the command (empty when Chrome kept the suggested key for itself)."""
    commands = in_worker(browser, "chrome.commands.getAll()")
    shortcut = next(c["shortcut"] for c in commands if c["name"] == "toggle-panel")
    assert shortcut, "Chrome gave the shortcut no key"
    return shortcut


def press(browser, target: dict, shortcut: str) -> None:
    *held, key = shortcut.split("+")
    event = {"modifiers": sum(MODIFIERS[m] for m in held), "key": key, "code": f"Key{key}",
             "windowsVirtualKeyCode": ord(key), "nativeVirtualKeyCode": ord(key)}
    session = browser.cdp.attach(target["targetId"])
    try:
        for kind in ("rawKeyDown", "keyUp"):
            browser.cdp.send("Input.dispatchKeyEvent", {"type": kind, **event}, session_id=session)
    finally:
        browser.cdp.send("Target.detachFromTarget", {"sessionId": session})


def click_toolbar_button(browser) -> None:
    """Clicks TabAgent's toolbar button in the active tab (CDP's Extensions.triggerAction, which
    wants the tab's own target, not its page's)."""
    tabs = browser.cdp.send("Target.getTargets", {"filter": [{"type": "tab"}]})["targetInfos"]
    active = next(t for t in tabs if t.get("embedderData", {}).get("tabActive"))
    browser.cdp.send("Extensions.triggerAction", {"id": browser.extension_id, "targetId": active["targetId"]})


def panel_target(browser) -> dict | None:
    pages = [t for t in browser.extension_targets("page") if t["url"].endswith("/extension/sidepanel/sidepanel.html")]
    return pages[0] if pages else None


def side_panels(browser) -> int:
    """How many side panels Chrome says the extension has open (a panel opened as a tab is not one)."""
    return len(in_worker(browser, 'chrome.runtime.getContexts({ contextTypes: ["SIDE_PANEL"] })'))


def until(predicate, what: str, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def wait_open(browser) -> dict:
    target = until(lambda: side_panels(browser) == 1 and panel_target(browser), "the side panel to open")
    # The panel is ready for the user (its message box has focus) before anything else is pressed.
    until(lambda: browser.evaluate_in(target, "document.activeElement?.id") == "prompt", "the message box's focus")
    return target


def wait_closed(browser) -> None:
    until(lambda: panel_target(browser) is None and side_panels(browser) == 0, "the side panel to close")


def opens_then_closes(browser, page: dict, key: str) -> None:
    """Two presses on the page: the panel opens, then closes."""
    press(browser, page, key)
    wait_open(browser)
    press(browser, page, key)
    wait_closed(browser)


def wait_until_settled(browser, panel: dict) -> None:
    """Waits until the panel has nothing more to ask of the worker (Python is ready), as before
    Chrome stops an idle worker."""
    ready = 'document.getElementById("python-status").dataset.ready'
    until(lambda: browser.evaluate_in(panel, ready) == "true", "Python to be ready", timeout=90)


@pytest.fixture
def page(browser):
    """A web page's tab, and no side panel open when the test starts or ends."""
    browser.open_tab(PAGE)
    yield next(t for t in browser.cdp.targets() if t["type"] == "page" and t["url"].startswith("data:"))
    in_worker(browser, "chrome.windows.getAll().then((all) => Promise.all(all.map((w) => chrome.sidePanel.close({ windowId: w.id }))))")
    wait_closed(browser)


def test_chrome_gives_the_shortcut_its_suggested_key_and_our_words(browser):
    # Chrome leaves a suggested key unassigned when it is one of its own (Alt+Shift+A is).
    assert assigned_shortcut(browser) == suggested_key()
    english = json.loads((ROOT / "_locales" / "en" / "messages.json").read_text())["commandTogglePanel"]["message"]
    commands = in_worker(browser, "chrome.commands.getAll()")
    assert next(c["description"] for c in commands if c["name"] == "toggle-panel") == english


def test_the_shortcut_opens_the_panel_and_closes_it_again(browser, page):
    key = assigned_shortcut(browser)
    assert panel_target(browser) is None
    press(browser, page, key)
    panel = wait_open(browser)
    press(browser, panel, key)  # pressed where the focus is: the panel's message box
    wait_closed(browser)
    opens_then_closes(browser, page, key)


def test_the_shortcut_knows_the_panel_after_the_service_worker_restarts(browser, page):
    key = assigned_shortcut(browser)
    press(browser, page, key)
    wait_until_settled(browser, wait_open(browser))
    browser.stop_service_worker()  # the key itself starts it again
    press(browser, page, key)
    wait_closed(browser)
    browser.stop_service_worker()
    opens_then_closes(browser, page, key)


def test_a_panel_closed_another_way_opens_at_the_next_press(browser, page):
    key = assigned_shortcut(browser)
    press(browser, page, key)
    panel = wait_open(browser)
    browser.evaluate_in(panel, "window.close()")  # not through the shortcut
    wait_closed(browser)
    opens_then_closes(browser, page, key)


def test_the_toolbar_button_still_opens_the_panel_and_the_shortcut_closes_it(browser, page):
    key = assigned_shortcut(browser)
    click_toolbar_button(browser)
    wait_open(browser)
    press(browser, page, key)
    wait_closed(browser)
    press(browser, page, key)
    wait_open(browser)
    click_toolbar_button(browser)  # Chrome's own toggle: the button closes an open panel
    wait_closed(browser)
    press(browser, page, key)
    wait_open(browser)
