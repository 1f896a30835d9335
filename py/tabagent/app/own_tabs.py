"""Tabs of the agents' own. With the "own_tab" setting the turn works in a tab the extension
opened for it in the background (its agent tab: extension/background/own-tab.js), never in the
tab the user is on; and each managed agent works in one more tab of its own, opened at its first
page-tool call, so that agents running in parallel never act in each other's tab, nor in the
user's. Consent is unchanged: every action there is asked, and the site rules apply; and with or
without own tabs, each managed agent asks in its own name, so what the user allows one agent
is that agent's alone (consent.py), never another's nor its manager's.
"""

from __future__ import annotations

import asyncio

from .consent import Actor
from .working_tab import about_the_window
from ..our_notes import our_note

OPEN = "open_own_tab"  # the service worker's, never a tool the model can call
INSTRUCTIONS = our_note("You work in a tab of your own, opened for this task in the background (at first on the "
                        "page the user was on); the page tools act there. The user keeps browsing in their own "
                        "tabs, which you must not use.")


class OwnTab:
    """A page bridge whose calls that name no tab go to a tab of this agent's own. `emit` (the
    agent's, once it exists) tells the panel which tab that is (the `own_tab` event)."""

    def __init__(self, bridge, task: str):
        self.bridge, self.task = bridge, task
        self.tab_id: int | None = None
        self.emit = None
        self._opening = asyncio.Lock()  # two calls at once in one reply open one tab, not two

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None) -> dict:
        if tab_id is None and not about_the_window(name, args):
            tab_id = await self._tab()
            if tab_id is None:
                return {"ok": False, "error": f"TabAgent could not open a tab for {self.task}."}
        return await self.bridge.run_page_tool(name, args, tab_id, expect_url)

    async def _tab(self) -> int | None:
        async with self._opening:
            if self.tab_id is None:
                reply = await self.bridge.run_page_tool(OPEN, {"task": self.task})
                opened = (reply.get("result") or {}) if reply.get("ok") else {}
                self.tab_id = opened.get("tab_id")
                if self.tab_id is not None and self.emit is not None:
                    await self.emit("own_tab", {"tab_id": self.tab_id, "url": opened.get("url", "")})
        return self.tab_id

    async def confirm(self, id, tool, message, details) -> str:
        return await self.bridge.confirm(id, tool, message, details)

    async def ask(self, id, question=""):
        return await self.bridge.ask(id, question)


class MembersTabs:
    """For a team member's spec, its tools: the same as its manager's, but its page tools
    (`page_set` of a bridge and an asking) asking the user in its own name, over a tab of its
    own when `own_tab`, and its MCP tools (`served_to` an asking) asked in its name too;
    `speaks_as` gives both the member's emit once it exists, so the panel shows the tab it
    opened and its questions among that member's steps."""

    def __init__(self, page, page_set, consent, before=(), served_to=lambda asking: [], own_tab=True):
        self.page, self.page_set, self.consent, self.before = page, page_set, consent, before
        self.served_to, self.own_tab, self.made = served_to, own_tab, 0
        self.voices: dict[str, list] = {}  # member's name -> what speaks for it (its tab, its asking)

    def __call__(self, spec: dict) -> list:
        name = spec.get("name") or "agent"
        self.made += 1
        asking = self.consent.consent.asking(self.member(name))
        tab = OwnTab(self.page, name) if self.own_tab else self.page
        self.voices[name] = [asking, *([tab] if self.own_tab else [])]
        return [*self.before, *self.page_set(tab, asking), *self.served_to(asking)]

    def member(self, name: str) -> Actor:
        """A member as the consent service knows it: itself (two of one name are two), acting
        for the schedule when the turn is a scheduled run."""
        top = self.consent.actor
        return Actor("agent", name, key=str(self.made), within=top if top.kind == "schedule" else top.within)

    def speaks_as(self, agent) -> None:
        for voice in self.voices.get(agent.name, ()):
            voice.emit = agent.emit
