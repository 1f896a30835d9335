"""What one action and one listing cost in trips to the page and in reading the DOM (issue 51's
controls rows: bench/bench_controls.py times them; this counts what the times are made of).

- An action called by hand (allowed without a question: describe_action acts in the same call,
  its gesture given as real input) runs three scripts in the tab: the question that acts, the check
  that the element is still under the pointer before the press, and its outcome; no probe of its
  own before each (six before, four with the question and the action apart). A hover runs two:
  its check that the pointer's element is the one asked about is made with its outcome.
- The locator floor is read from session storage once in the service worker's life, not once per
  script run in the tab (it was four reads an action).
- list_controls on 400 sections of one form reads each element's tag a bounded number of times:
  a control's CSS path counted its parent's children again for every control (400 × 400 reads).
- The question before an action names the page's buttons of the same role to find its place: by
  their text, without looking for icons inside each (an element's name is read source by source).
- The action then keeps that place when the page has not changed since the question (a walk over
  every element again before, two per action); a change anywhere makes it walk again, and a
  namesake added beside the element refuses the action as before.
- That walk reads each element's role from its markup: isContentEditable (a style lookup) only of
  an element whose markup gives it none, and only when the role asked is an editable area or its
  tag (807 reads on rows.html before, none for a button). The places it finds among namesakes of
  every kind (places.html: by role, hidden, nested, in a shadow root, in a frame, editable areas,
  clickable tiles) are the ones it found before.
- A workflow's step found at its recorded place walks the page once: the element's place is the
  one the walk that found it gave (it walked a second time for it before).
- list_controls reads an element's computed style only where a stylesheet's cursor rule, its style
  attribute or the browser's own rules may give it a cursor of its own (else it is its parent's):
  2 reads on the 1,600 elements of rows.html, 807 before; and it lists what reading every style
  lists, on a page that gives hands every way a stylesheet can (cursors.html).

The covered-element check still runs before the press (it is one of the three scripts), and the
tests of real input, actions and controls are unchanged."""

import json
from pathlib import Path

import pytest

from tests.helpers.page_content import page_content

pytestmark = pytest.mark.e2e
IN_WINDOWS = True  # the page shown in a window of its own, as a person sees it: real input draws there

SITE = Path(__file__).parent / "pages" / "round-trips"

# In the service worker: each executeScript and storage.session read recorded.
COUNTING = """(() => {
  globalThis.__counted = { scripts: [], reads: [] };
  if (globalThis.__counting) return true;
  globalThis.__counting = true;
  const [execute, read] = [chrome.scripting.executeScript, chrome.storage.session.get];
  chrome.scripting.executeScript = function (injection) {
    globalThis.__counted.scripts.push(injection.func ? [injection.func.name, ...(injection.args ?? []).slice(0, 1)].join(" ") : "files");
    return execute.call(this, injection);
  };
  chrome.storage.session.get = function (keys) {
    globalThis.__counted.reads.push(String(keys));
    return read.call(this, keys);
  };
  return true;
})()"""

COUNTED = "(() => { const c = globalThis.__counted; globalThis.__counted = { scripts: [], reads: [] }; return c; })()"


def in_tab(page: str, func: str, arg=None) -> str:
    """A script for the service worker: `func` (a JavaScript function's source, given `arg`) run in
    the isolated world (the content scripts') of the tab showing `page`; its result returned."""
    return f"""(async () => {{
  const [tab] = await chrome.tabs.query({{ url: "*://127.0.0.1/*{page}" }});
  const [{{ result }}] = await chrome.scripting.executeScript({{ target: {{ tabId: tab.id }}, args: [{json.dumps(arg)}], func: {func} }});
  return result;
}})()"""


def listing_counted(count: str) -> str:
    """list_controls on rows.html with `count` (a function given `counted`, which it calls for each
    read it counts, and returning what puts things back) in force."""
    return in_tab("rows.html", f"""() => {{
    let reads = 0;
    const restore = ({count})(() => reads++);
    try {{
      const listed = globalThis.TabAgentPage.run("list_controls", {{ max_controls: 1000 }}, {{}});
      return {{ reads, count: listed.result.count }};
    }} finally {{
      restore();
    }}
  }}""")


