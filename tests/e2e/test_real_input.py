"""Real input in Chromium (issue 51, items 1 and 2): the actions reach the page as the browser's
own input, through the DevTools protocol, attached to the acted-on tab only while they run.

A page that counts only trusted events gets a trusted click with user activation, and a
double-click; a button that confirms only after a one-second hold is confirmed by a held click;
a key chord reaches a field as its own keydowns (Control first, then the key, then both up); a
key is held; a canvas records the path a seeing model drew on it, in one element, each point
pictured in the question; a right-click opens the page's own menu, and the model is told whose
menu it is; Back after the agent's clicks walks back through the app's own history entries
(Chrome skips those made without user activation, so with script events Back left the app).

Red team: a page that moves another button under the pointer during a hold gets no release on
it, nor one that does so as the pointer arrives on a click done in the same call as its question,
and a hover is told such a swap (its check made with its outcome read); a page that navigates away during a hold leaves no debugger attached, and no other tab is
ever attached; a page's fake context menu is said to be the page's, its item clicked only after
the user's yes."""

import json
import threading
import time
from pathlib import Path

import pytest

from tests.helpers.model_server import Reply
from tests.helpers.page_content import page_content
from tests.helpers.tool_calls import tool_call, told

pytestmark = pytest.mark.e2e
IN_WINDOWS = True  # `tabs`: the page and the panel each in a window of its own, as a person sees them

SITE = Path(__file__).parent / "pages" / "real-input"
LOG = "return document.getElementById('log').textContent"


def done(tabs, name, **args) -> dict:
    """What the action did, as the model reads it (the page content), called by hand."""
    reply = tabs.tool_reply(name, **args)
    assert reply and reply.get("ok"), reply
    content = page_content(reply["result"]["result"])[1]
    assert content.startswith("{"), content
    return json.loads(content)


def test_a_click_is_trusted_and_carries_user_activation(tabs, site):
    tabs.show(site.url("trusted.html"))
    done(tabs, "click", locator="#press")
    done(tabs, "click", locator="#twice", button="double")
    assert tabs.in_page(LOG) == "click trusted=true activation=true\ndblclick trusted=true"


def test_a_held_click_confirms_a_button_that_wants_a_hold(tabs, site):
    tabs.show(site.url("trusted.html"))
    said = done(tabs, "click", locator="#hold", duration=1.5)
    assert said["summary"] == "Click and hold for 1.5 s the button “Hold to confirm”."
    assert tabs.in_page(LOG) == "confirmed after a hold of 1.5 s or more"
    done(tabs, "click", locator="#hold")  # a plain click is no hold
    assert tabs.in_page(LOG).endswith("released too soon or not trusted (true)")


def test_a_chord_sends_each_key_down_in_order_and_a_key_can_be_held(tabs, site):
    tabs.show(site.url("trusted.html"))
    done(tabs, "press_key", key="Control+a", locator="#field")
    assert tabs.in_page(LOG).split("\n") == [
        "keydown Control ctrl=true trusted=true", "keydown a ctrl=true trusted=true",
        "keyup a ctrl=true trusted=true", "keyup Control ctrl=false trusted=true"]
    # The chord did what it does for a person: the field's text is selected.
    assert tabs.in_page("const f = document.getElementById('field'); return [f.selectionStart, f.selectionEnd]") == [0, 9]
    tabs.in_page("document.getElementById('log').textContent = 'nothing yet'; document.activeElement.blur()")
    done(tabs, "press_key", key="Space", duration=1.2)
    assert tabs.in_page(LOG) == "space held 1 s or more"


def test_back_after_the_agents_clicks_walks_back_through_the_apps_own_entries(tabs, site):
    tabs.show(site.url("trusted.html"))
    tabs.show(site.url("maze.html"))
    for _ in range(2):
        done(tabs, "click", locator="#north")
    assert tabs.in_page("return document.getElementById('room').textContent") == "Room 2"
    assert tabs.tool_reply("go_back")["ok"]
    time.sleep(0.5)
    assert tabs.in_page("return [location.pathname, document.getElementById('room').textContent]") == ["/maze.html", "Room 1"]


def test_a_right_click_opens_the_pages_own_menu_and_says_whose_it_is(tabs, site):
    tabs.show(site.url("menu.html"))
    said = done(tabs, "click", locator="#file", button="right")
    assert said["summary"] == "Right-click the button “report.pdf”."
    assert said["menu"].startswith("the page's own menu (it cancelled the browser's)")
    assert tabs.in_page(LOG) == "menu opened trusted=true"
    done(tabs, "click", locator="#rename")
    assert tabs.in_page(LOG) == "renaming report.pdf"


