"""Tabs of the agents' own. With the "own_tab" setting the turn works in a tab the extension
opened for it in the background (its agent tab: extension/background/own-tab.js), never in the
tab the user is on; and each managed agent works in one more tab of its own, opened at its first
page-tool call, so that agents running in parallel never act in each other's tab, nor in the
user's. Consent is unchanged: every action there is asked, and the site rules apply.
"""

from __future__ import annotations

from .working_tab import about_the_window

OPEN = "open_own_tab"  # the service worker's, never a tool the model can call
INSTRUCTIONS = ("You work in a tab of your own, opened for this task in the background (at first on the "
                "page the user was on); the page tools act there. The user keeps browsing in their own "
                "tabs, which you must not use.")


class OwnTab:
    """A page bridge whose calls that name no tab go to a tab of this agent's own."""

    def __init__(self, bridge, task: str):
        self.bridge, self.task = bridge, task
        self.tab_id: int | None = None

    async def call(self, name, args, tab_id=None, expect_url=None) -> dict:
        if tab_id is None and not about_the_window(name, args):
            tab_id = await self._tab()
            if tab_id is None:
                return {"ok": False, "error": f"TabAgent could not open a tab for {self.task}."}
        return await self.bridge.call(name, args, tab_id, expect_url)

    async def _tab(self) -> int | None:
        if self.tab_id is None:
            reply = await self.bridge.call(OPEN, {"task": self.task})
            self.tab_id = (reply.get("result") or {}).get("tab_id") if reply.get("ok") else None
        return self.tab_id

    async def confirm(self, id, tool, message, details) -> str:
        return await self.bridge.confirm(id, tool, message, details)

    async def ask(self, id, question=""):
        return await self.bridge.ask(id, question)


def tools_for_members(page, page_set, before=(), after=()):
    """For a team member's spec, its tools: the same as its manager's, but its page tools
    (`page_set` of a bridge) over a tab of its own."""
    def tools_for(spec: dict) -> list:
        return [*before, *page_set(OwnTab(page, spec.get("name") or "agent")), *after]
    return tools_for
