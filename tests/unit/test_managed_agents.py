"""Managed agents: agents as tools, events one level deeper per level, cancelling the tree."""

import asyncio

import pytest

from tabagent import AgentTool, CodeAgent, ToolCallingAgent
from tabagent.testing import ScriptedModel
from tests.helpers.sample_tools import add, waits_forever
from tests.helpers.scripted_turns import calls

pytestmark = pytest.mark.timeout(10)


def final(answer):
    return calls(("final_answer", {"answer": answer}))


def three_levels(listener, researcher_tools=(add,), researcher_replies=None):
    researcher = ToolCallingAgent(
        ScriptedModel(researcher_replies or [calls(("add", {"a": 2, "b": 3})), final("5")]),
        list(researcher_tools), name="researcher", description="Does arithmetic.")
    manager = ToolCallingAgent(
        ScriptedModel([calls(("researcher", {"task": "Add 2 and 3."})), final("The researcher says 5.")]),
        [researcher], name="manager", description="Delegates to the researcher.")
    boss = ToolCallingAgent(
        ScriptedModel([calls(("manager", {"task": "Find 2 + 3.", "context": "Be brief."})), final("5")]),
        [], managed_agents=[manager], name="boss", listeners=[listener], conversation_id="conv-top")
    return boss, manager, researcher


async def test_three_levels_deep_events_reach_the_top_with_depths_in_order(recorder):
    boss, manager, researcher = three_levels(recorder)
    assert await boss.run("What is 2 + 3?") == "5"
    seen = [(e.agent, e.depth, e.kind) for e in recorder.events if e.kind != "token"]
    assert seen == [
        ("boss", 0, "step_start"), ("boss", 0, "tool_call"),
        ("manager", 1, "step_start"), ("manager", 1, "tool_call"),
        ("researcher", 2, "step_start"), ("researcher", 2, "tool_call"), ("researcher", 2, "tool_result"),
        ("researcher", 2, "step_start"), ("researcher", 2, "tool_call"), ("researcher", 2, "tool_result"),
        ("researcher", 2, "final_answer"), ("researcher", 2, "done"),
        ("manager", 1, "tool_result"),
        ("manager", 1, "step_start"), ("manager", 1, "tool_call"), ("manager", 1, "tool_result"),
        ("manager", 1, "final_answer"), ("manager", 1, "done"),
        ("boss", 0, "tool_result"),
        ("boss", 0, "step_start"), ("boss", 0, "tool_call"), ("boss", 0, "tool_result"),
        ("boss", 0, "final_answer"), ("boss", 0, "done"),
    ]
    assert [e.seq for e in recorder.events] == list(range(1, len(recorder.events) + 1))
    assert {e.conversation_id for e in recorder.events} == {"conv-top"}
    manager_result = [e for e in recorder.events if e.kind == "tool_result" and e.agent == "boss"][0]
    assert manager_result.data["result"] == "The researcher says 5."
    # The manager's task reached the sub-agent wrapped with who it works for, and the context.
    task = manager.model.calls[0]["messages"][1]["content"]
    assert "You are 'manager', helping another agent" in task and "Find 2 + 3." in task
    assert "Be brief." in task


async def test_sub_agent_listeners_see_their_own_depth(recorder):
    own = []
    boss, manager, researcher = three_levels(recorder)
    researcher.listeners.append(own.append)
    await boss.run("go")
    assert {e.depth for e in own} == {0} and own[-1].kind == "done"


async def test_cancelling_the_top_agent_cancels_the_whole_tree(recorder):
    wait_forever, entered = waits_forever()
    boss, manager, researcher = three_levels(
        recorder, researcher_tools=[wait_forever], researcher_replies=[calls(("wait_forever", {}))])
    task = asyncio.create_task(boss.run("go"))
    await entered.wait()
    boss.cancel()
    assert await task is None
    dones = [(e.agent, e.depth, e.data["status"]) for e in recorder.events if e.kind == "done"]
    assert dones == [("researcher", 2, "cancelled"), ("manager", 1, "cancelled"), ("boss", 0, "cancelled")]
    assert (boss.status, manager.status, researcher.status) == ("cancelled",) * 3


async def test_code_agent_calls_a_managed_agent_from_code(recorder):
    helper = ToolCallingAgent(ScriptedModel([final("42")]), [], name="oracle",
                              description="Knows the answer.")
    boss = CodeAgent(ScriptedModel(["```python\nfinal_answer(oracle(task='The answer?'))\n```"]),
                     [helper], listeners=[recorder])
    assert await boss.run("Ask the oracle") == "42"
    assert "- oracle(task, context = None) -> str:" in boss.system_prompt()
    assert ("oracle", 1, "final_answer") in [(e.agent, e.depth, e.kind) for e in recorder.events]


async def test_sub_agent_out_of_steps_says_so_to_its_manager():
    helper = ToolCallingAgent(ScriptedModel([calls(("add", {"a": 1, "b": 1})), "About 2."]), [add],
                              name="helper", description="Helps.", max_steps=1)
    assert await AgentTool(helper)(task="count") == "(helper ran out of steps; this is its best answer so far.)\nAbout 2."


def test_an_agent_tool_needs_a_name_and_description():
    with pytest.raises(ValueError, match="needs a name and a description"):
        AgentTool(ToolCallingAgent(ScriptedModel([]), [], name="x"))
    tool_ = AgentTool(ToolCallingAgent(ScriptedModel([]), [], name="x", description="Does x."))
    assert tool_.parameters["required"] == ["task"] and set(tool_.parameters["properties"]) == {"task", "context"}
