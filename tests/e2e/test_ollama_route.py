"""The extension's custom provider pointed at Ollama's OpenAI route (…/v1), as people set it:
a scripted Ollama that answers as Ollama does (tests/unit/scripted_ollama.py) with a model that
takes no tools. The turn recognises Ollama, speaks to its own /api/chat with a num_ctx within
the window, is refused tools once, and goes on with text calls."""

from __future__ import annotations

import json
import sys

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.browser import ROOT

from .chat import ask_background, last_turn, send, stored_conversations, wait_for_status

sys.path.insert(0, str(ROOT / "tests" / "unit"))
from scripted_ollama import ScriptedOllama, ndjson  # noqa: E402

pytestmark = pytest.mark.timeout(300)

ANSWER = "Hello from Ollama."


def says(text: str) -> bytes:
    return ndjson({"model": "gemma:2b", "message": {"role": "assistant", "content": text}, "done": True,
                   "done_reason": "stop", "prompt_eval_count": 900, "eval_count": 20})


def test_the_custom_provider_at_ollamas_openai_route_gets_num_ctx_and_text_calls(browser):
    with ScriptedOllama({"gemma:2b": {"context_length": 131072, "tools": False}}) as ollama:
        ollama.chat.append(says(json.dumps({"name": "final_answer", "arguments": {"answer": ANSWER}})))
        browser.open_side_panel()
        ask_background(browser, "save-settings", apiKey="", settings={
            "provider": "custom", "base_url": ollama.base_url, "model": "gemma:2b", "agent": "tool_calling",
            "max_steps": 3})
        browser.driver.find_element(By.ID, "new-chat").click()
        send(browser, "Say hello.")
        wait_for_status(browser, "ok", "max_steps", "error", timeout=120)
        browser.screenshot("ollama-route-text-calls")
        turn = last_turn(browser.driver)
        paths = [path for _, path, _ in ollama.seen]
        refused, asked = ollama.chat_requests
    assert turn.get_attribute("data-status") == "ok", turn.text
    assert ANSWER in turn.find_element(By.CSS_SELECTOR, ".message.assistant").text
    assert "/api/version" in paths and "/v1/chat/completions" not in paths
    # Its own API, a num_ctx within the window (the model's 131,072 capped by the 8,192 setting).
    assert "tools" in refused and "tools" not in asked
    assert asked["options"]["num_ctx"] in (4096, 8192) and refused["options"]["num_ctx"] == asked["options"]["num_ctx"]
    events = max(stored_conversations(browser), key=lambda c: c.get("updatedAt") or 0)["turns"][-1]["events"]
    notices = [e["data"]["message"] for e in events if e["kind"] == "error" and e["data"]["kind"] == "text_calls"]
    assert len(notices) == 1 and "does not support tools" in notices[0]
