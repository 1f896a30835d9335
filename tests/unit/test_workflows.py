"""Save as workflow: a turn's page actions written as a workflow's data, replayed without the
model on a page renumbered, changed or booby-trapped, the agent taking over where a step no
longer fits. The page is tests/helpers/control_page.py, answering as the content scripts do."""

from __future__ import annotations

import ast

import pytest

from tabagent.app.turns import Turns
from tabagent.app.user_tool_page import with_page
from tabagent.app.user_tools import load_user_tools
from tabagent.app.workflow_reading import read_workflow
from tabagent.app.workflow_source import workflow_source
from tabagent.app.workflow_steps import Parameter, Place, steps_from_turn
from tabagent.testing import ScriptedModel
from tests.helpers.control_page import URL, ControlPage

TASK = "Search the shop for blue kettle and buy it"
SHOP = [("link", "Home", "navigation", ""), ("text field", "Search", "search", ""),
        ("button", "Search", "search", ""), ("button", "Buy now", "form", "Checkout")]
RECORDED = [{"name": "type_text", "arguments": {"locator": "ta-2", "text": "blue kettle"}},
            {"name": "click", "arguments": {"locator": "ta-3"}},
            {"name": "click", "arguments": {"locator": "ta-4"}}]
DONE_ON_SHOP = [("type_text", ("text field", "Search", "search"), {"text": "blue kettle", "clear": True, "submit": False}),
                ("click", ("button", "Search", "search"), {}),
                ("click", ("button", "Buy now", "form"), {})]


def request(task, kind="tool_calling", **more):
    return {"conversation_id": "c1", "task": task, "memory": None,
            "settings": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "agent": kind}, **more}


async def recorded_turn():
    """The turn as the agent did it: three actions the user allowed, then its answer."""
    page, events = ControlPage(SHOP), []
    listing = {"tool_calls": [{"name": "list_controls", "arguments": {}}]}  # where the locators come from
    model = ScriptedModel([listing] + [{"tool_calls": [call]} for call in RECORDED] + ["Bought the blue kettle."])
    await Turns().run(request(TASK), events.append, model=model, page=page)
    assert page.done == DONE_ON_SHOP
    return events


async def saved_tool(tmp_path):
    steps, defaults = steps_from_turn(await recorded_turn(), TASK)
    (tmp_path / "buy_kettle.py").write_text(workflow_source(TASK, steps, defaults))
    tools, problems = load_user_tools(tmp_path)
    assert problems == [] and [t.name for t in tools] == ["buy_kettle"]
    return tools


async def replay(tools, page, model, kind="tool_calling", **workflow):
    events = []
    asked = {"name": "buy_kettle", **workflow}
    result = await Turns().run(request("/buy_kettle", kind, workflow=asked), events.append, model=model,
                               page=page, tools=with_page(tools, page))
    return result, events


async def test_the_saved_steps_are_places_and_parameters_not_the_turns_numbers(tmp_path):
    steps, defaults = steps_from_turn(await recorded_turn(), TASK)
    assert defaults == {"search": "blue kettle"}
    assert [s.action for s in steps] == ["type_text", "click", "click"]
    assert steps[0].args == {"clear": True, "submit": False, "text": Parameter("search")} and steps[0].at == Place("text field", "Search", "search")
    assert steps[2].at == Place("button", "Buy now", "form", "Checkout", nth=1, of=1, count=1)
    assert "ta-" not in workflow_source(TASK, steps, defaults)


async def test_a_replay_on_a_renumbered_page_asks_no_model(tmp_path):
    tools = await saved_tool(tmp_path)
    page = ControlPage([("link", "Sale", "navigation", ""), *SHOP], first_locator=40)
    model = ScriptedModel([])
    result, events = await replay(tools, page, model)
    assert model.calls == [] and result["status"] == "ok"
    assert page.done == DONE_ON_SHOP and page.asked == ["type_text", "click", "click"]
    assert events[-2]["kind"] == "final_answer" and "did its 3 steps" in events[-2]["data"]["answer"]
    assert [e["data"]["name"] for e in events if e["kind"] == "tool_call"] == ["type_text", "click", "click"]