def done(tabs, name, **args) -> dict:
    reply = tabs.tool_reply(name, **args)
    assert reply and reply.get("ok"), reply
    return json.loads(page_content(reply["result"]["result"])[1])


def listed(tabs) -> str:
    return page_content(tabs.call_tool("list_controls"))[1]


def counting(browser):
    worker = browser.service_worker_target()
    browser.evaluate_in(worker, COUNTING)
    return lambda: browser.evaluate_in(worker, COUNTED)


def test_an_action_called_by_hand_runs_three_scripts_in_the_tab_and_reads_no_storage_for_them(tabs, site, browser):
    tabs.show(site.url("rows.html"))
    assert listed(tabs).startswith("801 controls")  # the tools injected, the locator floor read once
    counted = counting(browser)
    said = done(tabs, "check", locator="#box")
    assert said["checked"] is True and said["summary"] == "Check the checkbox “Box”."
    trips = counted()
    assert trips["scripts"] == ["runInPage describe_action", "runInPage input_check", "runInPage input_done"], trips
    assert not [read for read in trips["reads"] if "lastLocator" in read], trips
    assert tabs.in_page("return document.getElementById('box').checked") is True


def test_a_hover_called_by_hand_runs_two_scripts_in_the_tab_its_check_made_with_its_outcome(tabs, site, browser):
    tabs.show(site.url("rows.html"))
    assert listed(tabs).startswith("801 controls")
    counted = counting(browser)
    said = done(tabs, "hover", locator="section:nth-of-type(7) button")
    assert said["summary"] == "Move the mouse over the button “Add 6”.", said
    trips = counted()
    # (a third, input_check, checked the pointer's element before: input_done makes that check now)
    assert trips["scripts"] == ["runInPage describe_action", "runInPage input_done"], trips
    assert tabs.in_page("return document.querySelector('section:nth-of-type(7) button').matches(':hover')") is True


def test_a_tab_without_the_tools_gets_them_then_the_tool(tabs, site, browser):
    tabs.show(site.url("rows.html"))  # a new document: no tools in it yet
    counted = counting(browser)
    assert listed(tabs).startswith("801 controls")
    assert counted()["scripts"] == ["runInPage list_controls", "files", "runInPage list_controls"]


# In the tab's isolated world (the content scripts'): list_controls run with every read of an
# element's tag counted.
TAG_READS = listing_counted("""(counted) => {
    const property = Object.getOwnPropertyDescriptor(Element.prototype, "localName");
    Object.defineProperty(Element.prototype, "localName", { ...property, get() { counted(); return property.get.call(this); } });
    return () => Object.defineProperty(Element.prototype, "localName", property);
  }""")


# In the tab's isolated world: the question before a hover (describe_action, which finds the
# button's place among the page's buttons of the same name), with every look for icons counted.
ICON_LOOKS = in_tab("rows.html", """() => {
    const query = Element.prototype.querySelectorAll;
    let looks = 0;
    Element.prototype.querySelectorAll = function (selector) {
      if (String(selector).includes("img[alt]")) looks++;
      return query.call(this, selector);
    };
    try {
      const asked = globalThis.TabAgentPage.run("describe_action", { name: "hover", args: { locator: "section:nth-of-type(7) button" } }, {});
      return { looks, summary: asked.result.summary, place: asked.result.element.place };
    } finally {
      Element.prototype.querySelectorAll = query;
    }
  }""")


def test_naming_a_button_with_text_looks_for_no_icons_in_it(tabs, site, browser):
    tabs.show(site.url("rows.html"))
    assert listed(tabs).startswith("801 controls")
    counted = browser.evaluate_in(browser.service_worker_target(), ICON_LOOKS)
    assert counted["summary"] == "Move the mouse over the button “Add 6”.", counted
    assert counted["place"] == {"role": "button", "name": "Add 6", "landmark": "form", "landmark_name": "rows",
                                "nth": 1, "of": 1, "count": 1}, counted
    # Every one of the 400 buttons is named to find its place: by its text, never its icons.
    assert counted["looks"] == 0, counted


