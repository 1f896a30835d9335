"""The agent kinds in Firefox: both are offered (the model's code runs in the sandbox that
extension/platform/firefox/code-sandbox.js describes), a CodeAgent in the settings runs the model's code,
and a team member that writes code runs it too (test_code_agent.py and test_sandbox.py go further)."""

from __future__ import annotations

from tests.helpers.model_server import Reply

from tests.helpers.panel_backends import FirefoxPanel


def test_the_agent_picker_offers_both_agents(firefox):
    kinds = FirefoxPanel(firefox).run("[...document.querySelectorAll('#pick-agent option')].map((option) => option.value)")
    assert sorted(kinds) == ["code", "tool_calling"]
    options = firefox.open_tab(firefox.url("extension/options/options.html"))
    firefox.wait_for(options, "document.querySelectorAll('#agent option').length > 0", 30)
    offered = firefox.evaluate(options, "[...document.querySelectorAll('#agent option')].map((option) => option.value)")
    assert sorted(offered) == ["code", "tool_calling"]


def test_a_code_agent_in_the_settings_runs_the_models_code(panel, model):
    panel.configure(model.base_url, agent="code")
    model.script(Reply(text="```python\nprint(2 + 2)\nfinal_answer('ran in a sandbox')\n```"))
    panel.send("Add two and two")
    assert panel.wait_for_status("ok", "error") == "ok"
    # A CodeAgent asks for code, not native tool calls, and its code ran.
    assert not model.requests[0]["body"].get("tools"), model.requests[0]["body"].keys()
    assert panel.code_outputs() == [["4\n", False]]
    assert panel.answer() == "ran in a sandbox"


def test_a_team_member_that_writes_code_runs_it(panel, model):
    team = [{"name": "coder", "description": "Writes Python.", "agent": "code"}]
    panel.configure(model.base_url, team=team)
    model.script(
        Reply(tool_calls=[{"name": "coder", "arguments": {"task": "Compute six times seven"}}]),
        Reply(text="```python\nfinal_answer(6 * 7)\n```"),
        Reply(text="It is 42."),
    )
    panel.send("Compute something")
    assert panel.wait_for_status("ok", "error") == "ok"
    told = [m for m in model.requests[2]["body"]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "42" in told, told
    assert panel.answer() == "It is 42."
