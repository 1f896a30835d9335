"""Click by position and drag, on the Python side: a point of the picture the model saw is found
on the page whatever the device pixel ratio, the crop and the scaling; the question carries a
picture of the spot; the element at each point decides the site (a `never` site's frame is
refused by the settings, with no question; another site's frame is never acted in)."""

from tabagent.app.consent import Actor, Consent
from tabagent.app.page_tools import page_tools
from tests.helpers.pictures import SPOT, screenshot_reply
from tabagent.app.picture_points import LastScreenshot
from tabagent.app.site_rules import parse_site_rules

PAGE = "https://shop.example/board"
FRAME_SITE = "https://bank.example"


def shot(size, **area):
    return {"width": size[0], "height": size[1], "area": {"scroll_x": 0, "scroll_y": 0, **area}}


def test_a_point_of_a_scaled_picture_of_a_zoomed_page_is_found_in_css_pixels():
    pictures = LastScreenshot()
    # A 2,000 × 1,000 CSS pixel viewport at device pixel ratio 2, scaled to a long side of 1,568.
    pictures.keep(shot((1568, 784), left=0, top=0, width=2000, height=1000, scroll_y=300), PAGE)
    assert pictures.point(784, 392) == {"x": 1000.0, "y": 500.0, "scroll_x": 0, "scroll_y": 300}


def test_a_point_of_one_elements_picture_is_moved_by_where_the_element_is():
    pictures = LastScreenshot()
    pictures.keep(shot((520, 260), left=40, top=60, width=260, height=130), PAGE)  # ratio 2, not scaled
    assert pictures.point(260, 130) == {"x": 170.0, "y": 125.0, "scroll_x": 0, "scroll_y": 0}
    assert pictures.end("260, 130") == pictures.point(260, 130) and pictures.end("ta-4") == {"locator": "ta-4"}


def test_no_picture_a_point_outside_it_or_another_page_is_said_in_words():
    pictures = LastScreenshot()
    assert pictures.point(1, 1).startswith("No screenshot of this page")
    pictures.keep(shot((100, 100), left=0, top=0, width=100, height=100), PAGE)
    assert "outside the last screenshot, which is 100×100" in pictures.point(101, 5)
    assert pictures.not_of(PAGE + "#top") is None and "not of this page" in pictures.not_of("https://shop.example/other")


class Page:
    """The service worker: a described click by position or drag, a picture, the action."""

    def __init__(self, sites, decisions=("once",), out_of_reach=None):
        self.sites, self.decisions, self.out_of_reach = sites, list(decisions), out_of_reach
        self.calls, self.asked = [], []

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
        self.calls.append((name, args))
        if name == "screenshot":
            return screenshot_reply(PAGE)
        if name == "describe_action":
            described = {"action": args["name"], "summary": "Drag the card onto the frame.", "page_url": PAGE,
                         "plan_id": "p1", "points": [{"x": 10, "y": 10}], "sites": self.sites,
                         "element": {"summary": "div “Card”", "locator": "ta-1"}}
            if self.out_of_reach:
                described["out_of_reach"] = self.out_of_reach
            return {"ok": True, "tab_id": 7, "url": PAGE, "result": described}
        return {"ok": True, "url": PAGE, "result": {"done": name}}

    async def confirm(self, ask_id, tool, message, details):
        self.asked.append(details)
        return self.decisions.pop(0)


def tools_for(page, rules=""):
    consent = Consent(page, parse_site_rules(rules)[0], record).asking(Actor("model", "TabAgent"))
    return {t.name: t for t in page_tools(page, consent)}, consent


EVENTS = []


async def record(kind, data):
    EVENTS.append((kind, data))


async def test_the_question_shows_the_spot_pictured_and_the_action_runs_with_the_plan_the_user_saw():
    page = Page(["https://shop.example"])
    tools, _ = tools_for(page)
    await tools["screenshot"]()
    result = await tools["click_at"](x=200, y=150)
    assert page.asked[0]["picture"] == SPOT
    described = [args for name, args in page.calls if name == "describe_action"][0]
    assert described["args"] == {"x": 400.0, "y": 300.0, "scroll_x": 0, "scroll_y": 0}
    assert page.calls[-1] == ("click_at", {**described["args"], "plan_id": "p1"}) and "done" in result


async def test_a_frame_of_a_site_never_allowed_is_refused_by_the_settings_without_a_question():
    EVENTS.clear()
    page = Page(["https://shop.example", FRAME_SITE], out_of_reach="Nothing was done: a frame from another site.")
    tools, _ = tools_for(page, "shop.example: allow\nbank.example: never")
    result = await tools["drag"](source="ta-1", target="ta-2")
    assert result.startswith("The user denied this drag") and page.asked == []
    assert [e["decision"] for _, e in EVENTS if "decision" in e] == ["refused_by_settings"]
    assert [e["site"] for _, e in EVENTS] == [FRAME_SITE, FRAME_SITE]
    assert [name for name, _ in page.calls] == ["describe_action"]


async def test_another_sites_frame_that_is_not_refused_is_still_never_acted_in_nor_asked():
    page = Page(["https://shop.example", "https://other.example"], out_of_reach="Nothing was done: a frame from another site.")
    tools, _ = tools_for(page)
    assert await tools["drag"](source="ta-1", target="ta-2") == "Nothing was done: a frame from another site."
    assert page.asked == [] and [name for name, _ in page.calls] == ["describe_action"]


async def test_a_drag_across_two_sites_is_asked_with_no_offer_for_one_site_and_no_allow_rule_answering():
    page = Page(["https://shop.example", "https://other.example"])
    tools, consent = tools_for(page, "shop.example: allow\nother.example: allow")
    await tools["drag"](source="ta-1", target="ta-2")
    assert len(page.asked) == 1 and consent.consent.allowances == []
