"""Every request fits the model's window, through the whole extension (Pyodide, fetch, the
panel): the window asked of the endpoint, read_page's parts sized to it, and a turn that
outgrows it compacted, shown in the conversation and in the trace."""

from __future__ import annotations

import re

from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.page_server import PageServer

from .long_article import write_long_article
from tests.helpers.panel_backends import ChromiumPanel

READ = "I will read the page.\n```python\nprint(read_page())\n```"
READ_MORE = "Now the next part.\n```python\nprint(read_page(page=2))\n```"
READ_MORE_STILL = "And the next.\n```python\nprint(read_page(page=3))\n```"
ANSWER = "```python\nfinal_answer('It is a chronicle of a town.')\n```"


def test_a_turn_that_outgrows_the_window_is_compacted_and_says_so(browser, model, tmp_path):
    model.reset()
    model.context_length = 4096  # the endpoint says its window in its model list, as OpenRouter does
    name = write_long_article(tmp_path)
    with PageServer(tmp_path) as site:
        tabs = ChromiumPanel.beside_a_page(browser)
        tabs.configure(model.base_url, agent="code", api_key="", max_steps=5)
        tabs.new_conversation(on=site.url(name))
        model.script(Reply(text=READ), Reply(text=READ_MORE), Reply(text=READ_MORE_STILL), Reply(text=ANSWER))
        tabs.send("What is this page about?")
        tabs.wait_for_status("ok", timeout=90)
        browser.screenshot("context-compaction")

    # The window was asked of the endpoint, and read_page's parts follow it (4096 // 4 tokens).
    assert any(lookup["path"].endswith("/models") for lookup in model.lookups)
    first_read = model.requests[1]["body"]["messages"][-1]["content"]
    pages = int(re.search(r"this is page 1 of (\d+)", first_read).group(1))
    assert pages >= 5, first_read[:400]
    # The fourth request would not have fit: the first page read was shortened to what the
    # task needs (or, when that was not enough, gave way to a note).
    fourth = model.requests[3]["body"]["messages"]
    assert any(note in (m["content"] or "") for m in fourth for note in (
        "[Shortened to fit the model's context window", "[Dropped to fit the model's context window: the output"))
    assert "page 3 of" in fourth[-1]["content"]  # the latest read stays whole

    turn = tabs.last_turn()
    # In the steps, which fold when the turn ends: read, not seen. The label is the panel's,
    # the sentence Python's.
    notice = turn.find_element(By.CSS_SELECTOR, ".compaction")
    assert notice.find_element(By.CSS_SELECTOR, ".compaction-label").get_attribute("textContent") == "Conversation compacted:"
    notice = notice.find_element(By.CSS_SELECTOR, ".compaction-message").get_attribute("textContent")
    assert notice.startswith("The conversation outgrew the model's context window (4,096 tokens, from the endpoint (/models))")
    turn.find_element(By.CSS_SELECTOR, ".show-trace").click()
    entry = browser.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#trace .trace-compaction"), 10)
    assert "compacted" in entry.text
    browser.driver.find_element(By.CSS_SELECTOR, "#trace .close-trace").click()
    model.context_length = None
