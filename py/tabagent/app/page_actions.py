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
a `never` site's frame under a point is refused like that site's page. The user answers in the side panel: allow once, allow
for this turn (that tool on that site, until the turn ends), or deny. A denied action is reported to
the model as such and the turn goes on.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit

from .page_bridge import as_json, failure
from .picture_points import LastScreenshot
from .untrusted_content import untrusted
from .site_rules import rule_for
from .wire import PAGE_ACTIONS

ACTING = PAGE_ACTIONS  # declared in wire.py: the panel offers Save as workflow after one

# What a site's rule in the settings answers for the user (site_rules.py), as the decision the
# turn's record shows.
BY_SETTINGS = {"allow": "allowed_by_settings", "never": "refused_by_settings"}

# The actions that stay on the page they act on: "allow on this site for the turn" covers them
# (navigating, going back and forth, or opening a tab leave it, and are asked each time).
ON_THE_PAGE = ("click", "type_text", "select_option", "check", "press_key", "hover", "scroll", "click_at", "drag",
               "right_click", "double_click", "move_pointer")
# The actions that go by a screenshot's points (or, a drag, by locators too): not replayed in
# workflows, whose runs take no screenshots.
BY_POSITION = ("click_at", "drag", "move_pointer")
# The arguments of a press named in its tool's description, not listed (tools.py `unlisted`).
HOW_PRESSED = ("button", "duration")
# What a click's `button` asks for, as the action the user is asked about.
OTHER_CLICKS = {"right": "right_click", "double": "double_click"}
NOT_A_BUTTON = 'click: button is "left", "right" or "double", not {button!r}.'
TOO_FEW_POINTS = 'move_pointer: give two points "x,y" of your last screenshot or more, in order.'

DENIED = ("The user denied this {tool}: nothing was done. Do not try to get the same result "
          "another way; go on without it, or ask the user.")


class AskTheUser:
    """Consent from the person at the side panel: a `confirmation` event, then their answer.
    Make one per turn: "allow for this turn" lasts as long as this object. It covers what
    `scope` names: an action on one site ("click@https://shop.example"), an address left for
    one site ("navigate@https://news.example"), reading one tab on one site
    ("read_tab:<id>@<origin>"). Tabs the user attached are the reader's to allow (PageReader).

    The order is the user's: a site their settings `never` allow is refused whatever was allowed
    in the turn; then what they allowed in the turn; then a site their settings `allow`; then
    the question."""

    def __init__(self, bridge, emit, site_rules=None):
        self.bridge, self.emit = bridge, emit  # emit: the agent's emit(kind, data)
        self.allowed_for_turn: set[str] = set()
        self.site_rules = list(site_rules or [])  # site_rules.SiteRule, as parse_site_rules read them

    def sharing_the_turn(self) -> AskTheUser:
        """One more asker for the same turn (a managed agent's, whose questions are its own
        events: its `emit` is set once it exists); what the user allowed for the turn holds for both."""
        other = AskTheUser(self.bridge, self.emit, self.site_rules)
        other.allowed_for_turn = self.allowed_for_turn
        return other

    async def allows(self, tool: str, message: str, details: dict, scope: str | None = None,
                     site: str | None = None) -> bool:
        """`site`: the origin an action on a page happens on, for "allow on this site for the
        turn" (offered only then) and for the site's rule in the settings."""
        scope = scope or (f"{tool}@{site}" if site else tool)
        question = {"id": uuid.uuid4().hex, "tool": tool, "message": message, "details": details}
        if site:
            question["site"] = site
        ruled = BY_SETTINGS.get(rule_for(self.site_rules, site)) if site else None
        if ruled == "refused_by_settings":
            return await self._ruled(question, ruled)
        if scope in self.allowed_for_turn or (site and f"site:{site}" in self.allowed_for_turn):
            return True
        if ruled:
            return await self._ruled(question, ruled)
        await self.emit("confirmation", question)
        decision = await self.bridge.confirm(question["id"], tool, message, details)
        # The answer becomes part of the turn's record: what the user allowed, or refused.
        await self.emit("confirmation", {**question, "decision": decision})
        if decision == "turn":
            self.allowed_for_turn.add(scope)
        if decision == "site" and site:
            self.allowed_for_turn.add(f"site:{site}")
        return decision in ("once", "turn", "site")

    async def _ruled(self, question: dict, ruled: str) -> bool:
        """The user's rule for the site answers; the turn's record still shows the action."""
        for event in (question, {**question, "decision": ruled}):
            await self.emit("confirmation", event)
        return ruled == "allowed_by_settings"


