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

    async def call(self, name, args, tab_id=None, expect_url=None):
        if name == "open_own_tab":
            self.opened.append(args["task"])
            return {"ok": True, "result": {"tab_id": 100 + len(self.opened)}}
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
