"""Consent: one service says whether an action may run, for every actor that acts.

An allowance is a value: **who** it was given to (an `Actor`: this turn's model, one managed
agent, a workflow's replay, one schedule, one MCP client connection, one server's request, one
MCP App on screen),
**what** (the action kinds), **where** (the sites, compared as site_rules.py reads them), and
**until when** (this call, this turn, this replay, this run, this connection, this view). Every page action,
tab read, MCP call, sampling and elicitation asks `Consent` through the acting actor's
`AskTheUser`; the answer comes from, in this order:

1. the user's site rules: a site they `never` allow refuses an action, without a question;
2. that actor's own allowances, never another actor's;
3. a site they `allow`, for an action that stays on its page;
4. the user, in the panel, asked in the actor's name ("the workflow find_kettle asks").

Every answer is written in the record as a `confirmation` (asked, then decided), with who
allowed it. Where control passes from one actor to another (a replay hands over to the agent,
a client connection ends), `end(actor)` ends the first one's allowances: nothing passes with it.
docs/security.md has the table of the actors and what each may be given.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from .site_rules import origin_parts, read_rule, rule_for
from ..unseen import bounded

# Each kind of actor: how a question names it, and how long what the user allows it lasts.
ACTORS = {
    "model": ("TabAgent", "turn"),                   # this turn's model, the agent the user talks to
    "agent": ("the agent {name}", "turn"),           # one managed agent (and the tab it works in)
    "workflow": ("the workflow {name}", "replay"),   # one replay of a saved workflow
    "schedule": ("the schedule {name}", "run"),      # one scheduled run, and everything it runs
    "mcp_client": ("the MCP client {name}", "connection"),  # one connection of a program to TabAgent
    "server": ("the MCP server {name}", "call"),     # one request of a server (a form, a sampling)
    "app": ("the app of the MCP server {name}", "view"),  # one MCP App, while it is on screen
}
# What an allowance was given by, as the record says it (the panel words each one): the user's
# answer "turn" or "site", or before the actor started, "workflow_sites" or "schedule_sites".
BY_ANSWER = {"turn": "your_turn", "site": "your_site"}
# Rule decisions, as the turn's record shows them.
BY_SETTINGS = {"allow": "allowed_by_settings", "never": "refused_by_settings"}
BY_ALLOWANCE = "allowed_by_allowance"
# The actions that stay on the page they act on: "allow on this site" covers them (navigating,
# going back and forth, or opening a tab leave it, and are asked each time).
ON_THE_PAGE = ("click", "type_text", "select_option", "check", "press_key", "hover", "scroll", "click_at", "drag",
               "right_click", "double_click", "move_pointer")
# The actions that leave a page: the sites ticked for a workflow cover them to and from there.
LEAVING = ("navigate", "open_tab", "go_back", "go_forward")


@dataclass(frozen=True)
class Actor:
    """Who acts. Two actors are the same only if every field is: a second client connection
    or a second agent of one name is someone else. `within`: the schedule a run's agents and
    replays act for (what the user gave the schedule covers them, nothing else does)."""
    kind: str
    name: str
    key: str = ""
    within: Actor | None = None

    def __post_init__(self):
        if self.kind not in ACTORS:
            raise ValueError(f"no such actor: {self.kind!r}")

    @property
    def says(self) -> str:
        """The actor in the question's words: "the workflow find_kettle"."""
        said = ACTORS[self.kind][0].format(name=bounded(self.name, 80))
        return f"{said}, for {self.within.says}" if self.within else said

    @property
    def lasts(self) -> str:
        return ACTORS[self.kind][1]

    def shown(self) -> dict:
        """As a `confirmation` event carries it: the panel names the actor from this."""
        return {"kind": self.kind, "name": bounded(self.name, 80), "says": self.says,
                **({"within": self.within.shown()} if self.within else {})}


@dataclass(frozen=True)
class Action:
    """What is asked: its kind (a tool, "mcp:<server>:<tool>"), the sites it touches (origins),
    the tab it reads (read_tab), whether it acts (the site rules govern acting, not reading)
    and whether it stays on the page it acts on (then "allow on this site" and a site's `allow`
    answer it, when it touches one site)."""
    kind: str
    sites: tuple[str, ...] = ()
    tab: int | None = None
    acts: bool = True
    on_page: bool = False

    @property
    def one_site(self) -> str | None:
        return self.sites[0] if len(self.sites) == 1 else None


def read_sites(sites) -> frozenset:
    """Sites as the settings read them (site_rules.read_rule): an origin ("http://127.0.0.1:8000")
    is that scheme, host and port; a host ("shop.example", a schedule's) that host and its
    subdomains. A place no rule can name (a file's address) is kept as written: only the same
    text is the same place."""
    return frozenset(read_site(site) or site for site in sites if isinstance(site, str) and site)


def read_site(site: str):
    """One site as a rule reads it (an address is its origin), or None."""
    parts = urlsplit(site)
    origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else site
    return read_rule(f"{origin}: allow")


