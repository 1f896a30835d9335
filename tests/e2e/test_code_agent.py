"""A CodeAgent turn in the real extension: the model's code runs in the sandbox, calls a page
tool, parses with BeautifulSoup, keeps a variable for the next step and ends the run."""

from __future__ import annotations

import re

from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.page_server import PageServer

from .chat import configure, last_turn, open_steps, send, wait_for_status
from .page_tabs import PageTabs
from tests.helpers.pages import OWN_PAGES

STEP_ONE = '''Thought: read the page, then count its paragraphs.
```python
from bs4 import BeautifulSoup
page = read_page()
soup = BeautifulSoup(page, "html.parser")
source = soup.find("page_content", source=True)["source"]
html = BeautifulSoup(page_html(), "html.parser")
paragraphs = [p.get_text(" ", strip=True) for p in html.find_all("p")]
print(source, len(paragraphs))
```'''

STEP_TWO = '''```python
final_answer(f"{len(paragraphs)} paragraphs; the first says: {paragraphs[0][:40]}")
```'''


def test_code_reads_the_page_parses_it_keeps_a_variable_and_answers(browser, model):
    with PageServer(OWN_PAGES) as site:
        tabs = PageTabs(browser)
        configure(browser, model.base_url, agent="code")
        tabs.show(site.url("article.html"))
        expected = tabs.in_page("return [...document.querySelectorAll('p')].map((p) => p.textContent.trim().replace(/\\s+/g, ' '))")
        browser.driver.find_element(By.ID, "new-chat").click()
        model.script(Reply(text=STEP_ONE), Reply(text=STEP_TWO))
        send(browser, "How many paragraphs does this page have?")
        try:
            wait_for_status(browser, "ok", timeout=60)
        finally:
            browser.screenshot("code-agent-sandbox")
        turn = last_turn(browser.driver)
        open_steps(turn)
        output = turn.find_elements(By.CSS_SELECTOR, "pre.output")[0].text
        assert output.strip() == f"{site.url('article.html')} {len(expected)}"
        answer = turn.find_element(By.CSS_SELECTOR, ".message.assistant").text
        assert answer.startswith(f"{len(expected)} paragraphs; the first says: {expected[0][:20]}")
        # The step's output is what the model read next, and the page tools ran as tool calls.
        observation = model.requests[1]["body"]["messages"][-1]["content"]
        assert site.url("article.html") in observation
        tools = [d.get_attribute("data-tool") for d in turn.find_elements(By.CSS_SELECTOR, "details.tool")]
        assert tools == ["read_page", "page_html"]
        browser.screenshot("code-agent-sandbox")


def test_code_that_never_ends_is_stopped_and_the_run_goes_on(browser, model):
    model.reset()
    browser.open_side_panel()
    browser.driver.execute_async_script(
        "const [url, done] = arguments; chrome.runtime.sendMessage({target: 'background', type: 'save-settings', apiKey: 'sk',"
        " settings: {provider: 'custom', base_url: url, model: 'm', agent: 'code', max_steps: 4, code_timeout: 2}}).then(done);",
        model.base_url,
    )
    browser.driver.find_element(By.ID, "new-chat").click()
    model.script(Reply(text="```python\nwhile True:\n    pass\n```"), Reply(text="```python\nfinal_answer('recovered')\n```"))
    send(browser, "Spin forever")
    wait_for_status(browser, "ok", timeout=30)
    turn = last_turn(browser.driver)
    open_steps(turn)
    assert re.search(r"timed out after 2 s", turn.find_elements(By.CSS_SELECTOR, "pre.output")[0].text)
    assert turn.find_element(By.CSS_SELECTOR, ".message.assistant").text == "recovered"
