"""Click by position and drag, in real turns and by hand (issue 41, items 2 and 4).

A board of empty cells drawn by CSS images has nothing to give a locator to: a seeing model
takes a screenshot of it and clicks a cell by its pixels; the user is asked with a picture of
the spot, marked, and the cell the page then reads from the click is the one pictured. Lists
sorted by drag, one with pointer events and one with HTML drag and drop, are sorted both ways.

Red team: a page that moves another cell under the point while the user is being asked gets
nothing clicked; a drag onto a frame of a site whose rule is `never` is refused by the settings
(the element at the point decides the site), with no question and no event on the page."""

import pytest
from selenium.webdriver.common.by import By

from tests.helpers.model_server import Reply
from tests.helpers.page_server import PageServer
from tests.helpers.tool_calls import tool_call, told

from tests.helpers.pictures import near, picture

pytestmark = pytest.mark.e2e
IN_WINDOWS = True  # `tabs`: the browser pictures only the tab shown in a window

LOG = "return document.getElementById('log').textContent"
BOARD = {"left": 40, "top": 60, "cell": 80, "gap": 10}


@pytest.fixture
def seen(tabs, seeing_model):
    """A new conversation with the seeing model, which takes screenshots."""
    seeing_model.reset()
    tabs.configure(seeing_model.base_url, agent="tool_calling", model="scripted-vision")
    return tabs.new_conversation()


def cell_centre(n: int) -> tuple[int, int]:
    """The centre of cell n (1 to 9) in CSS pixels of the board."""
    row, column = divmod(n - 1, 3)
    step = BOARD["cell"] + BOARD["gap"]
    return column * step + BOARD["cell"] // 2, row * step + BOARD["cell"] // 2


def in_board_picture(tabs, n: int) -> dict:
    """Cell n's centre in the pixels of a screenshot of the board alone (its device pixels)."""
    ratio = tabs.in_page("return devicePixelRatio")
    x, y = cell_centre(n)
    return {"x": round(x * ratio), "y": round(y * ratio)}


