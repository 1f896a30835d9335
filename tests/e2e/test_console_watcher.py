"""The console watcher answers for every extension page a test opens, the side panel first.

Tests open the panel as a tab that starts blank and is then sent to sidepanel.html; a watcher
that only looked at targets born with the extension's address never heard the panel's errors.
"""

from __future__ import annotations

from selenium.webdriver.support.ui import WebDriverWait

from tests.helpers.page_server import PageServer

THROW_LATER = "setTimeout(() => { throw new Error(arguments[0]); }, 0);"


def problems_once_heard(browser, needle: str) -> list[str]:
    """Everything the watcher took, once it holds a problem mentioning `needle`."""
    taken: list[str] = []

    def heard(_driver):
        taken.extend(map(str, browser.take_problems()))
        return any(needle in problem for problem in taken)

    WebDriverWait(browser.driver, 20, poll_frequency=0.05).until(heard, f"the watcher never heard {needle!r}")
    return taken


def test_an_uncaught_exception_in_the_panel_is_a_problem(browser):
    browser.open_side_panel()
    browser.driver.execute_script(THROW_LATER, "thrown in the panel")
    taken = problems_once_heard(browser, "thrown in the panel")
    assert any(p.startswith("[page extension/sidepanel/sidepanel.html] uncaught:") for p in taken), taken


def test_a_console_error_in_the_panel_is_a_problem(browser):
    browser.open_side_panel()
    browser.driver.execute_script("console.error('the panel complains')")
    taken = problems_once_heard(browser, "the panel complains")
    assert any("console.error: the panel complains" in p for p in taken), taken


def test_the_settings_page_opened_in_a_tab_is_watched_too(browser):
    browser.open_tab(browser.url("extension/options/options.html"))
    browser.driver.execute_script(THROW_LATER, "thrown in settings")
    taken = problems_once_heard(browser, "thrown in settings")
    assert any(p.startswith("[page extension/options/options.html]") for p in taken), taken


def test_a_web_page_in_a_tab_that_was_the_panel_is_not_the_extensions_problem(browser, tmp_path):
    (tmp_path / "noisy.html").write_text("<script>console.error('the site complains')</script><p>hello</p>")
    browser.open_side_panel()
    with PageServer(tmp_path) as site:
        browser.driver.get(site.url("noisy.html"))
        # Back to the panel in the same tab: one session, so its events arrive in this order,
        # and once the panel's error is heard the site's would have been too.
        browser.driver.get(browser.url("extension/sidepanel/sidepanel.html"))
        browser.driver.execute_script("console.error('the panel again')")
        taken = problems_once_heard(browser, "the panel again")
    assert not any("the site complains" in p for p in taken), taken


def test_only_what_the_allow_list_names_is_let_through(browser, monkeypatch):
    from tests.helpers import console_watcher

    monkeypatch.setattr(console_watcher, "EXPECTED", [(r"sidepanel\.html\] console\.error: known noise", "why it is expected")])
    browser.open_side_panel()
    browser.driver.execute_script("console.error('known noise'); console.error('a real fault')")
    taken = problems_once_heard(browser, "a real fault")
    assert not any("known noise" in p for p in taken), taken