async def test_a_replay_step_finds_and_describes_its_element_in_one_call_to_the_page(tmp_path):
    tools = await saved_tool(tmp_path)
    page = ControlPage(SHOP, first_locator=40)
    result, _ = await replay(tools, page, ScriptedModel([]))
    # As many round trips as the agent's own actions: describe (finding by place), then act.
    assert result["status"] == "ok" and page.done == DONE_ON_SHOP
    assert page.calls == ["describe_action", "type_text", "describe_action", "click", "describe_action", "click"]


async def test_a_replay_takes_new_values_and_the_sites_the_user_allowed(tmp_path):
    tools = await saved_tool(tmp_path)
    page = ControlPage(SHOP, first_locator=9)
    result, _ = await replay(tools, page, ScriptedModel([]), arguments={"search": "red kettle"}, allowed_sites=[URL])
    assert page.done[0][2]["text"] == "red kettle" and len(page.done) == 3
    assert page.asked == []  # allowed when it was run


async def test_a_denied_step_stops_the_replay_and_nothing_takes_over(tmp_path):
    tools = await saved_tool(tmp_path)
    page = ControlPage(SHOP, decisions=["once", "deny"])
    model = ScriptedModel([])
    result, events = await replay(tools, page, model)
    assert model.calls == [] and len(page.done) == 1 and result["status"] == "error"
    assert "the user denied it" in events[-2]["data"]["answer"]


@pytest.mark.parametrize("kind", ["tool_calling", "code"])
async def test_a_step_the_page_no_longer_has_is_taken_over_by_the_agent(tmp_path, kind):
    tools = await saved_tool(tmp_path)
    page = ControlPage(SHOP[:3] + [("button", "Pay", "form", "Checkout")])
    answer = "Paid." if kind == "tool_calling" else "```python\nfinal_answer('Paid.')\n```"
    model = ScriptedModel([answer])
    result, events = await replay(tools, page, model, kind)
    assert len(page.done) == 2 and result["status"] == "ok" and len(model.calls) == 1
    [notice] = [e for e in events if e["kind"] == "error"]
    assert notice["data"]["kind"] == "workflow" and "could not do step 3 of 3" in notice["data"]["message"]
    assert "agent takes over" in notice["data"]["message"]
    told = model.calls[0]["messages"][-1]["content"]
    assert TASK in told and "stopped at step 3 of 3" in told and "blue kettle" in told


@pytest.mark.parametrize("trap", [
    # a second "Buy now", in the main content: which one is meant can no longer be told
    SHOP + [("button", "Buy now", "main", "")],
    # a decoy "Buy now" first in the same checkout form, the real one second
    SHOP[:3] + [("button", "Buy now", "form", "Checkout"), ("button", "Buy now", "form", "Checkout")],
    # the checkout form's button renamed, and a "Buy now" put in another form (a donation)
    SHOP[:3] + [("button", "Donate", "form", "Checkout"), ("button", "Buy now", "form", "Donate")],
    # the same-named button moved out of the form into the navigation
    SHOP[:3] + [("button", "Buy now", "navigation", "")],
])
async def test_a_page_that_moves_or_copies_a_recorded_button_is_never_clicked_by_the_replay(tmp_path, trap):
    tools = await saved_tool(tmp_path)
    page = ControlPage(trap, first_locator=3)
    model = ScriptedModel(["I stopped: the page changed."])
    await replay(tools, page, model)
    assert [d[1][1] for d in page.done] == ["Search", "Search"]  # nothing named "Buy now" was touched
    assert len(model.calls) == 1  # handed over, not silent


def test_page_text_in_a_recorded_name_stays_a_string_in_the_code():
    hostile = 'Go"""\n\'); import os; os.system("x"); (\'\\'
    steps, defaults = steps_from_turn(_events_for(hostile), f"type {hostile} here")
    source = workflow_source(f'task """ {hostile}', steps, defaults, [URL])
    tree = ast.parse(source)
    imports = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert imports == ["from tabagent.app.workflows import Parameter, Place, Step, Workflow"]
    read = read_workflow(source)  # the whole file is data the reader takes
    assert read.workflow.steps[0].at.name == hostile and read.sites == [URL]
    typed = read.workflow.steps[0].args["text"]
    assert isinstance(typed, Parameter) and typed.name.isidentifier() and defaults == read.defaults == {typed.name: hostile}