class CalledByHand:
    """A person called the tool themselves (a developer trying a tool from the panel, with
    no model involved): that call is their consent to exactly it."""

    async def allows(self, tool: str, message: str, details: dict, scope: str | None = None,
                     site: str | None = None) -> bool:
        return True


def site_of(url: str | None) -> str | None:
    """The origin of an http(s) page, as "https://example.org"; None for anything else."""
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else None


def leaving_scope(tool: str, described: dict) -> str:
    """What "allow for this turn" covers for an action that leaves the page: that tool, to the
    site it goes to (navigate, open_tab), or from the site it leaves (back, forward)."""
    return f"{tool}@{site_of(described.get('url')) or site_of(described.get('page_url')) or ''}"


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


def sites_of(described: dict, site: str | None) -> tuple[list[str], str | None]:
    """The sites an action on the page touches (the element at each point decides its own: a
    frame of another site is that site), and the one to ask about: one site, else none."""
    sites = list(dict.fromkeys(described.get("sites") or ([site] if site else [])))
    return sites, (sites[0] if len(sites) == 1 else None)


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
        plan = await self.bridge.call("describe_action", asked)
        if not plan.get("ok"):
            return Attempt(failure(plan, f"{tool} cannot be done on this page."))
        described = plan["result"]
        reason = refuse(described) if refuse else None
        if reason:
            return Attempt(reason)
        if at is not None:
            args = {**args, at[0]: described["element"]["locator"]}
        if not await self._allowed(tool, described, plan.get("tab_id")):
            return Attempt(described.get("refusal") or DENIED.format(tool=tool), denied=not described.get("refusal"))
        # The plan id makes the content script act on the very element the user saw, or not at all.
        bound = {**args, "plan_id": described["plan_id"]} if described.get("plan_id") else args
        done = await self.bridge.call(tool, bound, plan.get("tab_id"), described.get("page_url"))
        if not done.get("ok"):
            return Attempt(failure(done, f"{tool} failed, and the browser did not say why."))
        return Attempt(untrusted(done.get("url", ""), as_json(done["result"])), done=True)

    async def _allowed(self, tool: str, described: dict, tab_id) -> bool:
        """The site rules, then the user's answer. An action on the page is on the site of each
        element it touches: a site the user's settings `never` allow refuses it, without a question."""
        page_site = site_of(described.get("page_url")) if tool in ON_THE_PAGE else None
        sites, site = sites_of(described, page_site)
        rules = getattr(self.consent, "site_rules", [])
        never = next((s for s in sites if rule_for(rules, s) == "never"), None)
        if never is None and described.get("out_of_reach"):
            described["refusal"] = described["out_of_reach"]  # a frame of another site: nothing to ask
            return False
        details = confirmation_details(described)
        if described.get("points") and never is None:
            details["picture"], described["refusal"] = await self._picture_of(described, tab_id)
            if described["refusal"]:
                return False
        scope = f"{tool}@{'+'.join(sites)}" if tool in ON_THE_PAGE else leaving_scope(tool, described)
        return await self.consent.allows(tool, described["summary"], details,
                                         scope=None if (never or site) else scope, site=never or site)

    async def _picture_of(self, described: dict, tab_id) -> tuple[str | None, str | None]:
        """A picture of the spot a click by position or a drag presses, each point marked, as
        the page shows it now: the user approves what they see. (data URL, None), or (None, why
        there is none: then nothing is done)."""
        reply = await self.bridge.call("screenshot", {"around": described["points"]}, tab_id, described.get("page_url"))
        if not reply.get("ok"):
            return None, "Nothing was done: " + failure(reply, "the spot could not be pictured for the user to see.")
        return reply["result"]["image"], None

    async def click(self, locator: str, button: str = "left", duration: float = 0) -> str:
        """Clicks an element (link, button, checkbox...); button="right"/"double", duration=seconds held.

        Args:
            locator: a locator from a tool's result ("ta-12"), or a CSS selector.
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
