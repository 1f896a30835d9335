"""A CodeAgent turn in the real extension: the model's code runs in the sandbox, calls a page
tool, parses with BeautifulSoup, keeps a variable for the next step and ends the run (code that never ends, in both browsers:
tests/both/test_turns.py)."""

from __future__ import annotations


from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.page_server import PageServer

from tests.helpers.panel_backends import ChromiumPanel, open_steps
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
        tabs = ChromiumPanel.beside_a_page(browser)
        tabs.configure(model.base_url, agent="code")
        tabs.new_conversation(on=site.url("article.html"))
        expected = tabs.in_page("return [...document.querySelectorAll('p')].map((p) => p.textContent.trim().replace(/\\s+/g, ' '))")
        model.script(Reply(text=STEP_ONE), Reply(text=STEP_TWO))
        tabs.send("How many paragraphs does this page have?")
        try:
            tabs.wait_for_status("ok", timeout=60)
        finally:
            browser.screenshot("code-agent-sandbox")
        turn = tabs.last_turn()
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
