"""Chrome's built-in model through a bridge: messages mapped, text streamed, errors told."""

from __future__ import annotations


import pytest

from tabagent import CodeAgent
from tabagent.app.builtin_model import BrowserModel, BrowserModelError, prompt_messages
from tests.helpers.fake_bridge import FakeBridge


def test_messages_become_history_and_a_last_prompt():
    initial, prompt = prompt_messages([
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Read the page"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "1", "type": "function", "function": {"name": "read_page", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "1", "content": "The page text"},
    ])
    assert initial[0] == {"role": "system", "content": "Be brief."}
    assert initial[2]["role"] == "assistant" and "read_page" in initial[2]["content"]
    assert len(initial) == 3
    assert prompt == "Tool result:\nThe page text"  # the newest turn is what is prompted
    _, prompt = prompt_messages([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}])
    assert prompt == "Continue."


async def test_streams_tokens_and_returns_the_text():
    bridge = FakeBridge(["Hello there friend"])
    tokens = []
    reply = await BrowserModel(bridge).generate([{"role": "user", "content": "Hi"}], on_token=tokens.append)
    assert reply.content.strip() == "Hello there friend"
    assert "".join(tokens) == reply.content
    assert bridge.calls[0] == ([], "Hi")


async def test_a_code_agent_runs_on_it():
    bridge = FakeBridge(["```python\nfinal_answer(6 * 7)\n```"])
    assert await CodeAgent(BrowserModel(bridge)).run("Multiply") == 42


async def test_failure_is_a_model_error_a_person_can_read():
    with pytest.raises(BrowserModelError, match="built-in model failed: model not downloaded"):
        await BrowserModel(FakeBridge([], fail="model not downloaded")).generate([{"role": "user", "content": "Hi"}])
