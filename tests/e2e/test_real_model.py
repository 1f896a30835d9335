"""TabAgent with a real model, in Chromium: Qwen2.5-Coder-0.5B-Instruct served by llama.cpp's
server with the chat template its GGUF file carries (`real_model`, tests/helpers/llama_server.py),
through the whole extension. What is checked holds with any model (tests/helpers/
real_model_turns.py), never what a 0.5B model can solve: the turn ends, the panel shows what
happened, a garbled call is told back, nothing acts on the page unasked.
"""

from __future__ import annotations

import json

import pytest

from tests.helpers.llama_server import ChatTemplate
from tests.helpers.panel_backends import chromium_panel
from tests.helpers.real_model_turns import (ENDED, check_each_denial_is_told, check_each_garbled_call_is_told,
                                            check_each_unread_reply_is_told, check_the_panel_shows_the_turn,
                                            check_the_turn_ended, last_turn_events, real_model_settings, watch_and_deny)

pytestmark = pytest.mark.timeout(3000)
LOG = "return document.getElementById('log').textContent"


def test_the_server_builds_each_prompt_with_the_models_own_template_and_tools(real_model):
    """llama-cpp-python renders the GGUF's template with the request's tools (the prompt it
    counts is the one the template makes), and hands back a <tool_call> as plain text."""
    tools = [{"type": "function", "function": {"name": "read_page", "description": "Reads the page the user is on.",
                                               "parameters": {"type": "object", "properties": {}}}}]
    messages = [{"role": "system", "content": "You help with web pages."}, {"role": "user", "content": "Read the page."}]
    body = {"model": real_model.model, "messages": messages, "tools": tools, "max_tokens": 40, "temperature": 0}
    import urllib.request
    request = urllib.request.Request(real_model.base_url + "/chat/completions", json.dumps(body).encode(),
                                     {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=2400) as response:
        reply = json.loads(response.read())
    template = ChatTemplate(real_model.file)
    prompt = template.render(messages, tools)
    assert "<tools>" in prompt and '"name": "read_page"' in prompt  # Qwen's template lists the tools
    assert reply["usage"]["prompt_tokens"] == template.tokens(prompt)
    assert reply["usage"]["prompt_tokens"] > template.tokens(template.render(messages)) + 50
    assert "tool_calls" not in reply["choices"][0]["message"] or not reply["choices"][0]["message"]["tool_calls"]


def user_on(browser, url: str):
    """The page in a tab, then the side panel beside it (the tab looked at last is the user's)."""
    page = browser.open_tab(url)
    browser.open_side_panel()
    return page, chromium_panel(browser)


def test_a_turn_reading_the_page_ends_and_the_panel_shows_it(browser, site, real_model):
    _, panel = user_on(browser, site.url("product.html"))
    panel.ask_background("save-settings", apiKey="", settings=real_model_settings(real_model, "tool_calling"))
    panel.new_conversation()
    panel.send("How long does delivery of this blanket take?")
    panel.wait_for_status(*ENDED, timeout=2400)
    browser.screenshot("real-model-read")
    events = last_turn_events(panel)
    check_the_turn_ended(panel, events)
    check_the_panel_shows_the_turn(panel, events)
    check_each_garbled_call_is_told(events)
    check_each_unread_reply_is_told(events)


def test_the_code_agent_acts_on_the_page_only_when_allowed(browser, site, real_model):
    page, panel = user_on(browser, site.url("actions.html"))
    panel.ask_background("save-settings", apiKey="", settings=real_model_settings(real_model, "code"))
    panel.new_conversation()
    panel.send("Press the Subscribe button on this page.")
    asked = watch_and_deny(panel, lambda: in_page(browser, page, LOG), "nothing yet")
    browser.screenshot("real-model-act")
    events = last_turn_events(panel)
    check_the_turn_ended(panel, events)
    check_the_panel_shows_the_turn(panel, events)
    check_each_denial_is_told(events, asked)
    assert in_page(browser, page, LOG) == "nothing yet"


def in_page(browser, page: str, script: str):
    """`script` run in the page's tab; then back to the panel."""
    driver, panel_tab = browser.driver, browser.driver.current_window_handle
    driver.switch_to.window(page)
    try:
        return driver.execute_script(script)
    finally:
        driver.switch_to.window(panel_tab)
