"""Keyboard, states and accessibility of the chat (issue 14), driven as a user would:
keys, clicks, a screen reader's status region, and axe-core in both themes."""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.helpers.browser import ROOT
from tests.helpers.model_server import Reply

from tests.helpers.rich_answer import RICH_ANSWER
from tests.helpers.panel_backends import ChromiumPanel

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"  # a test-only npm package, never shipped


def test_composer_has_focus_when_the_panel_opens(browser):
    browser.open_side_panel()
    browser.wait(lambda d: d.switch_to.active_element.get_attribute("id") == "prompt", 5)


def test_shift_enter_adds_a_line_and_enter_sends(panel, model):
    model.script(Reply(text="Two lines received."))
    box = panel.driver.find_element(By.ID, "prompt")
    box.send_keys("line one", Keys.SHIFT, Keys.ENTER, Keys.SHIFT, "line two")
    assert box.get_attribute("value") == "line one\nline two"
    assert model.requests == []
    box.send_keys(Keys.ENTER)
    panel.wait_for_status("ok")
    assert model.requests[0]["body"]["messages"][-1]["content"] == "line one\nline two"
    assert box.get_attribute("value") == ""


def test_escape_stops_a_running_turn(panel, model):
    model.script(Reply(text=" ".join(f"w{i}" for i in range(300)), token_delay=0.05))
    panel.send("Talk")
    panel.wait(lambda d: "w3" in d.find_element(By.ID, "conversation").text, 20)
    panel.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    panel.wait_for_status("cancelled", timeout=10)


# The conversation's stored record as the service worker leaves it between saving a turn's last
# events (the `done` event among them) and saving its end: the status still says "running".
SAVED_BEFORE_THE_END = """
const [done] = [arguments[arguments.length - 1]];
import(chrome.runtime.getURL("extension/sidepanel/sidepanel.js")).then(async () => {
  const { conversation } = globalThis.tabagentDebug;
  const key = `conversation:${conversation.id}`;
  const { [key]: record } = await chrome.storage.local.get(key);
  record.turns.at(-1).status = "running";
  await chrome.storage.local.set({ [key]: record });
  await conversation.open(conversation.id);
  done(record.turns.at(-1).events.filter((e) => e.kind === "done").map((e) => e.data.status));
});
"""


def test_a_turn_read_between_its_last_events_and_its_end_shows_how_it_ended(panel, model):
    # Stop reloads the conversation from storage; under load that read can land after the
    # `done` event was saved and before the end was: the turn must not show as running again.
    model.script(Reply(text=" ".join(f"w{i}" for i in range(300)), token_delay=0.05))
    panel.send("Talk")
    panel.wait(lambda d: "w3" in d.find_element(By.ID, "conversation").text, 20)
    panel.driver.find_element(By.ID, "stop").click()
    panel.wait_for_status("cancelled", timeout=30)
    panel.wait(lambda d: any(t.get("status") == "cancelled" for c in panel.stored_conversations() for t in c["turns"]), 10)
    assert panel.driver.execute_async_script(SAVED_BEFORE_THE_END) == ["cancelled"]
    assert panel.status() == "cancelled"
    assert panel.driver.find_element(By.ID, "stop").get_attribute("hidden") is not None


def test_empty_state_offers_three_suggestions_that_ask(panel, model):
    suggestions = panel.driver.find_elements(By.CSS_SELECTOR, ".empty .suggestion")
    assert len(suggestions) == 3 and all(s.text for s in suggestions)
    model.script(Reply(text="Here is what I can do."))
    chosen = suggestions[0].text
    suggestions[0].click()
    panel.wait_for_status("ok")
    assert model.requests[0]["body"]["messages"][-1]["content"] == chosen
    assert not panel.driver.find_elements(By.CSS_SELECTOR, ".empty")


def test_wrong_key_offers_open_settings_and_retry_works(panel, model):
    model.script(Reply(status=401, error="Incorrect API key provided"), Reply(text="Now it works."))
    panel.send("Hello?")
    panel.wait_for_status("error")
    turn = panel.last_turn()
    assert turn.find_element(By.CSS_SELECTOR, ".turn-error .fix-settings").text == "Open settings"
    turn.find_element(By.CSS_SELECTOR, ".turn-error .fix-retry").click()
    panel.wait(lambda d: "Now it works." in d.find_element(By.ID, "conversation").text, 20)
    assert [t.text for t in panel.driver.find_elements(By.CSS_SELECTOR, ".user-text")] == ["Hello?"]


def test_only_finished_messages_are_announced(panel, model):
    conversation = panel.driver.find_element(By.ID, "conversation")
    assert conversation.get_attribute("aria-live") is None
    assert not panel.driver.find_elements(By.CSS_SELECTOR, "#conversation [aria-live], #conversation [role=status], #conversation [role=alert]")
    model.script(Reply(text="The finished answer.", token_delay=0.05))
    panel.send("Announce this")
    panel.wait_for_status("ok")
    announcer = panel.driver.find_element(By.ID, "announcer")
    assert announcer.get_attribute("role") == "status"
    panel.wait(lambda d: "The finished answer." in announcer.get_attribute("textContent"), 5)


def set_theme(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def axe_violations(driver):
    if not driver.execute_script("return Boolean(window.axe)"):
        driver.execute_script(AXE.read_text())
    result = driver.execute_async_script(
        "const done = arguments[0];"
        "axe.run(document, { resultTypes: ['violations'] }).then((r) => done(JSON.stringify(r.violations)), (e) => done(String(e)));"
    )
    return [{"id": v["id"], "nodes": [n["target"] for n in v["nodes"]][:5], "summary": v["nodes"][0].get("failureSummary", "")}
            for v in json.loads(result)]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations(panel, model, scheme):
    assert AXE.exists(), "npm ci installs axe-core (a devDependency)"
    try:
        panel = ChromiumPanel(panel.browser).new_conversation()
        set_theme(panel.driver, scheme)
        assert panel.driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        assert axe_violations(panel.driver) == [], "empty state"
        model.script(Reply(tool_calls=[{"name": "get_selection", "arguments": {}}]), Reply(text=RICH_ANSWER),
                     Reply(status=401, error="Incorrect API key provided"))
        panel.send("Everything at once")
        panel.wait_for_status("ok")
        panel.last_turn().find_element(By.CSS_SELECTOR, "details.steps summary").click()
        panel.send("And now an error")
        panel.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.turn")) == 2)
        panel.wait_for_status("error")
        # The composer's extras too: an attached selection, a conversation's own settings.
        panel.driver.execute_async_script(
            "const done = arguments[0]; chrome.storage.session.set({ pendingContext: "
            "{ selection: 'Some selected words', title: 'A page', url: 'https://example.com/' } }).then(done);")
        panel.wait(lambda d: d.find_element(By.ID, "attached").is_displayed(), 5)
        panel.driver.find_element(By.CSS_SELECTOR, "#conversation-settings summary").click()
        violations = axe_violations(panel.driver)
        panel.screenshot(f"chat-axe-{scheme}")
        assert violations == [], json.dumps(violations, indent=1)
    finally:
        set_theme(panel.driver, "light")
