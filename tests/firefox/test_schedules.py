"""Schedules in Firefox (issue 39, item 2): a schedule saved for a moment from now is run by
Firefox's own alarm in a background tab of its own, while the tab the user is on stays in front;
its conversation is kept (in the extension's IndexedDB here) and listed as scheduled; the page it
read is its own tab's, not the user's. (Headless Firefox hands notifications to a system service
that keeps none for getAll to list: the notification itself is checked in Chromium.)"""

from __future__ import annotations

import json
import time


from tests.helpers.model_server import Reply


CONVERSATIONS = "import(browser.runtime.getURL('extension/shared/storage/conversations.js'))"


def active_tab(chat):
    return chat.run("browser.tabs.query({ active: true, currentWindow: true }).then(([tab]) => tab.url)")


def test_a_schedule_runs_on_firefoxs_alarm_in_a_background_tab_of_its_own(panel, firefox, model, site):
    firefox.open_tab(site.url("news.html"))  # the user's tab, in front
    mine = active_tab(panel)
    model.script(Reply(tool_calls=[{"name": "read_page", "arguments": {}}]), Reply(text="Tomatoes like sun.\nAnd water."))
    at = int(time.time() * 1000) + 3000
    saved = panel.ask_background("save-schedule", schedule={"name": "Tomato watch", "enabled": True,
                                                            "what": {"kind": "prompt", "text": "What do tomatoes need?"},
                                                            "when": {"kind": "once", "at": at}, "url": site.url("article.html")})
    assert saved["schedule"]["dueAt"] == at
    entry = panel.wait_for_value(f"""{CONVERSATIONS}.then(async (c) => {{
      const [run] = (await c.listConversations()).filter((entry) => entry.scheduled);
      const record = run && await c.loadConversation(run.id);
      return record?.turns[0]?.status !== "running" && record?.turns[0]?.status && run;
    }})""", 90, "the scheduled run never finished")
    assert entry["scheduled"]["name"] == "Tomato watch" and entry["title"] == "Tomato watch"
    record = panel.run(f"{CONVERSATIONS}.then((c) => c.loadConversation({entry['id']!r}))")
    assert record["turns"][0]["status"] == "ok"
    read = [m for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "Growing Tomatoes on a Balcony" in read  # its own tab's page, not the user's
    assert active_tab(panel) == mine  # the user's tab stayed in front
    schedule = panel.run("browser.storage.local.get('schedules').then(({ schedules }) => Object.values(schedules)[0])")
    assert schedule["enabled"] is False and schedule["dueAt"] is None  # once: it will not run again


def test_red_team_a_schedule_listing_no_site_replays_a_workflow_asking_on_the_site_ticked_for_it(panel, model, consent_shop):
    """As in Chromium: the user ticked the shop for the workflow's own replays; a schedule that
    lists no site replays it, asks, and stops as needing the user, having done nothing (issue 46, 1)."""
    from tests.helpers.consent_pages import WORKFLOW

    model.script(Reply(text="Done."))  # the agent taking over, were the replay to hand over
    origin = consent_shop.url("").rstrip("/")
    ticked = {"buy_kettle": {"name": "buy_kettle", "source": WORKFLOW, "sites": [origin], "allowedSites": [origin], "parameters": {}}}
    panel.run(f"browser.storage.local.set({{ workflows: {json.dumps(ticked)} }}).then(() => true)")
    try:
        panel.ask_background("save-schedule", schedule={
            "name": "Kettle", "enabled": True, "what": {"kind": "tool", "name": "buy_kettle", "args": {}},
            "when": {"kind": "once", "at": int(time.time() * 1000) + 3000}, "url": consent_shop.url("/shop")})
        entry = panel.wait_for_value(f"""{CONVERSATIONS}.then(async (c) => {{
          const run = (await c.listConversations()).find((entry) => entry.scheduled?.name === "Kettle");
          const record = run && await c.loadConversation(run.id);
          return record?.turns[0]?.status !== "running" && record?.turns[0]?.status && run;
        }})""", 90, "the scheduled run never ended")
        record = panel.run(f"{CONVERSATIONS}.then((c) => c.loadConversation({entry['id']!r}))")
        events = record["turns"][0]["events"]
        assert record["turns"][0]["status"] == "cancelled"
        assert [e["data"]["actor"]["says"] for e in events if e["kind"] == "confirmation"] == [
            "the workflow buy_kettle, for the schedule Kettle"]  # asked, never answered for the user
    finally:
        panel.run("browser.storage.local.remove('workflows').then(() => true)")


# A workflow's file, and the same workflow changed since its schedule was saved (issue 46, hole 2).
LOOKS = '''"""A saved workflow: it only looks."""

from tabagent.app.workflows import Step, Workflow

WORKFLOW = Workflow(goal="Look at the page", steps=[Step("scroll", to="bottom")])
'''
CHANGED = LOOKS.replace('to="bottom"', 'to="top"')


def scheduled_runs(panel):
    return panel.run(f"{CONVERSATIONS}.then(async (c) => (await c.listConversations()).filter((entry) => entry.scheduled))")


def test_red_team_a_schedule_runs_only_the_workflow_it_was_saved_with_in_firefox(panel, model, site):
    """Firefox's own alarm fires a schedule whose workflow changed after it was saved: nothing
    runs (no run, no conversation), the schedule is left for the user; saved again, it runs."""
    panel.ask_background("delete-older-than", days=0)
    kept = lambda source: {"look": {"name": "look", "source": source, "sites": [], "allowedSites": [], "parameters": {}}}  # noqa: E731
    store = lambda source: panel.run(f"browser.storage.local.set({{ workflows: {json.dumps(kept(source))} }}).then(() => true)")  # noqa: E731
    store(LOOKS)
    try:
        schedule = {"name": "Look", "enabled": True, "what": {"kind": "tool", "name": "look", "args": {}},
                    "url": site.url("article.html"), "sites": ["127.0.0.1"]}
        at = int(time.time() * 1000) + 3000
        saved = panel.ask_background("save-schedule", schedule={**schedule, "when": {"kind": "once", "at": at}})["schedule"]
        store(CHANGED)
        time.sleep(8)  # Firefox's alarm has fired by then
        assert scheduled_runs(panel) == [] and model.requests == []

        store(LOOKS.replace("Look at the page", "Look at the page again"))
        at = int(time.time() * 1000) + 3000
        panel.ask_background("save-schedule", schedule={**schedule, "id": saved["id"], "when": {"kind": "once", "at": at}})
        panel.wait_for_value(f"""{CONVERSATIONS}.then(async (c) => {{
          const [run] = (await c.listConversations()).filter((entry) => entry.scheduled);
          const record = run && await c.loadConversation(run.id);
          return record?.turns[0]?.status === "ok";
        }})""", 90, "the schedule saved again never ran")
    finally:
        panel.run("browser.storage.local.remove('workflows').then(() => true)")