# In the tab's isolated world: the question before a hover, then the hover with its plan id (as the
# agent's action is run, given by the page's events here), with every step of a walk over the page
# counted for each; `change`: what the page does between the two (run in the page's DOM).
def walks(change) -> str:
    return in_tab("rows.html", """(change) => {
    const next = TreeWalker.prototype.nextNode;
    let steps = 0;
    TreeWalker.prototype.nextNode = function () { steps++; return next.call(this); };
    const counted = (run) => { steps = 0; const reply = run(); return { steps, reply }; };
    try {
      const page = globalThis.TabAgentPage;
      const args = { locator: "section:nth-of-type(7) button" };
      const asked = counted(() => page.run("describe_action", { name: "hover", args }, {}));
      if (change === "title") document.title = "Rows, later";
      if (change === "namesake") {
        const twin = document.createElement("button");
        twin.type = "button";
        twin.textContent = "Add 6";
        document.getElementById("rows").append(twin);
      }
      const done = counted(() => page.run("hover", args, { planId: asked.reply.result.plan_id }));
      return { asked: asked.steps, acted: done.steps, place: asked.reply.result.element.place,
               done: done.reply.ok ? done.reply.result.summary : done.reply.error };
    } finally {
      TreeWalker.prototype.nextNode = next;
    }
  }""", change)


# title: a change elsewhere on the page; namesake: another button "Add 6" in the form.
@pytest.mark.parametrize("change,walked_again", [(None, False), ("title", True), ("namesake", True)])
def test_the_action_walks_the_page_for_its_place_again_only_when_the_page_changed(tabs, site, browser, change, walked_again):
    tabs.show(site.url("rows.html"))
    assert listed(tabs).startswith("801 controls")
    counted = browser.evaluate_in(browser.service_worker_target(), walks(change))
    assert counted["place"]["of"] == 1, counted
    # The question finds the button's place among the page's 1,600 elements; the hover, on an
    # unchanged page, keeps it (it walked them all again before: two walks per action).
    assert counted["asked"] > 1_500, counted
    assert counted["acted"] > 1_500 if walked_again else counted["acted"] < 100, counted
    if change == "namesake":  # a namesake added in the form meanwhile: the place the user was asked about is gone
        assert "Nothing was done: the page changed what the user confirmed" in counted["done"], counted
    else:
        assert counted["done"] == "Move the mouse over the button “Add 6”.", counted


# In the tab's isolated world: the question before a hover with every read of an element's
# isContentEditable counted (a style lookup), and a workflow's step found at its recorded place with
# every step of a walk over the page counted.
EDITABLE_READS = in_tab("rows.html", """() => {
    const property = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "isContentEditable");
    let reads = 0;
    Object.defineProperty(HTMLElement.prototype, "isContentEditable", { ...property, get() { reads++; return property.get.call(this); } });
    try {
      const asked = globalThis.TabAgentPage.run("describe_action", { name: "hover", args: { locator: "section:nth-of-type(7) button" } }, {});
      return { reads, place: asked.result.element.place, elements: document.getElementsByTagName("*").length };
    } finally {
      Object.defineProperty(HTMLElement.prototype, "isContentEditable", property);
    }
  }""")

REPLAY_WALK = in_tab("rows.html", """() => {
    const page = globalThis.TabAgentPage;
    const seen = page.run("describe_action", { name: "hover", args: { locator: "section:nth-of-type(7) button" } }, {});
    const next = TreeWalker.prototype.nextNode;
    let steps = 0;
    TreeWalker.prototype.nextNode = function () { steps++; return next.call(this); };
    try {
      const found = page.run("describe_action", { name: "hover", args: {}, at: seen.result.element.place }, {});
      return { steps, elements: document.getElementsByTagName("*").length, place: found.result.element.place,
               same: found.result.element.locator === seen.result.element.locator };
    } finally {
      TreeWalker.prototype.nextNode = next;
    }
  }""")


