"""Sideloading for development: your own tool files, the tools view, calling a tool by hand."""

from __future__ import annotations

import subprocess
import sys
import pytest
from selenium.webdriver.common.by import By

from tests.helpers.browser import ROOT
from tests.helpers.model_server import ModelServer, Reply
from tests.helpers.page_server import PageServer
from tests.helpers.panel_backends import ChromiumPanel


USER_TOOLS = ROOT / "py" / "user_tools"
ADDED = USER_TOOLS / "e2e_reverse_words.py"
BROKEN = USER_TOOLS / "e2e_broken_tool.py"

ADDED_SOURCE = '''from tabagent import tool


@tool
def reverse_words(text: str) -> str:
    """Reverses the order of the words in a text.

    Args:
        text: the words to reverse
    """
    return " ".join(reversed(text.split()))
'''


def build():
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True, cwd=ROOT)


@pytest.fixture
def own_tools():
    """A developer's tool file and a broken one in py/user_tools/, rebuilt; removed after."""
    ADDED.write_text(ADDED_SOURCE)
    BROKEN.write_text("from tabagent import tool\n\n\n@tool\ndef half_written(x: int) -> int\n    return x\n")
    try:
        build()
        yield
    finally:
        ADDED.unlink(missing_ok=True)
        BROKEN.unlink(missing_ok=True)
        build()


def open_tools(panel):
    panel.driver.find_element(By.ID, "show-tools").click()
    return panel.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".tools-list li[data-tool]"), 15)


def test_a_tool_file_added_is_listed_and_called_and_a_broken_one_is_told(own_tools, fresh_browser):
    panel = ChromiumPanel(fresh_browser()).new_conversation()
    open_tools(panel)
    listed = [li.get_attribute("data-tool") for li in panel.driver.find_elements(By.CSS_SELECTOR, ".tools-list li[data-tool]")]
    assert "reverse_words" in listed and "convert_units" in listed and "read_page" in listed
    problem = panel.driver.find_element(By.CSS_SELECTOR, ".tools-problems li").text
    assert "py/user_tools/e2e_broken_tool.py, line 5" in problem
    panel.screenshot("tools-view")
    panel.driver.find_element(By.ID, "show-tools").click()

    with ModelServer() as model:
        panel.configure(model.base_url, agent="tool_calling")
        model.script(
            Reply(tool_calls=[{"name": "reverse_words", "arguments": {"text": "one two three"}},
                              {"name": "convert_units", "arguments": {"value": 1, "from_unit": "km", "to_unit": "m"}}]),
            Reply(text="Done."),
        )
        panel.send("Reverse and convert")
        panel.wait_for_status("ok")
        tool_messages = [m["content"] for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"]
    assert "three two one" in tool_messages[0]
    assert "1000" in tool_messages[1], tool_messages  # the other tools still run
    error = panel.last_turn().find_element(By.CSS_SELECTOR, ".error.kind-user_tools").text
    assert "e2e_broken_tool.py, line 5" in error


def test_read_page_called_by_hand_from_the_tools_view(browser):
    with PageServer(ROOT / "tests" / "e2e" / "pages") as pages:
        browser.open_tab(pages.url("article.html"))
        page_text = browser.driver.find_element(By.TAG_NAME, "h1").text
        panel = ChromiumPanel(browser)
        open_tools(panel)
        item = browser.driver.find_element(By.CSS_SELECTOR, '.tools-list li[data-tool="read_page"]')
        browser.driver.execute_script("arguments[0].querySelector('details').open = true", item)
        item.find_element(By.CSS_SELECTOR, ".run-tool").click()
        result = browser.wait(lambda d: (r := item.find_element(By.CSS_SELECTOR, ".tool-call-result")).text not in ("", "Running…") and r, 15)
    assert page_text in result.text and "<page_content" in result.text
    assert float(result.get_attribute("data-ms")) > 0
    schema = item.find_element(By.CSS_SELECTOR, ".tool-schema").get_attribute("textContent")
    assert '"page"' in schema