def outside_never(rules, sites) -> list[str]:
    """The sites no `never` of the user's covers by its host, whatever its scheme or port: a
    site the user gave a schedule never unmakes a `never` they wrote."""
    nevers = [rule for rule in rules if rule.rule == "never"]
    read = [(site, read_site(site)) for site in sites if isinstance(site, str)]
    return [site for site, rule in read if rule and not any(
        rule.host == never.host or (never.subdomains and rule.host.endswith("." + never.host)) for never in nevers)]


def covered(patterns: frozenset, site: str) -> bool:
    where = origin_parts(site)
    if where is None:
        return site in patterns
    return any(not isinstance(pattern, str) and pattern.covers(*where) for pattern in patterns)


@dataclass(frozen=True)
class Allowance:
    actor: Actor
    kinds: frozenset[str]
    sites: frozenset = frozenset()   # read_sites: where; none for an action on no site (an MCP tool)
    tab: int | None = None
    given: str = "your_turn"         # the answer or the setting it came from (BY_ANSWER)

    def covers(self, actor: Actor, action: Action) -> bool:
        if self.actor not in (actor, actor.within) or action.kind not in self.kinds or action.tab != self.tab:
            return False
        if not action.sites or not self.sites:
            return not action.sites and not self.sites
        return all(covered(self.sites, site) for site in action.sites)

    @classmethod
    def of(cls, actor: Actor, kinds, sites=(), tab=None, given="your_turn") -> Allowance:
        return cls(actor, frozenset(kinds), read_sites(sites), tab, given)


@dataclass(frozen=True)
class Verdict:
    """The answer, and what gave it: "you" (answered now), "allowance" (given before) or
    "settings" (a site rule). True when the action may run."""
    allowed: bool
    by: str

    def __bool__(self) -> bool:
        return self.allowed


@dataclass(frozen=True)
class Standing:
    """An answer given before anyone is asked (a site rule, an allowance): the verdict, what the
    record adds to the question, and the decision the record shows. `anywhere`: it holds on any
    page (a tool a person called by hand), not only on the site it was asked for."""
    verdict: Verdict
    added: tuple = ()  # (key, value) pairs
    decision: str = ""
    anywhere: bool = False


@dataclass
class Consent:
    """The one consent service of a turn (or of one MCP client connection). `bridge.confirm`
    asks the person at the panel; `emit` (the top agent's, once it exists) writes the record."""
    bridge: object
    site_rules: list = field(default_factory=list)  # site_rules.SiteRule
    emit: object = None
    allowances: list[Allowance] = field(default_factory=list)

    def asking(self, actor: Actor, emit=None) -> AskTheUser:
        return AskTheUser(self, actor, emit)

    def give(self, allowance: Allowance) -> None:
        self.allowances.append(allowance)

    def end(self, actor: Actor) -> None:
        """Control passes from `actor`: what it was allowed ends here."""
        self.allowances[:] = [a for a in self.allowances if a.actor != actor]

    def allowance_for(self, actor: Actor, action: Action) -> Allowance | None:
        return next((a for a in self.allowances if a.covers(actor, action)), None)

    def rule_for(self, action: Action) -> tuple[str | None, str | None]:
        """The settings' answer and its site: "never" if a site the action acts on is never
        allowed; "allow" for an action on one page whose site is; else None (they say nothing)."""
        if not action.acts:
            return None, None
        never = next((site for site in action.sites if rule_for(self.site_rules, site) == "never"), None)
        if never:
            return "never", never
        one = action.one_site if action.on_page else None
        return ("allow", one) if one and rule_for(self.site_rules, one) == "allow" else (None, None)

    def standing(self, actor: Actor, action: Action) -> Standing | None:
        """The answer the site rules and the actor's own allowances give, in that order, without
        asking anyone; None when only the user can answer."""
        ruled, site = self.rule_for(action)
        if ruled == "never":  # the site refused, which the record names
            return Standing(Verdict(False, "settings"), (("site", site),), BY_SETTINGS["never"])
        given = self.allowance_for(actor, action)
        if given:
            return Standing(Verdict(True, "allowance"), (("allowed_by", given.given),), BY_ALLOWANCE)
        return Standing(Verdict(True, "settings"), (), BY_SETTINGS["allow"]) if ruled == "allow" else None

    async def allows(self, asker: AskTheUser, question: dict, action: Action) -> Verdict:
        actor, standing = asker.actor, self.standing(asker.actor, action)
        if standing:
            return await asker.record({**question, **dict(standing.added)}, standing.decision, standing.verdict)
        decision = await asker.ask(question)
        self._keep(actor, action, decision)
        return Verdict(decision in ("once", "turn", "site"), "you")

    def _keep(self, actor: Actor, action: Action, decision: str) -> None:
        """What an answer allows beyond this call, given to the actor that asked, and to it only."""
        if decision == "turn" and actor.lasts != "call":
            self.give(Allowance.of(actor, {action.kind}, action.sites, action.tab, BY_ANSWER["turn"]))
        if decision == "site" and action.on_page and action.one_site and actor.lasts != "call":
            self.give(Allowance.of(actor, ON_THE_PAGE, [action.one_site], None, BY_ANSWER["site"]))