def _events_for(name):
    from tabagent.app.untrusted_content import untrusted
    import json
    place = {"role": "text field", "name": name, "landmark": "", "landmark_name": "", "nth": 1, "of": 1, "count": 1}
    done = {"action": "type_text", "element": {"role": "text field", "name": name, "place": place}}
    return [{"kind": "tool_call", "seq": 1, "data": {"id": "1", "name": "type_text", "arguments": {"locator": "ta-1", "text": name}}},
            {"kind": "tool_result", "seq": 2, "data": {"id": "1", "name": "type_text", "result": untrusted(URL, json.dumps(done)),
                                                        "is_error": False}}]


def test_a_turn_that_did_nothing_on_a_page_is_not_a_workflow():
    with pytest.raises(ValueError, match="nothing on a page"):
        steps_from_turn([{"kind": "tool_call", "seq": 1, "data": {"id": "1", "name": "read_page", "arguments": {}}}], TASK)


def test_a_turn_that_clicked_by_position_is_refused_in_words_not_saved_without_that_step():
    from tabagent.app.untrusted_content import untrusted
    import json
    done = {"action": "click_at", "summary": "Click the div at (120, 80).", "page_url": URL}
    typed = [{**event, "seq": event["seq"] + 2} for event in _events_for("Ada")]
    events = [{"kind": "tool_call", "seq": 1, "data": {"id": "0", "name": "click_at", "arguments": {"x": 120, "y": 80}}},
              {"kind": "tool_result", "seq": 2, "data": {"id": "0", "name": "click_at", "is_error": False,
                                                         "result": untrusted(URL, json.dumps(done))}}, *typed]
    assert len(steps_from_turn(typed, TASK)[0]) == 1  # the typing alone is a workflow
    with pytest.raises(ValueError, match="used click_at at a screenshot's points, which a workflow cannot replay"):
        steps_from_turn(events, TASK)


async def test_the_panels_entry_point_writes_the_tool_and_a_turn_loads_it_from_storage(tmp_path):
    import json

    from tabagent.app.json_entry_points import workflow_from_turn_json
    from tabagent.app.workflow_files import saved_workflow_tools

    made = json.loads(workflow_from_turn_json(json.dumps(await recorded_turn()), TASK, ""))
    assert made["ok"] and made["name"] == "search_the_shop_for_blue" and made["sites"] == ["http://127.0.0.1:8000"]
    assert made["parameters"] == {"search": "blue kettle"}
    tools, problems = saved_workflow_tools([{"name": made["name"], "source": made["source"]},
                                            {"name": "../broken", "source": "def ("}])
    assert [t.name for t in tools] == ["search_the_shop_for_blue"]
    assert [(p["file"], p["line"]) for p in problems] == [("the workflow broken", 1)]  # told, with its line
    assert list(tmp_path.iterdir()) == []  # nothing written anywhere to be imported
    nothing = json.loads(workflow_from_turn_json("[]", TASK, "x"))
    assert nothing == {"ok": False, "error": "This turn did nothing on a page: there is no workflow to save."}


async def test_a_code_agents_turn_is_saved_as_the_same_steps():
    page, events = ControlPage(SHOP), []
    code = ("```python\ntype_text('ta-2', 'blue kettle')\nclick(locator='ta-3')\nclick('ta-4')\n```")
    model = ScriptedModel(["```python\nprint(list_controls())\n```", code, "```python\nfinal_answer('Bought.')\n```"])
    await Turns().run(request(TASK, "code"), events.append, model=model, page=page)
    assert page.done == DONE_ON_SHOP
    code_steps = steps_from_turn(events, TASK)
    assert code_steps == steps_from_turn(await recorded_turn(), TASK)
