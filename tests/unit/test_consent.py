"""The one consent service (py/tabagent/app/consent.py): an allowance belongs to the actor it was
given to, for what, where and how long it says; the site rules come first (`never` always wins);
where control passes from one actor to another nothing passes with it; every action is recorded
with who allowed it. First the service alone, then whole turns on a page of controls
(tests/helpers/control_page.py) with a scripted model: a replay handing over to the agent, a
scheduled run, managed agents, MCP client sessions, a server's requests (issue 46)."""

from __future__ import annotations

import json

from tabagent.app.client_calls import ClientSessions
from tabagent.app.consent import Actor, Allowance, Consent
from tabagent.app.site_rules import parse_site_rules
from tabagent.app.turns import Turns, acting_for
from tabagent.app.user_tool_page import with_page
from tabagent.app.user_tools import load_user_tools
from tabagent.app.workflow_source import workflow_source
from tabagent.app.workflow_steps import Place, Step
from tabagent.testing import ScriptedModel
from tests.helpers.control_page import URL, ControlPage

SITE = "http://127.0.0.1:8000"
MODEL, AGENT = Actor("model", "TabAgent"), Actor("agent", "buyer", key="1")


class Answers:
    """The person at the panel: answers in order ("once" when none is left), each question kept."""

    def __init__(self, *decisions):
        self.decisions, self.asked = list(decisions), []

    async def confirm(self, id, tool, message, details):
        self.asked.append(tool)
        return self.decisions.pop(0) if self.decisions else "once"


def service(*decisions, rules=""):
    events = []

    async def emit(kind, data):
        events.append(data)
    return Consent(Answers(*decisions), parse_site_rules(rules)[0], emit), events


async def click(asking, site=SITE, tool="click"):
    return await asking.allows(tool, f"Do {tool}.", {}, sites=[site], on_page=True)


async def test_an_allowance_answers_only_the_actor_it_was_given_to():
    consent, events = service("site")
    model, agent = consent.asking(MODEL), consent.asking(AGENT)
    assert await click(agent)  # "allow on this site", given to the agent
    assert await click(agent, tool="type_text")  # that agent, that site: no question
    assert await click(model)  # its manager is asked
    assert await click(consent.asking(Actor("agent", "buyer", key="2")))  # a second agent of that name too
    assert consent.bridge.asked == ["click", "click", "click"]
    assert [e["actor"]["says"] for e in events if "decision" not in e] == [
        "the agent buyer", "the agent buyer", "TabAgent", "the agent buyer"]


async def test_never_wins_over_every_allowance_and_is_refused_without_a_question():
    consent, events = service(rules="127.0.0.1: never")
    asking = consent.asking(MODEL)
    consent.give(Allowance.of(MODEL, ["click"], [SITE]))
    refused = await click(asking)
    assert not refused and refused.by == "settings" and consent.bridge.asked == []
    assert [e.get("decision") for e in events] == [None, "refused_by_settings"] and events[0]["site"] == SITE


async def test_navigating_or_opening_a_tab_to_a_site_never_allowed_is_refused_not_asked():
    consent, events = service(rules="bank.example: never")
    asking = consent.asking(MODEL)
    for tool in ("navigate", "open_tab"):
        assert not await asking.allows(tool, f"{tool} to the bank.", {}, sites=["https://www.bank.example"])
    assert consent.bridge.asked == [] and [e["decision"] for e in events if "decision" in e] == ["refused_by_settings"] * 2


async def test_an_action_an_allowance_allows_is_recorded_with_who_allowed_it():
    consent, events = service("turn")
    asking = consent.asking(MODEL)
    assert (await click(asking)).by == "you"
    allowed = await click(asking)
    assert allowed.by == "allowance" and consent.bridge.asked == ["click"]
    asked, decided = events[-2:]
    assert decided == {**asked, "decision": "allowed_by_allowance"} and asked["allowed_by"] == "your_turn"


async def test_this_computers_names_are_one_site_to_an_allowance_and_ports_are_not():
    consent, _ = service("turn")
    asking = consent.asking(MODEL)
    await click(asking, "http://127.0.0.1:8000")
    assert (await click(asking, "http://localhost:8000")).by == "allowance"
    assert (await click(asking, "http://[::1]:8000")).by == "allowance"
    assert (await click(asking, "http://127.0.0.1:8001")).by == "you"


async def test_an_actors_allowances_end_where_control_passes_and_a_schedules_cover_what_runs_for_it():
    consent, _ = service("turn", "turn")
    replay = consent.asking(Actor("workflow", "find_kettle"))
    await click(replay)
    replay.end()
    assert (await click(replay)).by == "you"  # asked again: what it had ended
    schedule = Actor("schedule", "Morning prices", key="c1")
    consent.asking(schedule).give_sites(["127.0.0.1"], ["click"], "schedule_sites")
    for acting in (schedule, Actor("workflow", "find_kettle", within=schedule), Actor("agent", "buyer", within=schedule)):
        assert (await click(consent.asking(acting))).by == "allowance"
    assert (await click(consent.asking(MODEL))).by == "you"