def test_the_walk_for_a_place_reads_no_editable_state_where_the_markup_gives_the_role(tabs, site, browser):
    tabs.show(site.url("rows.html"))
    assert listed(tabs).startswith("801 controls")
    counted = browser.evaluate_in(browser.service_worker_target(), EDITABLE_READS)
    assert counted["place"] == {"role": "button", "name": "Add 6", "landmark": "form", "landmark_name": "rows",
                                "nth": 1, "of": 1, "count": 1}, counted
    # Every element whose markup gives it no role was asked it before (807 reads here): the walk's
    # largest cost on a page of 10,000 elements. None is, for a button.
    assert counted["reads"] < 10, counted


def test_a_workflow_step_found_at_its_place_walks_the_page_once(tabs, site, browser):
    tabs.show(site.url("rows.html"))
    assert listed(tabs).startswith("801 controls")
    counted = browser.evaluate_in(browser.service_worker_target(), REPLAY_WALK)
    assert counted["same"] and counted["place"]["name"] == "Add 6", counted
    # Once to find the element at the place; not a second time for the place of the element found there.
    assert round(counted["steps"] / counted["elements"]) == 1, counted


# The place of each element (describe_action's), and whether a workflow step recorded there finds
# that element again (describe_action's `at`), on a page of namesakes of every kind (places.html).
PLACES = {
    "#save-top": ("button", "Save", "", "", 1, 3, 8),
    "#save-1": ("button", "Save", "form", "Draft", 1, 4, 8),
    "#save-2": ("button", "Save", "form", "Draft", 2, 4, 8),  # a span with the role
    "#save-3": ("button", "Save", "form", "Draft", 3, 4, 8),  # an input
    "#save-outer": ("button", "Save", "form", "Draft", 4, 4, 8),
    "#save-inner": ("button", "Save", "form", "Draft", 0, 0, 0),  # inside a namesake: no place of its own
    "#save-side": ("button", "Save", "region", "Side", 1, 1, 8),
    "#save-framed": ("button", "Save", "", "", 3, 3, 8),  # after the shadow root's
    "#notes-1": ("editable area", "Notes", "form", "Draft", 1, 2, 2),
    "#notes-2": ("editable area", "Notes", "form", "Draft", 2, 2, 2),
    "#tile-1": ("div", "Tile", "region", "Side", 1, 2, 2),
    "#tile-2": ("div", "Tile", "region", "Side", 2, 2, 2),
    "#title-draft": ("text field", "Title", "form", "Draft", 1, 1, 2),
    "#title-side": ("text field", "Title", "region", "Side", 1, 1, 2),
}
PLACE_KEYS = ("role", "name", "landmark", "landmark_name", "nth", "of", "count")

PLACES_SEEN = in_tab("places.html", """(selectors) => {
    const page = globalThis.TabAgentPage;
    return Object.fromEntries(selectors.map((selector) => {
      const asked = page.run("describe_action", { name: "hover", args: { locator: selector } }, {});
      if (!asked.ok) return [selector, asked.error];
      const { place, locator } = asked.result.element;
      const again = page.run("describe_action", { name: "hover", args: {}, at: place }, {});
      return [selector, { place, found_again: again.ok && again.result.element?.locator === locator }];
    }));
  }""", list(PLACES))

# The question and then the action on places.html, with every step of a walk over the page counted
# during the action: its namesakes in a shadow root and a frame, which page-version.js does not
# watch, make the action walk again for the place, the page unchanged or not.
ACTED_AFTER_ASKED = in_tab("places.html", """() => {
    const page = globalThis.TabAgentPage;
    const args = { locator: "#save-1" };
    const asked = page.run("describe_action", { name: "hover", args }, {});
    const next = TreeWalker.prototype.nextNode;
    let steps = 0;
    TreeWalker.prototype.nextNode = function () { steps++; return next.call(this); };
    try {
      const done = page.run("hover", args, { planId: asked.result.plan_id });
      return { steps, done: done.ok ? done.result.summary : done.error };
    } finally {
      TreeWalker.prototype.nextNode = next;
    }
  }""")


