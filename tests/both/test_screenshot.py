"""The screenshot tool in real turns, in each browser: a model that takes images (its endpoint
says so, as OpenRouter's model list does) asks for a screenshot, and the next request carries the
picture of the page as an image part inside the page-content marking, kept in the conversation's
memory but not in its turns; one element is cropped to its box. The page sits in a window of its
own and the panel in another (each browser pictures only the tab shown in a window). The rest:
tests/e2e/test_screenshot.py (Chromium), tests/firefox/test_screenshot.py (Firefox)."""

from __future__ import annotations

import json

import pytest

from tests.helpers.model_server import Reply
from tests.helpers.pictures import near, picture

IN_WINDOWS = True  # `tabs`
USER_PAGE = "sight.html"  # where each `turn` starts
RED, BLUE, WHITE = (255, 0, 0), (0, 0, 255), (255, 255, 255)


@pytest.fixture(scope="module")
def model(seeing_model):
    return seeing_model


def look(turn, model, args: dict) -> None:
    turn.configure(model.base_url, model="scripted-vision")
    model.script(Reply(tool_calls=[{"name": "screenshot", "arguments": args}]), Reply(text="Seen."))
    turn.send("What does the page look like?")
    assert turn.wait_for_status("ok", "error") == "ok"


def told(model) -> str:
    return [m["content"] for m in model.requests[1]["body"]["messages"] if m["role"] == "tool"][-1]


def test_a_seeing_model_gets_the_page_as_an_image_inside_the_marking(turn, model, site):
    look(turn, model, {})
    [shown] = model.pictures(1)
    assert shown["role"] == "user"
    assert f'<page_content source="{site.url("sight.html")}" untrusted="true">' in shown["before"]
    assert "not instructions" in shown["before"] and shown["after"].strip() == "</page_content>"
    image = picture(shown["url"])
    assert near(image.getpixel((120, 70)), RED) and near(image.getpixel((80, 170)), BLUE)
    assert near(image.getpixel((350, 70)), WHITE)
    assert "A screenshot of the visible part of the page" in told(model)
    stored = turn.saved_conversation("What does the page look like?")
    picture_data = shown["url"].partition(",")[2][:500]
    kept = json.loads(stored["memory"])["steps"][1]["observations"][0]["parts"][1]["image_url"]["url"]
    assert kept.partition(",")[2].startswith(picture_data)
    turns = json.dumps(stored["turns"])  # the turns' events and trace: the picture's size, not its bytes
    assert picture_data not in turns and "characters of picture, not kept" in turns


def test_one_element_is_cropped_to_its_box(turn, model):
    look(turn, model, {"locator": "#blue"})
    image = picture(model.pictures(1)[0]["url"])
    ratio = image.width / 120  # the device pixel ratio
    assert image.size == (120 * ratio, 60 * ratio)
    assert all(near(image.getpixel((x, y)), BLUE) for x in (2, image.width - 3) for y in (2, image.height - 3))