async def test_a_servers_request_is_never_allowed_beyond_the_call():
    consent, _ = service("turn")
    server = consent.asking(Actor("server", "Files", key="r1"))
    await server.allows("mcp:Files", "The MCP server Files asks to use your model", {}, acts=False)
    assert consent.allowances == []


# A replay that hands over to the agent, on a shop of controls (tests/helpers/control_page.py).
SHOP = [("text field", "Search", "search", ""), ("button", "Search", "search", ""), ("button", "Delete", "form", "Account")]
WORKFLOW = [Step("type_text", Place("text field", "Search", "search"), text="kettle"),
            Step("click", Place("button", "Buy now", "form", "Checkout"))]


def request(task, **more):
    return {"conversation_id": "c1", "task": task, "memory": None,
            "settings": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "agent": "tool_calling", **more.pop("settings", {})},
            **more}


async def workflow_tools(tmp_path):
    (tmp_path / "find_kettle.py").write_text(workflow_source("Buy a kettle", WORKFLOW, {}))
    tools, problems = load_user_tools(tmp_path)
    assert problems == []
    return tools


async def run_workflow_turn(tmp_path, page, model, **more):
    events = []
    workflow = {"name": "find_kettle", "allowed_sites": [SITE]}
    await Turns().run(request("/find_kettle", workflow=workflow, **more), events.append, model=model, page=page,
                      tools=with_page(await workflow_tools(tmp_path), page))
    return events


# Where an agent's locators come from (unissued_locator.py): it lists the page's controls first.
LIST = {"tool_calls": [{"name": "list_controls", "arguments": {}}]}


def decisions(events):
    return [(e["data"]["actor"]["says"], e["data"]["tool"], e["data"]["decision"], e["data"].get("allowed_by"))
            for e in events if e["kind"] == "confirmation" and "decision" in e["data"]]


async def test_a_replays_ticked_site_never_reaches_the_agent_that_takes_over(tmp_path):
    """The shop's Buy now is gone: the replay stops at step 2 and the agent takes over; its click
    on Delete, on the very site the user ticked for the replay, is asked in its own name."""
    page = ControlPage(SHOP, decisions=["deny"])
    model = ScriptedModel([LIST, {"tool_calls": [{"name": "click", "arguments": {"locator": "ta-3"}}]}, "I did not delete."])
    events = await run_workflow_turn(tmp_path, page, model)
    assert page.asked == ["click"] and page.done == [("type_text", ("text field", "Search", "search"), {"text": "kettle"})]
    assert decisions(events) == [("the workflow find_kettle", "type_text", "allowed_by_allowance", "workflow_sites"),
                                 ("TabAgent", "click", "deny", None)]


async def test_a_schedule_listing_no_site_replays_asking_everything_and_records_it(tmp_path):
    """The same workflow, its site ticked, run by a schedule that lists no site: "It may act on no
    site without asking" is true; nobody answers, and the record shows the question."""
    page = ControlPage(SHOP, decisions=["deny"])
    events = await run_workflow_turn(tmp_path, page, ScriptedModel([]), schedule={"name": "Morning prices", "sites": []})
    assert page.asked == ["type_text"] and page.done == []
    assert decisions(events) == [("the workflow find_kettle, for the schedule Morning prices", "type_text", "deny", None)]


async def test_a_schedules_own_sites_are_its_run_s_and_the_record_names_them(tmp_path):
    page = ControlPage(SHOP)
    model = ScriptedModel([LIST, {"tool_calls": [{"name": "click", "arguments": {"locator": "ta-3"}}]}, "Done."])
    events = []
    await Turns().run(request("Delete it", schedule={"name": "Tidy", "sites": ["127.0.0.1"]}), events.append,
                      model=model, page=page)
    assert page.asked == [] and decisions(events) == [("the schedule Tidy", "click", "allowed_by_allowance", "schedule_sites")]


async def test_each_managed_agent_asks_in_its_own_name_and_its_allowance_is_its_own():
    """Two managed agents on one site (no tabs of their own): the user allows the first "on
    this site"; the second agent's click and then its manager's are each asked."""
    click = {"tool_calls": [{"name": "click", "arguments": {"locator": "ta-3"}}]}
    calls = [{"tool_calls": [{"name": name, "arguments": {"task": "Tidy the account."}}]} for name in ("first", "second")]
    model = ScriptedModel([calls[0], LIST, click, click, "Tidied.", calls[1], LIST, click, "Tidied.", LIST, click, "Done."])
    page = ControlPage(SHOP, decisions=["site", "once", "once"])
    team = [{"name": name, "description": f"The {name} helper.", "agent": "tool_calling"} for name in ("first", "second")]
    events = []
    await Turns().run(request("Tidy up", settings={"team": team}), events.append, model=model, page=page)
    assert [d[:3] for d in decisions(events)] == [("the agent first", "click", "site"),
                                                  ("the agent first", "click", "allowed_by_allowance"),
                                                  ("the agent second", "click", "once"), ("TabAgent", "click", "once")]