def test_a_cell_with_no_locator_is_clicked_by_its_place_in_the_screenshot(seen, seeing_model, site):
    seen.show(site.url("cell-board.html"))
    model = seeing_model
    model.script(tool_call("screenshot", locator="#board"), tool_call("click_at", **in_board_picture(seen, 6)), Reply(text="Marked."))
    seen.send("Mark the middle cell of the right column")
    asked = seen.question(0)
    assert asked["message"] == "Click the point marked in the picture, on the div."
    assert asked["details"]["page"] == site.url("cell-board.html") and asked["details"]["element"] == "div"
    shown = seen.driver.find_element(By.CSS_SELECTOR, ".confirmation img.confirmation-picture")
    spot = picture(shown.get_attribute("src"))
    ratio = spot.width / 180  # 90 CSS pixels each side of the point, in device pixels
    centre = (spot.width // 2, spot.height // 2)
    assert near(spot.getpixel(centre), (221, 0, 0), 60), "the point is marked where the pointer will press"
    assert near(spot.getpixel((centre[0] + round(30 * ratio), centre[1] + round(20 * ratio))), (0xb0, 0xc0, 0xd0), 40)
    seen.screenshot("click-at-confirmation")
    seen.answer_question(0, "once")
    seen.wait_for_status("ok")
    assert seen.in_page(LOG) == "clicked c6"
    assert '"summary": "Click the point marked in the picture, on the div."' in told(model, 2)


def test_a_point_outside_the_picture_or_with_no_screenshot_is_refused_in_words(seen, seeing_model, site):
    seen.show(site.url("cell-board.html"))
    seeing_model.script(tool_call("click_at", x=20, y=20), tool_call("screenshot", locator="#board"), tool_call("click_at", x=5000, y=10),
                        Reply(text="No."))
    seen.send("Mark a cell")
    seen.wait_for_status("ok")
    assert told(seeing_model, 1).startswith("No screenshot of this page was taken in this turn")
    assert "is outside the last screenshot" in told(seeing_model, 3)
    assert seen.question_boxes() == [] and seen.in_page(LOG) == "nothing yet"


def test_red_team_a_page_that_moves_another_cell_under_the_point_while_asked_gets_nothing_clicked(seen, seeing_model, site):
    seen.show(site.url("cell-board.html"))
    seeing_model.script(tool_call("screenshot", locator="#board"), tool_call("click_at", **in_board_picture(seen, 5)), Reply(text="Done?"))
    seen.send("Mark the centre cell")
    seen.question(0)
    seen.in_page("swapCells('c5', 'c1')")  # the page's own script, between the question and the answer
    seen.answer_question(0, "once")
    seen.wait_for_status("ok")
    assert "Nothing was done: the page changed what the user confirmed" in told(seeing_model, 2)
    assert "the element the user saw has been replaced or moved" in told(seeing_model, 2)
    assert seen.in_page(LOG) == "nothing yet"


def order(tabs):
    return tabs.in_page("return [...document.querySelectorAll('#list li')].map((li) => li.textContent).join(', ')")


@pytest.mark.parametrize("page", ["sortable-pointer.html", "sortable-dnd.html"])
def test_a_list_is_sorted_by_drag_both_ways(tabs, site, page):
    tabs.show(site.url(page))
    down = tabs.tool_reply("drag", source="#apple", target="#damson")
    assert down["ok"], down
    # Dropped past the target's centre in the direction of travel, as a person drops: it takes the
    # target's place (on the exact centre the list kept it above: issue 51, 0 of 6 moved down).
    assert order(tabs) == "Banana, Cherry, Damson, Apple" == tabs.in_page(LOG)
    up = tabs.tool_reply("drag", source="#damson", target="#banana")
    assert up["ok"], up
    assert order(tabs) == "Damson, Banana, Cherry, Apple" == tabs.in_page(LOG)
    used = "HTML drag and drop" if page == "sortable-dnd.html" else "pointer and mouse"
    assert used in up["result"]["result"]


def test_a_drag_by_the_screenshots_points_is_asked_naming_both_ends(seen, seeing_model, site):
    seen.show(site.url("sortable-dnd.html"))
    scale = seen.in_page("const r = devicePixelRatio; return r * Math.min(1, 1568 / (Math.max(innerWidth, innerHeight) * r))")
    centre = "const b = document.getElementById(arguments[0]).getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]"
    ends = [",".join(str(round(v * scale)) for v in seen.in_page(centre, name)) for name in ("damson", "banana")]
    seeing_model.script(tool_call("screenshot"), tool_call("drag", source=ends[0], target=ends[1]), Reply(text="Moved."))
    seen.send("Put Damson before Banana")
    asked = seen.question(0)
    assert asked["message"] == "Drag the li “Damson” onto the li “Banana”."
    assert asked["details"]["element"] == "li “Damson”" and asked["details"]["target"] == "li “Banana”"
    seen.screenshot("drag-confirmation")
    seen.answer_question(0, "once")
    seen.wait_for_status("ok")
    assert order(seen) == "Apple, Damson, Banana, Cherry"


FRAMED = """<!DOCTYPE html><html lang="en"><head><title>Cards</title></head><body>
<div id="card" draggable="true" style="width:120px;height:40px;background:#fdd">Card</div>
<iframe id="frame" src="{frame}" style="width:300px;height:150px"></iframe><p id="log">nothing yet</p>
<script>
  for (const type of ["pointerdown", "mousedown", "dragstart", "drop"]) {{
    document.addEventListener(type, () => {{ document.getElementById("log").textContent = type; }}, true);
  }}
</script></body></html>"""


def test_red_team_a_drag_onto_a_frame_of_a_site_never_allowed_is_refused_by_the_settings(seen, seeing_model, tmp_path):
    """The page is on a site the settings allow (no question); its frame is on one they never
    allow: the end of the drag decides, so nothing is done and the user's rule is on record."""
    (tmp_path / "frame").mkdir()
    (tmp_path / "frame" / "inbox.html").write_text("<!DOCTYPE html><title>Inbox</title><p>Drop files here</p>")
    with PageServer(tmp_path / "frame") as other:
        framed = other.url("inbox.html").replace("127.0.0.1", "localhost")  # another host: another site
        (tmp_path / "cards.html").write_text(FRAMED.format(frame=framed))
        with PageServer(tmp_path) as pages:
            try:
                seen.configure(seeing_model.base_url, model="scripted-vision",
                               site_rules=f"127.0.0.1:{pages.port}: allow\nlocalhost:{other.port}: never")
                seen.show(pages.url("cards.html"))
                seeing_model.script(tool_call("drag", source="#card", target="#frame"), Reply(text="I could not."))
                seen.send("Drop the card into the inbox")
                seen.wait_for_status("ok")
                [box] = seen.question_boxes()
                assert box.get_attribute("data-state") == "refused_by_settings"
                assert told(seeing_model, 1).startswith("The user denied this drag: nothing was done.")
                assert seen.in_page(LOG) == "nothing yet"
            finally:
                seen.configure(seeing_model.base_url, agent="tool_calling", model="scripted-vision")