def test_places_among_namesakes_of_every_kind(tabs, site, browser):
    tabs.show(site.url("places.html"))
    assert "controls" in listed(tabs)
    seen = browser.evaluate_in(browser.service_worker_target(), PLACES_SEEN)
    for selector, expected in PLACES.items():
        assert seen[selector]["place"] == dict(zip(PLACE_KEYS, expected)), (selector, seen[selector])
        # a step recorded there finds the element again, but for one with no place of its own
        assert seen[selector]["found_again"] is (expected[4] > 0), (selector, seen[selector])
    acted = browser.evaluate_in(browser.service_worker_target(), ACTED_AFTER_ASKED)
    assert acted["done"] == "Move the mouse over the button “Save”." and acted["steps"] > 20, acted


# In the tab's isolated world: list_controls with every computed-style read counted.
STYLE_READS = listing_counted("""(counted) => {
    const read = window.getComputedStyle;
    window.getComputedStyle = function (...args) { counted(); return read.apply(this, args); };
    return () => { window.getComputedStyle = read; };
  }""")


# The reads list_controls makes on rows.html's 1,602 elements, and at most how many:
# - each element's tag about 30 times at most: reading the form's 400 children again for each of
#   its 800 controls' paths was 320,000 more;
# - the computed style only where a cursor rule may reach: its 400 sections and their 400 lines of
#   text have no cursor of their own, they show their parents' (read for each before, 800 and more).
@pytest.mark.parametrize("reads,most", [(TAG_READS, 50_000), (STYLE_READS, 100)], ids=["tags", "styles"])
def test_listing_controls_reads_a_bounded_number_of_times(tabs, site, browser, reads, most):
    tabs.show(site.url("rows.html"))
    assert listed(tabs).startswith("801 controls")
    counted = browser.evaluate_in(browser.service_worker_target(), reads)
    assert counted["count"] == 801
    assert counted["reads"] < most, counted


# In the tab's isolated world: list_controls as it runs, then with every element's style read (every
# element said to have a style attribute: the cursor of none is taken from its parent's).
EVERY_STYLE_READ = in_tab("cursors.html", """() => {
    const [read, has] = [window.getComputedStyle, Element.prototype.hasAttribute];
    let reads = 0;
    window.getComputedStyle = function (...args) { reads++; return read.apply(this, args); };
    const listing = () => {
      reads = 0;
      const listed = globalThis.TabAgentPage.run("list_controls", {}, {}).result;
      return { controls: listed.controls, reads };
    };
    try {
      const ruled = listing();
      Element.prototype.hasAttribute = function (name) { return name === "style" || has.call(this, name); };
      return { ruled, everyStyle: listing(), elements: document.getElementsByTagName("*").length };
    } finally {
      [window.getComputedStyle, Element.prototype.hasAttribute] = [read, has];
    }
  }""")


def test_cursors_taken_from_the_parent_list_what_reading_every_style_lists(tabs, site, browser):
    tabs.show(site.url("cursors.html"))
    assert listed(tabs).startswith("13 controls")
    counted = browser.evaluate_in(browser.service_worker_target(), EVERY_STYLE_READ)
    assert counted["ruled"]["controls"] == counted["everyStyle"]["controls"], counted
    for shown in ("“One”", "“Tile”", "“Chip”", "“Card with words”", "“Wide”", "“Layered”", "“inline”", "“€”"):
        assert shown in counted["ruled"]["controls"], (shown, counted)
    # the custom element's hand is its closed shadow root's :host rule: its style is read
    assert counted["ruled"]["controls"].endswith("clickable (no name; beside “Deep in a plain box”)"), counted
    for not_shown in ("clickable “not this”", "clickable “Decorated”", "clickable “Deep in a plain box”"):
        assert not_shown not in counted["ruled"]["controls"], (not_shown, counted)
    assert counted["ruled"]["reads"] < counted["everyStyle"]["reads"], counted