async def test_each_mcp_client_connection_is_a_session_of_its_own():
    """The user allows one client's clicks for its connection; a second program connected to
    TabAgent is asked in its own name, and the first's allowance ends with its connection."""
    sessions, page, events = ClientSessions(), ControlPage(SHOP), []
    first = sessions.session("conn-1", "", 0, "claude-code")
    second = sessions.session("conn-2", "", 0, "claude-code")
    page.decisions = ["turn", "once"]
    for session in (first, first, second):
        await session.run_client_call("click", {"locator": "ta-3"}, page, lambda event: events.append(json.loads(json.dumps(event))))
    assert page.asked == ["click", "click"]
    asked = [e for e in events if e["kind"] == "confirmation" and "decision" not in e["data"]]
    assert [e["data"]["actor"]["says"] for e in asked] == ["the MCP client claude-code"] * 3
    assert [e["conversation_id"] for e in asked] == ["conn-1", "conn-1", "conn-2"]  # each in its own conversation
    assert sessions.end("conn-1") and sessions.session("conn-1", "", 0, "claude-code").allowed == []


async def test_an_allowed_navigation_goes_to_its_site_only_and_the_first_one_as_the_user_saw_it():
    page = ControlPage(SHOP, decisions=["turn"])
    model = ScriptedModel([{"tool_calls": [{"name": "navigate", "arguments": {"url": f"{SITE}/a"}}]},
                           {"tool_calls": [{"name": "navigate", "arguments": {"url": f"{SITE}/go?to=https://evil.example"}}]},
                           "Done."])
    await Turns().run(request("Go"), lambda event: None, model=model, page=page)
    assert page.asked == ["navigate"]
    assert [args for action, _, args in page.done] == [{"url": f"{SITE}/a"},
                                                       {"url": f"{SITE}/go?to=https://evil.example", "stay_on": SITE}]


async def schedule_allows(rules, sites, page_site):
    """What gave the answer to a click on `page_site` in a scheduled run given `sites`."""
    consent, _ = service("deny", rules=rules)
    asking = acting_for(consent, {"conversation_id": "c1", "schedule": {"name": "Nightly", "sites": sites}})
    return (await click(asking, page_site)).by


async def test_the_users_never_wins_over_a_schedules_site_whatever_its_port_scheme_or_subdomain():
    never = "bank.example: never"
    assert await schedule_allows(never, ["news.example", "bank.example", "sub.bank.example"], "https://news.example") == "allowance"
    assert await schedule_allows(never, ["news.example", "bank.example", "sub.bank.example"], "https://sub.bank.example") == "settings"
    rules = "*.bank.example: never\nhttps://shop.example: never"
    sites = ["https://pay.bank.example:8443", "shop.example", "news.example:8080"]
    assert await schedule_allows(rules, sites, "https://pay.bank.example:8443") == "settings"
    assert await schedule_allows(rules, sites, "http://shop.example") == "you"  # left out: asked, nobody answers
    assert await schedule_allows(rules, sites, "http://news.example:8080") == "allowance"
    assert await schedule_allows("", ["news.example"], "http://news.example.org") == "you"


def test_the_control_page_is_on_the_site():
    assert URL.startswith(SITE)


async def test_stop_ends_a_replay_waiting_for_an_answer(tmp_path):
    """A scheduled run's replay that asks is stopped (nobody is there): the turn ends cancelled,
    and nothing was done (the question stays unanswered)."""
    import asyncio

    class Waiting(ControlPage):
        async def confirm(self, id, tool, message, details):
            self.asked.append(tool)
            await asyncio.Event().wait()  # nobody answers

    page, turns, events = Waiting(SHOP), Turns(), []
    request_ = request("/find_kettle", workflow={"name": "find_kettle"}, schedule={"name": "Nightly", "sites": []})
    running = asyncio.create_task(turns.run(request_, events.append, model=ScriptedModel([]), page=page,
                                            tools=with_page(await workflow_tools(tmp_path), page)))
    while not page.asked:
        await asyncio.sleep(0.01)
    assert turns.stop("c1")
    result = await asyncio.wait_for(running, 5)
    assert result["status"] == "cancelled" and page.done == [] and events[-1]["data"]["status"] == "cancelled"


def test_security_md_lists_every_actor_the_service_knows():
    from pathlib import Path

    from tabagent.app.consent import ACTORS

    table = (Path(__file__).resolve().parents[2] / "docs" / "security.md").read_text(encoding="utf-8")
    assert [kind for kind in ACTORS if f"(`{kind}`) |" not in table] == []
