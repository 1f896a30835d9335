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
from tests.helpers.panel_backends import ChromiumPanel


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
        panel = ChromiumPanel(browser)
        panel.configure(ollama.base_url, agent="tool_calling", api_key="", model="gemma:2b", max_steps=3)
        panel.new_conversation()
        panel.send("Say hello.")
        panel.wait_for_status("ok", "max_steps", "error", timeout=120)
        panel.screenshot("ollama-route-text-calls")
        turn = panel.last_turn()
        paths = [path for _, path, _ in ollama.seen]
        refused, asked = ollama.chat_requests
    assert turn.get_attribute("data-status") == "ok", turn.text
    assert ANSWER in turn.find_element(By.CSS_SELECTOR, ".message.assistant").text
    assert "/api/version" in paths and "/v1/chat/completions" not in paths
    # Its own API, a num_ctx within the window (the model's 131,072 capped by the 8,192 setting).
    assert "tools" in refused and "tools" not in asked
    assert asked["options"]["num_ctx"] in (4096, 8192) and refused["options"]["num_ctx"] == asked["options"]["num_ctx"]
    events = max(panel.stored_conversations(), key=lambda c: c.get("updatedAt") or 0)["turns"][-1]["events"]
    notices = [e["data"]["message"] for e in events if e["kind"] == "error" and e["data"]["kind"] == "text_calls"]
    assert len(notices) == 1 and "does not support tools" in notices[0]
