"""Tabs of the agents' own (tabagent/app/own_tabs.py): with the own_tab setting, each managed
agent opens a tab of its own at its first page-tool call and works only there, so two called in
parallel never read or act in the same tab, nor in the turn's; without it they share the turn's."""

from __future__ import annotations

import asyncio

import pytest

from tabagent.app.turns import Turns
from tabagent.testing import ScriptedModel

pytestmark = pytest.mark.timeout(60)


class Page:
    """A page bridge that opens numbered tabs and records which tab each call went to."""

    def __init__(self):
        self.calls: list[tuple[str, int | None]] = []
        self.opened: list[str] = []

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
        if name == "open_own_tab":
            self.opened.append(args["task"])
            tab_id = 100 + len(self.opened)
            await asyncio.sleep(0.01)  # the service worker takes a moment to open it
            return {"ok": True, "result": {"tab_id": tab_id}}
        self.calls.append((name, tab_id))
        await asyncio.sleep(0.05)  # the two agents' calls overlap
        return {"ok": True, "result": {"title": "T", "url": "https://shop.example/", "markdown": "# T"},
                "url": "https://shop.example/"}

    async def confirm(self, *args):
        return "deny"

    async def ask(self, id_, question=""):
        return ""


def member(name):
    return {"name": name, "description": f"Does {name}'s part.", "agent": "tool_calling", "max_steps": 3}


def request(own_tab):
    return {"conversation_id": f"own-{own_tab}", "task": "Compare two shops", "memory": None,
            "settings": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "agent": "tool_calling",
                         "own_tab": own_tab, "team": [member("north"), member("south")]}}


def script():
    """The manager calls both agents in one reply (they run at once); each reads its page."""
    both = {"content": "", "tool_calls": [{"name": "north", "arguments": {"task": "Read the north shop"}},
                                          {"name": "south", "arguments": {"task": "Read the south shop"}}]}
    read = {"content": "", "tool_calls": [{"name": "read_page", "arguments": {}}]}
    return ScriptedModel([both, read, read, "North done.", "South done.", "Both read."])


async def test_managed_agents_in_parallel_each_work_in_a_tab_of_their_own():
    page, events = Page(), []
    result = await Turns().run(request(True), events.append, model=script(), page=page)
    assert result["status"] == "ok"
    assert sorted(page.opened) == ["north", "south"]
    assert sorted(page.calls) == [("read_page", 101), ("read_page", 102)]  # one tab each, never the turn's (None)
    starts = {e["agent"] for e in events if e["kind"] == "step_start" and e["depth"] == 1}
    assert starts == {"north", "south"}


async def test_without_the_setting_managed_agents_share_the_turns_tab():
    page = Page()
    await Turns().run(request(False), lambda e: None, model=script(), page=page)
    assert page.opened == [] and {tab for _, tab in page.calls} == {None}


async def test_each_managed_agent_says_which_tab_it_opened_among_its_own_events():
    page, events = Page(), []
    await Turns().run(request(True), events.append, model=script(), page=page)
    told = {e["agent"]: (e["depth"], e["data"]["tab_id"]) for e in events if e["kind"] == "own_tab"}
    opened = {task: 101 + n for n, task in enumerate(page.opened)}
    assert told == {name: (1, opened[name]) for name in ("north", "south")}


async def test_two_page_calls_at_once_of_one_agent_open_one_tab():
    page = Page()
    twice = {"content": "", "tool_calls": [{"name": "read_page", "arguments": {}}] * 2}
    only_north = {"content": "", "tool_calls": [{"name": "north", "arguments": {"task": "Read twice"}}]}
    model = ScriptedModel([only_north, twice, "North done.", "Done."])
    await Turns().run(request(True), lambda e: None, model=model, page=page)
    assert page.opened == ["north"] and page.calls == [("read_page", 101)] * 2


async def test_a_managed_agents_questions_to_the_user_are_its_own_events():
    page, events = Page(), []
    asks = {"content": "", "tool_calls": [{"name": "ask_user", "arguments": {"question": "Which size?"}}]}
    only_north = {"content": "", "tool_calls": [{"name": "north", "arguments": {"task": "Ask"}}]}
    model = ScriptedModel([only_north, asks, "North done.", "Done."])
    await Turns().run(request(True), events.append, model=model, page=page)
    asked = [(e["agent"], e["depth"]) for e in events if e["kind"] == "hand_back"]
    assert asked == [("north", 1), ("north", 1)]  # the question and its answer, among north's steps
