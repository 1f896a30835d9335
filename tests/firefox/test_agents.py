"""Firefox runs no model code: Firefox 153 ESR has no sandbox pages (extension/firefox/code-sandbox.js).
The CodeAgent is not offered, a CodeAgent asked for anyway is a ToolCallingAgent, and a team
member that would run code stops the turn with the reason, before any code exists."""

from __future__ import annotations

from tests.helpers.model_server import Reply

from .sidebar import LAST_TURN, configure, open_chat, send, wait_for_status


def test_the_agent_picker_offers_no_code_agent(firefox):
    context = open_chat(firefox)
    kinds = firefox.evaluate(context, "[...document.querySelectorAll('#pick-agent option')].map((option) => option.value)")
    assert kinds == ["tool_calling"]
    options = firefox.open_tab(firefox.url("extension/options/options.html"))
    firefox.wait_for(options, "document.querySelectorAll('#agent option').length > 0", 30)
    assert firefox.evaluate(options, "[...document.querySelectorAll('#agent option')].map((option) => option.value)") == ["tool_calling"]


def test_a_code_agent_in_the_settings_runs_as_a_tool_calling_agent(firefox, model):
    model.reset()
    context = open_chat(firefox)
    configure(firefox, context, model.base_url, agent="code")
    model.script(Reply(text="```python\nfinal_answer('ran in a sandbox')\n```"))
    send(firefox, context, "Add two and two")
    assert wait_for_status(firefox, context, "ok", "error") == "ok"
    # A ToolCallingAgent offers the model its tools natively, and runs none of its text as code.
    assert model.requests[0]["body"].get("tools"), model.requests[0]["body"].keys()
    answer = firefox.evaluate(context, f"{LAST_TURN}.querySelector('.message.assistant').textContent")
    assert "final_answer('ran in a sandbox')" in answer


def test_a_team_member_that_would_run_code_stops_the_turn_and_says_why(firefox, model):
    model.reset()
    context = open_chat(firefox)
    team = [{"name": "coder", "description": "Writes Python.", "agent": "code"}]
    configure(firefox, context, model.base_url, team=team)
    model.script(Reply(text="never asked"))
    send(firefox, context, "Compute something")
    assert wait_for_status(firefox, context, "ok", "error") == "error"
    shown = firefox.evaluate(context, f"{LAST_TURN}.textContent")
    assert "not available in Firefox" in shown, shown
    assert model.requests == []
