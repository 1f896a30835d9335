"""Page actions: click, type_text, select_option, check, press_key, hover, scroll, navigate,
go_back, go_forward and open_tab, and click_at, drag and move_pointer by a screenshot's points,
each only after the user allows it. A click may be a right-click, a double-click or a press held
for a `duration`, a key may be held too: each asked as what it is (right_click, double_click), with
a picture of the spot. In Chrome they are given as real input (extension/platform/chrome/
real-input.js); in Firefox as events a script sends, and the result says so.

An action is first described by the code that will perform it (the content script's
describe_action; the service worker for navigate and open_tab), so the sentence the user
confirms is what then happens, and it is then performed on that same tab, refused if the
tab has left that page meanwhile. A click by position or a drag is asked with a picture of
the spot, marked, taken when it is described; the element at each point decides the site, so
a `never` site's frame under a point is refused like that site's page. Whether it runs is the
consent service's to say (consent.py), for the actor whose tools these are: the site rules, what
that actor was allowed, else the user in the side panel (allow once, allow for this turn, allow
on this site, or deny). A denied action is reported to the model as such and the turn goes on.
An action that would carry a one-time code read on another site is asked every time, once
(one_time_codes.py). When the consent service allows an action unasked on the site the tab last
showed (a site rule, an allowance, a call by hand), the question and the action are one call: the
content script acts at once only on that very site, and only describes anywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

from .downloads import said_started
from .one_time_codes import ask_for_the_code, carried_code, codes_read
from .page_bridge import as_json, failure
from .consent import ON_THE_PAGE
from .picture_points import LastScreenshot
from .untrusted_content import untrusted
from .site_rules import rule_for, site_of
from .wire import PAGE_ACTIONS
from ..our_notes import our_note

ACTING = PAGE_ACTIONS  # declared in wire.py: the panel offers Save as workflow after one

# The actions that go by a screenshot's points (or, a drag, by locators too): not replayed in
# workflows, whose runs take no screenshots.
BY_POSITION = ("click_at", "drag", "move_pointer")
# The arguments of a press named in its tool's description, not listed (tools.py `unlisted`).
HOW_PRESSED = ("button", "duration")
# The actions that may be done in the same call as their question, when nobody need be asked
# (content/actions.js AT_ONCE: the same list): shown in words, on one element or the page.
AT_ONCE = ("click", "type_text", "select_option", "check", "press_key", "hover", "scroll")
# What a click's `button` asks for, as the action the user is asked about.
OTHER_CLICKS = {"right": "right_click", "double": "double_click"}
NOT_A_BUTTON = 'click: button is "left", "right" or "double", not {button!r}.'
TOO_FEW_POINTS = 'move_pointer: give two points "x,y" of your last screenshot or more, in order.'
# The actions that leave the page for an address: one covered by an allowance (not asked now)
# goes there only, never on to another site (a redirect is stopped: the service worker's
# `stay_on`), so an allowance for one site is never carried to another.
GOING_TO = ("navigate", "open_tab")

DENIED = our_note("The user denied this {tool}: nothing was done. Do not try to get the same result "
                  "another way; go on without it, or ask the user.")


def leaving_site(described: dict) -> str | None:
    """Where an action that leaves the page is: the site it goes to (navigate, open_tab), or the
    site it leaves (back, forward), whose `never` refuses it and whose allowance covers it."""
    return site_of(described.get("url")) or site_of(described.get("page_url"))


def confirmation_details(described: dict) -> dict:
    """What the user sees under the question: the page, the element, the text to type or the
    value to set (a date, a slider), the URL."""
    details = {"page": described.get("page_url")}
    element = described.get("element") or {}
    if element:
        details.update(element=element.get("summary"), locator=element.get("locator"))
    for said in ("text", "value"):
        if described.get(said) is not None:
            details[said] = described[said]
    if described.get("url"):
        details["url"] = described["url"]
    if described.get("target"):
        details.update(target=described["target"].get("summary"), target_locator=described["target"].get("locator"))
    return details


def sites_of(described: dict, site: str | None) -> list[str]:
    """The sites an action on the page touches (the element at each point decides its own: a
    frame of another site is that site)."""
    return list(dict.fromkeys(described.get("sites") or ([site] if site else [])))


def code_carried(described: dict, sites: list[str]) -> tuple[tuple[str, str] | None, str]:
    """(code, where it was read) of a one-time code the action would carry to one of its sites
    other than where it was read (one_time_codes.py), and that site; (None, "") if none."""
    text = " ".join(str(described.get(k) or "") for k in ("text", "value", "url"))
    for site in sites or [None]:
        carried = carried_code(text, site)
        if carried:
            return carried, site or "another site"
    return None, ""


@dataclass
class Attempt:
    """How one action went: `text` is what the model reads of it."""
    text: str
    done: bool = False
    denied: bool = False


class PageActor:
    def __init__(self, bridge, consent, pictures: LastScreenshot | None = None):
        self.bridge, self.consent = bridge, consent
        self.pictures = pictures or LastScreenshot()  # the screenshot tool keeps the last one

    async def _act(self, tool: str, args: dict) -> str:
        return (await self.attempt(tool, args)).text

    async def attempt(self, tool: str, args: dict, refuse=None, at: tuple[str, dict] | None = None) -> Attempt:
        """Describes the action, asks (refused first when `refuse(described)` gives a reason:
        a replayed workflow's check that the element is the one it recorded), then acts.
        `at`: (argument, place) for a workflow's step, whose element the same describe_action
        call finds by its recorded place (content/places.js) and puts in that argument."""
        asked = {"name": tool, "args": args} if at is None else {"name": tool, "args": args, "at": at[1]}
        site, standing = self._unasked(tool, args) if refuse is None and at is None else (None, None)
        if standing:
            asked["act_on"] = "*" if standing.anywhere else site
        plan = await self.bridge.run_page_tool("describe_action", asked)
        if not plan.get("ok"):
            return Attempt(failure(plan, f"{tool} cannot be done on this page."))
        described = plan["result"]
        if described.pop("acted", False):
            return await self._done_at_once(tool, plan, standing)
        reason = refuse(described) if refuse else None
        if reason:
            return Attempt(reason)
        if at is not None:
            args = {**args, at[0]: described["element"]["locator"]}
        verdict = await self._allowed(tool, described, plan.get("tab_id"))
        if not verdict:
            return Attempt(described.get("refusal") or DENIED.format(tool=tool), denied=not described.get("refusal"))
        # The plan id makes the content script act on the very element the user saw, or not at all.
        bound = {**args, "plan_id": described["plan_id"]} if described.get("plan_id") else args
        if tool in GOING_TO and getattr(verdict, "by", "") == "allowance":
            bound = {**bound, "stay_on": leaving_site(described)}
        done = await self.bridge.run_page_tool(tool, bound, plan.get("tab_id"), described.get("page_url"))
        if not done.get("ok"):
            return Attempt(failure(done, f"{tool} failed, and the browser did not say why."))
        return Attempt(untrusted(done.get("url", ""), as_json(done["result"])) + said_started(tool, done), done=True)

    def _unasked(self, tool: str, args: dict):
        """(site, what allows `tool` there without asking anyone) when the page the tools work in
        showed `site` at the last reply and the consent service allows it there unasked: the content
        script then acts in the same call as the question, only if the page is on that very site
        (content/actions.js describe_action's act_on). (None, None) otherwise: described, then asked.
        Never for an action asked with a picture (AT_ONCE), or once the turn has read a one-time code
        (one carried elsewhere is asked every time, and only the description shows what it carries)."""
        unasked = getattr(self.consent, "unasked", None)
        if unasked is None or tool not in AT_ONCE or any(args.get(how) for how in HOW_PRESSED) or codes_read():
            return None, None
        last = getattr(self.bridge, "last_address", None)
        site = site_of(last() if last else None)
        return site, unasked(tool, site)

    async def _done_at_once(self, tool: str, plan: dict, standing) -> Attempt:
        """An action done in the same call as its question: its record (as if allowed after the
        question), then its result."""
        done = plan["result"]
        await self.consent.record_unasked(standing, tool, done["summary"], confirmation_details(done), site_of(done.get("page_url")))
        return Attempt(untrusted(plan.get("url", ""), as_json(done)) + said_started(tool, plan), done=True)

    async def _allowed(self, tool: str, described: dict, tab_id):
        """The consent service's answer (consent.py: the site rules, the actor's allowances, the
        user). An action on the page is on the site of each element it touches; one that leaves
        it, on the site it goes to: a site the user's settings `never` allow refuses it unasked."""
        on_page = tool in ON_THE_PAGE
        sites = sites_of(described, site_of(described.get("page_url"))) if on_page else [leaving_site(described)]
        rules = getattr(self.consent, "site_rules", [])
        never = any(rule_for(rules, site) == "never" for site in sites)
        if not never and described.get("out_of_reach"):
            described["refusal"] = described["out_of_reach"]  # a frame of another site: nothing to ask
            return False
        details = confirmation_details(described)
        if described.get("points") and not never:
            details["picture"], described["refusal"] = await self._picture_of(described, tab_id)
            if described["refusal"]:
                return False
        carried, target = code_carried(described, sites)
        if carried and not never:  # a one-time code read elsewhere: asked, once, whatever was allowed
            return await ask_for_the_code(self.consent, tool, described["summary"], details, carried, target)
        return await self.consent.allows(tool, described["summary"], details, sites=sites, on_page=on_page)

    async def _picture_of(self, described: dict, tab_id) -> tuple[str | None, str | None]:
        """A picture of the spot a click by position or a drag presses, each point marked, as
        the page shows it now: the user approves what they see. (data URL, None), or (None, why
        there is none: then nothing is done)."""
        reply = await self.bridge.run_page_tool("screenshot", {"around": described["points"]}, tab_id, described.get("page_url"))
        if not reply.get("ok"):
            return None, "Nothing was done: " + failure(reply, "the spot could not be pictured for the user to see.")
        return reply["result"]["image"], None

    async def click(self, locator: str, button: str = "left", duration: float = 0) -> str:
        """Clicks an element (link, button, checkbox...); button="right"/"double", duration=seconds held.

        Args:
            locator: a locator a tool's result gave, or a CSS selector.
        """
        return await self._click({"locator": locator}, button, duration)

    async def _click(self, at: dict, button: str, duration: float, refuse=None) -> str:
        """A click on an element or at a point (`at`), of any button, held or not."""
        if button not in ("left", *OTHER_CLICKS):
            return NOT_A_BUTTON.format(button=button)
        if button != "left":  # (held: a right or double click is not)
            return (await self.attempt(OTHER_CLICKS[button], {"at": at}, refuse=refuse)).text
        held = {"duration": duration} if duration else {}
        tool, args = ("click", at) if "locator" in at else ("click_at", at)
        return (await self.attempt(tool, {**args, **held}, refuse=refuse)).text

    async def type_text(self, locator: str, text: str, clear: bool = True,
                        submit: bool = False) -> str:
        """Types into a field, or sets a date, time, number, range or color input (its format).

        Args:
            locator: the field (locator or CSS selector).
            clear: replace what it holds (false: add to it).
            submit: then submit its form (or press Enter when none).
        """
        return await self._act("type_text", {"locator": locator, "text": text, "clear": clear,
                                             "submit": submit})

    async def select_option(self, locator: str, option: str | list[str]) -> str:
        """Chooses an option (label or value; a list for several) in a drop-down or list box."""
        return await self._act("select_option", {"locator": locator, "option": option})

    async def check(self, locator: str, checked: bool = True) -> str:
        """Checks or unchecks a check box, radio button or switch.

        Args:
            checked: false to uncheck.
        """
        return await self._act("check", {"locator": locator, "checked": checked})

    async def press_key(self, key: str, locator: str | None = None, duration: float = 0) -> str:
        """Presses a key ("Enter", "Tab", "ArrowDown", "Control+a"...); duration=seconds held.

        Args:
            locator: where; leave out for the focused element.
        """
        held = {"duration": duration} if duration else {}
        return await self._act("press_key", {"locator": locator, "key": key, **held})

    async def click_at(self, x: float, y: float, button: str = "left", duration: float = 0) -> str:
        """Clicks a point (its pixels) of your last screenshot: for what has no locator;
        button="right"/"double", duration=seconds held."""
        point = self.pictures.point(x, y)
        if isinstance(point, str):
            return point
        return await self._click(point, button, duration, refuse=lambda d: self.pictures.not_of(d.get("page_url")))

    async def move_pointer(self, points: list[str], press: bool = False) -> str:
        """Moves the pointer along points "x,y" of your last screenshot, in order (a path to
        follow, a map to pan, a line to draw).

        Args:
            press: hold the button down all the way (a drag along the path).
        """
        ends = [self.pictures.end(point) for point in points or []]
        refusal = next((end for end in ends if isinstance(end, str)), None)
        if refusal:
            return refusal
        if len(ends) < 2 or any("locator" in end for end in ends):
            return TOO_FEW_POINTS
        refuse = lambda d: self.pictures.not_of(d.get("page_url"))  # noqa: E731
        return (await self.attempt("move_pointer", {"points": ends, "press": press}, refuse=refuse)).text

    async def drag(self, source: str, target: str) -> str:
        """Drags one thing onto another (a list item, a card, a handle).

        Args:
            source: a locator, or a point "x,y" of your last screenshot.
            target: where to drop it, the same way.
        """
        ends = [self.pictures.end(source), self.pictures.end(target)]
        refusal = next((end for end in ends if isinstance(end, str)), None)
        if refusal:
            return refusal
        by_points = any("locator" not in end for end in ends)
        refuse = (lambda d: self.pictures.not_of(d.get("page_url"))) if by_points else None
        return (await self.attempt("drag", {"source": ends[0], "target": ends[1]}, refuse=refuse)).text

    async def hover(self, locator: str) -> str:
        """Hovers over an element (a menu that opens on hover)."""
        return await self._act("hover", {"locator": locator})

    async def go_back(self) -> str:
        """Goes back one page."""
        return await self._act("go_back", {})

    async def go_forward(self) -> str:
        """Goes forward one page."""
        return await self._act("go_forward", {})

    async def scroll(self, to: str | int) -> str:
        """Scrolls the page.

        Args:
            to: "top", "bottom", "up" or "down" (one screen), pixels from the top, or an
                element (locator or CSS selector) to bring into view.
        """
        if isinstance(to, str) and to.strip().isdigit():
            to = int(to)  # "1200" means pixels, not a CSS selector
        return await self._act("scroll", {"to": to})

    async def navigate(self, url: str) -> str:
        """Opens an address in the tab the tools work in.

        Args:
            url: an http(s) address, or one relative to the page.
        """
        return await self._act("navigate", {"url": url})

    async def open_tab(self, url: str) -> str:
        """Opens an address in a new tab; gives its id for switch_tab and read_tab.

        Args:
            url: an http(s) address, or one relative to the page.
        """
        return await self._act("open_tab", {"url": url})
