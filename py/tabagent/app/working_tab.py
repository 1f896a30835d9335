"""The tab the page tools work in during a turn: the tab the user is on, or a tab the agent
opened in this turn with open_tab, chosen with switch_tab.

A bridge in front of the page bridge (page_bridge.py): each call that names no tab goes to the
working tab. Only tabs this turn opened can be switched to (the user allowed opening each one);
any other tab of the window stays read_tab's, which asks the user first. Consent is not changed
by switching: every action in an opened tab is described there and asked like any other, and the
per-site rules apply to that tab's site. An opened tab is read and pictured without a question
only while it shows the site the user allowed it to open (page_tools.PageReader asks
`opened_for`): a tab sent on to another site, by a redirect or by its page, is asked about again.
"""

from __future__ import annotations

from .site_rules import site_of
from .untrusted_content import untrusted
from .wire import DOWNLOADS
from ..our_notes import our_note

# Tools about the user's window rather than a page in it: their "the tab the user is on" is the
# user's tab, wherever the agent works.
ABOUT_THE_WINDOW = ("list_tabs", "read_tab")

NOT_OPENED = our_note("TabAgent did not switch to tab {tab_id}: the agent works only in the tab the user is "
                      "on and in tabs it opened in this turn with open_tab. Read another tab with "
                      "read_tab(tab_id={tab_id}), which asks the user.")
CLOSED = our_note("Tab {tab_id} is no longer open, so the agent is back in the tab the user is on.")
# A tab that landed on another site than the one the user allowed: its title is that site's page
# content, read only with the user's leave.
LEFT = our_note("The tab was sent on from {url} to another site; reading it there (read_page, a screenshot) "
                "asks the user first.")


def on_the_site(url: str | None, allowed: str) -> bool:
    return site_of(url) == site_of(allowed)


def about_the_window(name: str, args: dict | None) -> bool:
    return name in ABOUT_THE_WINDOW or (name == "describe_action" and (args or {}).get("name") in ABOUT_THE_WINDOW)


class WorkingTab:
    """A bridge (call, confirm) that sends tab-less calls to the tab the agent works in."""

    def __init__(self, bridge):
        self.bridge = bridge
        self.tab_id: int | None = None  # None: the turn's own tab, the one the user is on
        self.opened: dict[int, str] = {}  # tab id -> the address the user allowed it to open
        self.late_downloads: list = []  # appeared after an earlier action's result: told next (downloads.py)
        self.may_have_downloaded = False  # an action that may start a download ran: asked again before the answer
        self.addresses: dict[int | None, str] = {}  # tab id (None: the turn's own tab) -> the address its last reply gave

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None) -> dict:
        if tab_id is None and self.tab_id is not None and not about_the_window(name, args):
            tab_id = self.tab_id
        reply = await self.bridge.run_page_tool(name, args, tab_id, expect_url)
        self.late_downloads += [one for one in reply.get("late_downloads") or [] if isinstance(one, dict)]
        result = (reply.get("result") or {}) if reply.get("ok") else {}
        acting = args.get("name") if name == "describe_action" and result.get("acted") else name  # done with its question
        self.may_have_downloaded |= acting in DOWNLOADS["started_by"] and bool(reply.get("ok"))
        if isinstance(reply.get("url"), str):
            self.addresses[tab_id] = reply["url"]
        asked_for = result.get("asked_for") or args.get("url") or ""
        if name == "open_tab" and isinstance(result.get("tab_id"), int):
            self.opened[result["tab_id"]] = asked_for
        if name == "navigate" and result and tab_id in self.opened:  # the user allowed that address there
            self.opened[tab_id] = asked_for
        if name in ("open_tab", "navigate") and result and not on_the_site(result.get("url"), asked_for):
            said = f"{result.get('note') or ''} {LEFT.format(url=asked_for)}".strip()
            reply = {**reply, "result": {**result, "title": None, "note": said}}
        return reply

    def last_address(self) -> str | None:
        """The address the tab the tools work in showed at the last call's reply (None before one)."""
        return self.addresses.get(self.tab_id)

    def opened_for(self) -> tuple[int, str] | None:
        """(the working tab, the address the user allowed it to open) when it is a tab this turn
        opened; None in the tab the user is on."""
        return (self.tab_id, self.opened[self.tab_id]) if self.tab_id in self.opened else None

    async def confirm(self, id, tool, message, details) -> str:
        return await self.bridge.confirm(id, tool, message, details)

    async def switch_tab(self, tab_id: int | None = None) -> str:
        """Works from now on in a tab this turn opened with open_tab: the page tools (read_page,
        click...) act there.

        Args:
            tab_id: its id, from open_tab's result; leave out to come back to the user's tab.
        """
        if tab_id is not None and int(tab_id) not in self.opened:
            return NOT_OPENED.format(tab_id=tab_id)
        chosen = None if tab_id is None else int(tab_id)
        reply = await self.bridge.run_page_tool("list_tabs", {}, chosen)  # the tab is still there, and which it is
        if not reply.get("ok"):
            self.tab_id = None
            return CLOSED.format(tab_id=tab_id) if chosen is not None else reply.get("error", "")
        self.tab_id = chosen
        where = "the tab the user is on" if chosen is None else f"tab {chosen}, which this turn opened"
        back = "" if chosen is None else " switch_tab() with no tab_id comes back to the tab the user is on."
        if chosen is not None and not on_the_site(reply.get("url"), self.opened[chosen]):
            back += " " + LEFT.format(url=self.opened[chosen])
            reply = {**reply, "title": None}
        # The title is the page's own text: it goes inside the marking.
        said = f"The page tools now work in {where}: {reply.get('title') or '(no title)'} ({reply.get('url')})."
        return untrusted(reply.get("url") or "", said) + back
