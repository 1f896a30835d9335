"""The new presses on the Python side (issue 51, item 2): a right or double click is asked as what
it is (right_click, double_click, its own "allow for this turn"), at a locator or at a point of
the screenshot, with the spot pictured; a held click and a held key carry their duration; a bad
button is refused in words before anything is asked; move_pointer goes only by the screenshot's
points, two at least, and only a seeing model is offered it; a workflow refuses to replay a right,
double or held click as a plain one."""

import pytest

from tabagent.app.consent import Actor, Consent
from tabagent.app.page_tools import page_tools
from tests.helpers.pictures import SPOT, screenshot_reply
from tabagent.app.untrusted_content import untrusted
from tabagent.app.workflow_steps import steps_from_turn
from tabagent.tool_set import NEEDS_SIGHT

PAGE = "https://shop.example/files"


class Page:
    """The service worker: describes each action (with a spot when it has points), pictures it, does it."""

    def __init__(self, decisions=("once",) * 4):
        self.decisions, self.calls, self.asked = list(decisions), [], []

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
        self.calls.append((name, args))
        if name == "screenshot":
            return screenshot_reply(PAGE)
        if name == "describe_action":
            described = {"action": args["name"], "summary": f"Do {args['name']}.", "page_url": PAGE, "plan_id": "p1",
                         "points": [{"x": 10, "y": 10}], "sites": ["https://shop.example"],
                         "element": {"summary": "div “report.pdf”", "locator": "ta-1"}}
            return {"ok": True, "tab_id": 7, "url": PAGE, "result": described}
        return {"ok": True, "url": PAGE, "result": {"action": name}}

    async def confirm(self, ask_id, tool, message, details):
        self.asked.append((tool, details))
        return self.decisions.pop(0)


async def ignore(kind, data):
    pass


def tools_of(page):
    consent = Consent(page, emit=ignore).asking(Actor("model", "TabAgent"))
    return {t.name: t for t in page_tools(page, consent)}, consent


@pytest.mark.parametrize("button, action", [("right", "right_click"), ("double", "double_click")])
async def test_a_right_or_double_click_is_asked_as_what_it_is_with_the_spot_pictured(button, action):
    page = Page(decisions=("turn", "once"))
    tools, consent = tools_of(page)
    await tools["click"](locator="ta-1", button=button)
    assert page.asked[0][0] == action and page.asked[0][1]["picture"] == SPOT
    assert page.calls[-1] == (action, {"at": {"locator": "ta-1"}, "plan_id": "p1"})
    # "Allow for this turn" covers that kind of click only, never a plain one.
    assert [set(a.kinds) for a in consent.consent.allowances] == [{action}]
    await tools["click"](locator="ta-1")
    assert [tool for tool, _ in page.asked] == [action, "click"]


async def test_a_held_click_and_a_held_key_carry_their_duration_and_a_bad_button_asks_nothing():
    page = Page()
    tools, _ = tools_of(page)
    await tools["click"](locator="ta-1", duration=1.5)
    assert page.calls[-1] == ("click", {"locator": "ta-1", "duration": 1.5, "plan_id": "p1"})
    await tools["press_key"](key="Space", duration=2)
    assert page.calls[-1] == ("press_key", {"locator": None, "key": "Space", "duration": 2, "plan_id": "p1"})
    await tools["press_key"](key="Enter")
    assert "duration" not in page.calls[-1][1]
    asked = len(page.asked)
    assert await tools["click"](locator="ta-1", button="middle") == 'click: button is "left", "right" or "double", not \'middle\'.'
    assert len(page.asked) == asked


async def test_a_right_click_at_a_point_of_the_screenshot_is_found_on_the_page():
    page = Page()
    tools, _ = tools_of(page)
    await tools["screenshot"]()
    await tools["click_at"](x=200, y=150, button="right")
    assert page.calls[-1] == ("right_click", {"at": {"x": 400.0, "y": 300.0, "scroll_x": 0, "scroll_y": 0}, "plan_id": "p1"})


async def test_move_pointer_goes_by_two_points_of_the_screenshot_or_more_and_is_for_seeing_models():
    assert "move_pointer" in NEEDS_SIGHT
    page = Page()
    tools, _ = tools_of(page)
    assert (await tools["move_pointer"](points=["1,1", "2,2"])).startswith("No screenshot of this page")
    await tools["screenshot"]()
    assert (await tools["move_pointer"](points=["10,10"])).startswith("move_pointer: give two points")
    assert (await tools["move_pointer"](points=["10,10", "ta-3"])).startswith("move_pointer: give two points")
    await tools["move_pointer"](points=["10,10", "100,50", "200,100"], press=True)
    name, args = page.calls[-1]
    assert name == "move_pointer" and args["press"] is True and [p["x"] for p in args["points"]] == [20.0, 200.0, 400.0]
    assert page.asked[-1][1]["picture"] == SPOT


def test_a_workflow_refuses_to_replay_a_right_double_or_held_click_as_a_plain_one():
    def turn(arguments):
        return [{"kind": "tool_call", "seq": 1, "data": {"id": "c1", "name": "click", "arguments": arguments}},
                {"kind": "tool_result", "seq": 2, "data": {"id": "c1", "result": untrusted(PAGE, '{"action": "click", "summary": "x"}')}}]

    for arguments in ({"locator": "ta-1", "button": "right"}, {"locator": "ta-1", "duration": 2}):
        with pytest.raises(ValueError, match="which a workflow does not replay yet"):
            steps_from_turn(turn(arguments), "task")
    steps, _ = steps_from_turn(turn({"locator": "ta-1"}), "task")
    assert steps[0].action == "click" and "button" not in steps[0].args