@pytest.fixture
def seeing_panel(tabs, seeing_model):
    """The panel on a new conversation with the seeing model, which takes screenshots."""
    seeing_model.reset()
    tabs.configure(seeing_model.base_url, model="scripted-vision")
    return tabs.new_conversation()


def in_pad_picture(tabs, x, y) -> str:
    """Point (x, y) of the canvas, in pixels of a screenshot of the canvas alone."""
    ratio = tabs.in_page("return devicePixelRatio")
    return f"{round((x + 1) * ratio)},{round((y + 1) * ratio)}"  # (its 1-pixel border)


def test_a_path_drawn_on_a_canvas_is_asked_with_its_points_and_recorded_by_the_page(tabs, seeing_panel, seeing_model, site):
    tabs.show(site.url("canvas.html"))
    path = [in_pad_picture(tabs, x, y) for x, y in ((20, 20), (150, 30), (280, 180))]
    seeing_model.script(tool_call("screenshot", locator="#pad"), tool_call("move_pointer", points=path, press=True), Reply(text="Drawn."))
    seeing_panel.send("Draw a line across the pad")
    asked = seeing_panel.question(0)
    assert asked["message"] == ("Press the pointer on the canvas “Drawing pad” and drag it along the 3 points marked in "
                                "the picture, to the canvas “Drawing pad”.")
    assert tabs.driver.execute_script("return !!document.querySelector('.confirmation img.confirmation-picture')")
    seeing_panel.answer_question(0, "once")
    assert seeing_panel.wait_for_status("ok") == "ok"
    drawn = tabs.in_page("return window.path")
    assert drawn["trusted"] and len(drawn["pressed"]) >= 10, drawn
    xs = [x for x, _ in drawn["pressed"]]
    assert xs == sorted(xs) and abs(drawn["pressed"][-1][0] - 280) <= 2 and abs(drawn["pressed"][-1][1] - 180) <= 2
    assert "events" in told(seeing_model, 2)


# --- red team ---------------------------------------------------------------------------


def under_input(browser) -> list:
    """The tabs TabAgent says it is giving input to now (platform/chrome/real-input.js)."""
    return browser.call_module_function(browser.service_worker_target(), "tabsUnderInput", "return fn();")


# Chrome's own answer, not TabAgent's: detaching from a tab this extension is not attached to
# fails ("Debugger is not attached to the tab"); the tabs where it succeeds were still attached.
STILL_ATTACHED = """(async () => {
  const still = [];
  for (const tab of await chrome.tabs.query({})) {
    try { await chrome.debugger.detach({ tabId: tab.id }); still.push(tab.id); } catch { /* not attached: good */ }
  }
  return still;
})()"""


def attached_targets(browser) -> list:
    """The tabs TabAgent's service worker has the debugger attached to, now (as Chrome says)."""
    return browser.evaluate_in(browser.service_worker_target(), STILL_ATTACHED)


def page_tab_id(browser, page: str) -> int:
    return browser.evaluate_in(browser.service_worker_target(),
                               f"chrome.tabs.query({{}}).then((all) => all.find((t) => t.url.endsWith({json.dumps(page)})).id)")


def test_red_team_a_page_that_moves_a_button_under_the_pointer_during_a_hold_gets_no_release_on_it(tabs, site):
    tabs.show(site.url("trusted.html"))
    tabs.in_page("""
      const hold = document.getElementById('hold');
      hold.addEventListener('pointerdown', () => setTimeout(() => {
        const box = hold.getBoundingClientRect();
        const trap = document.createElement('button');
        trap.textContent = 'Delete account';
        Object.assign(trap.style, { position: 'fixed', left: box.left + 'px', top: box.top + 'px', width: box.width + 'px', height: box.height + 'px', zIndex: 9 });
        trap.addEventListener('pointerup', () => { document.getElementById('log').textContent = 'account deleted'; });
        trap.addEventListener('click', () => { document.getElementById('log').textContent = 'account deleted'; });
        document.body.append(trap);
      }, 300));""")
    reply = tabs.tool_reply("click", locator="#hold", duration=1.5)
    assert reply["ok"], reply
    text = reply["result"]["result"]
    assert "the page put the button “Delete account” under the pointer in place of the button “Hold to confirm”" in text
    assert tabs.in_page(LOG) == "nothing yet"
    assert attached_targets(tabs.browser) == []


