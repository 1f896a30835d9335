"""A model that writes its tool call in the text (issue 37), in the real side panel: the call
runs, the answer shows, and the call's text does not stay in the step as the reply."""

from __future__ import annotations

import pytest

from tests.helpers.model_server import Reply


# Hermes/Qwen's shape (llama.cpp tests/test-chat.cpp; tests/unit/reply_shapes/), after a sentence.
CALL = ('Here is what I found.<tool_call>\n{"name": "final_answer", "arguments": '
        '{"answer": "The code is 4417."}}\n</tool_call>')


def shown(panel, selector: str) -> list[str]:
    turn = panel.last_turn()
    return panel.driver.execute_script(
        "return [...arguments[0].querySelectorAll(arguments[1])].map((e) => e.textContent.trim())", turn, selector)


@pytest.mark.parametrize("agent", ["tool_calling", "code"])
def test_a_call_written_as_text_runs_and_its_text_goes(panel, model, agent):
    panel.configure(model.base_url, agent=agent)
    model.script(Reply(text=CALL, token_delay=0.01))
    panel.send("What is the code?")
    panel.wait_for_status("ok")
    assert shown(panel, ".message.assistant") == ["The code is 4417."]
    assert shown(panel, ".step .reply") == ["Here is what I found."]
    assert len(model.requests) == 1