class AskTheUser:
    """One actor's way to the consent service: its questions name it, are its own events (a
    managed agent's among its steps: `emit` is set once it exists), and what it is allowed is
    its own."""

    def __init__(self, consent: Consent, actor: Actor, emit=None):
        self.consent, self.actor, self._emit = consent, actor, emit

    @property
    def bridge(self):
        return self.consent.bridge

    @property
    def site_rules(self) -> list:
        return self.consent.site_rules

    @property
    def emit(self):
        return self._emit or self.consent.emit

    @emit.setter
    def emit(self, emit) -> None:
        self._emit = emit

    async def allows(self, tool: str, message: str, details: dict, *, kind: str | None = None,
                     sites=(), tab: int | None = None, acts: bool = True, on_page: bool = False) -> Verdict:
        """Whether `tool` may run now (see Action for the rest); `message` and `details` are
        what the user reads if asked."""
        action = Action(kind or tool, tuple(s for s in sites if s), tab, acts, on_page)
        return await self.consent.allows(self, self._question(tool, message, details, action), action)

    def _question(self, tool: str, message: str, details: dict, action: Action) -> dict:
        question = {"id": uuid.uuid4().hex, "tool": tool, "message": message, "details": details,
                    "actor": self.actor.shown()}
        if action.on_page and action.one_site:
            question["site"] = action.one_site  # "allow on this site" is offered for it
        return question

    def unasked(self, tool: str, site: str | None) -> Standing | None:
        """What allows an action `tool` on the page of `site` (an origin) without asking anyone (a
        site rule, this actor's allowance); None when the user would be asked, or it is refused."""
        standing = self.consent.standing(self.actor, Action(tool, (site,), None, True, True)) if site else None
        return standing if standing and standing.verdict else None

    async def record_unasked(self, standing: Standing, tool: str, message: str, details: dict, site: str) -> None:
        """The record of an action that `standing` allowed and that was done in the same call as its
        question (page_actions.py): as `allows` writes it, once it is known what was done."""
        action = Action(tool, (site,), None, True, True)
        question = {**self._question(tool, message, details, action), **dict(standing.added)}
        await self.record(question, standing.decision, standing.verdict)

    def give_sites(self, sites, kinds=ON_THE_PAGE + LEAVING, given="workflow_sites") -> None:
        """What the user allowed this actor before it started (a workflow's ticked sites, a
        schedule's): actions of `kinds` on those sites, asked of no one while it lasts."""
        readable = [site for site in sites if isinstance(site, str) and read_site(site)]
        if readable:
            self.consent.give(Allowance.of(self.actor, kinds, readable, None, given))

    def end(self) -> None:
        self.consent.end(self.actor)

    def replaying(self, workflow: str) -> AskTheUser:
        """The asking of a replay of `workflow` this actor starts: an actor of its own (acting
        for the schedule in a scheduled run), whose questions are this one's events."""
        schedule = self.actor if self.actor.kind == "schedule" else self.actor.within
        return self.consent.asking(Actor("workflow", workflow, within=schedule), emit=self._emit)

    async def ask(self, question: dict) -> str:
        """The question in the panel, then the answer, both in the record."""
        await self.emit("confirmation", question)
        decision = await self.bridge.confirm(question["id"], question["tool"], question["message"], question["details"])
        await self.emit("confirmation", {**question, "decision": decision})
        return decision

    async def fill(self, question: dict) -> dict:
        """A question that carries a form (a server's elicitation): the answer, wire.FORM_ANSWER;
        the record keeps the decision, never what was typed."""
        await self.emit("confirmation", question)
        answer = await self.bridge.fill(question["id"])
        await self.emit("confirmation", {**question, "decision": answer.get("decision")})
        return answer

    async def record(self, question: dict, decision: str, verdict: Verdict) -> Verdict:
        """An answer nobody was asked for (a rule, an allowance): the record still shows the
        action, and who allowed it."""
        for event in (question, {**question, "decision": decision}):
            await self.emit("confirmation", event)
        return verdict


class CalledByHand:
    """A person called the tool themselves (a developer trying a tool from the panel, with
    no model involved): that call is their consent to exactly it."""

    async def allows(self, *_, **__) -> Verdict:
        return Verdict(True, "you")

    def unasked(self, tool: str, site: str | None) -> Standing:
        """On whatever page the tool is called on: the person chose the tab, the tool and its arguments."""
        return Standing(Verdict(True, "you"), anywhere=True)

    async def record_unasked(self, *_) -> None:
        """(A call by hand writes no record.)"""


class RefusedWithoutAsking:
    """Where no person can be asked (a user tool's `page`): other tabs stay closed."""

    async def allows(self, *_, **__) -> Verdict:
        return Verdict(False, "you")