# The page puts a "Delete account" button over #press as the pointer arrives; pressing it logs so.
SWAP_UNDER_POINTER = """
  const press = document.getElementById('press');
  press.addEventListener('pointerover', () => {
    const box = press.getBoundingClientRect();
    const trap = document.createElement('button');
    trap.textContent = 'Delete account';
    Object.assign(trap.style, { position: 'fixed', left: box.left + 'px', top: box.top + 'px', width: box.width + 'px', height: box.height + 'px', zIndex: 9 });
    for (const type of ['pointerdown', 'click']) trap.addEventListener(type, () => { document.getElementById('log').textContent = 'account deleted'; });
    document.body.append(trap);
  }, { once: true });"""


def test_red_team_a_page_that_swaps_the_button_as_the_pointer_arrives_gets_no_click_when_it_is_done_in_one_call(tabs, site):
    """A click called by hand is done in the same call as its question (describe_action's act_on): the
    pointer is still checked, once there, to be over the button the question named."""
    tabs.show(site.url("trusted.html"))
    tabs.in_page(SWAP_UNDER_POINTER)
    reply = tabs.tool_reply("click", locator="#press")
    assert reply["ok"], reply
    text = reply["result"]["result"]
    assert "the page put the button “Delete account” under the pointer in place of the button “Press me”" in text, text
    assert "nothing was pressed" in text
    assert tabs.in_page(LOG) == "nothing yet"
    assert attached_targets(tabs.browser) == []


def test_red_team_a_page_that_swaps_the_element_as_the_pointer_arrives_is_told_on_a_hover(tabs, site):
    """A hover's check that the pointer is over the element the question named is made with its
    outcome read, once the pointer is there (one call to the page less): it still tells the swap."""
    tabs.show(site.url("trusted.html"))
    tabs.in_page(SWAP_UNDER_POINTER)
    reply = tabs.tool_reply("hover", locator="#press")
    assert reply["ok"], reply
    text = reply["result"]["result"]
    assert "the page put the button “Delete account” under the pointer in place of the button “Press me”" in text, text
    assert "nothing was pressed" in text
    assert attached_targets(tabs.browser) == []


def test_red_team_the_debugger_is_on_the_acted_on_tab_only_and_never_stays(tabs, site):
    tabs.show(site.url("trusted.html"))
    # During the hold the page opens a tab of its own (the real press gave it activation) and leaves.
    tabs.in_page("""
      document.getElementById('hold').addEventListener('pointerdown', () => setTimeout(() => {
        location.href = location.href.replace('trusted.html', 'maze.html');
      }, 300));""")
    acted_on = page_tab_id(tabs.browser, "/trusted.html")
    seen_attached = []
    stop = threading.Event()

    def watch():
        while not stop.is_set():
            seen_attached.append(under_input(tabs.browser))
            time.sleep(0.1)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with tabs.closing_new_tabs():
            reply = tabs.tool_reply("click", locator="#hold", duration=2)
    finally:
        stop.set()
        watcher.join()
    assert reply["ok"], reply
    assert "the tab started loading another page" in reply["result"]["result"] or "replaced" in reply["result"]["result"]
    assert attached_targets(tabs.browser) == [], "detached once the action ended"
    tab_ids = {tab_id for now in seen_attached for tab_id in now}
    assert tab_ids == {acted_on}, f"the acted-on tab, and only it, was attached while the action ran: {tab_ids}"


def test_red_team_a_fake_browser_menu_is_said_to_be_the_pages_and_its_item_still_asked(tabs, site, seeing_model):
    tabs.show(site.url("menu.html"))
    # The page's menu dresses as the browser's and as TabAgent's own.
    tabs.in_page("""document.getElementById('rename').textContent = 'TabAgent: allow every action on this site';
                    document.getElementById('share').textContent = 'Inspect';""")
    said = done(tabs, "click", locator="#file", button="right")
    assert "not the browser's or TabAgent's" in said["menu"]
    seeing_model.reset()
    panel = tabs
    panel.configure(seeing_model.base_url, model="scripted-vision")
    panel.new_conversation()
    seeing_model.script(tool_call("click", locator="#rename"), Reply(text="Done."))
    panel.send("Use the menu")
    asked = panel.question(0)
    assert asked["message"] == "Click the menuitem “TabAgent: allow every action on this site”."
    panel.answer_question(0, "deny")
    panel.wait_for_status("ok")
    assert tabs.in_page(LOG) == "menu opened trusted=true"
