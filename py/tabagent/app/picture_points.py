"""Points of a screenshot, found on the page: a click by position or a drag names a point in the
pixels of the last screenshot the model was shown; this finds it in CSS pixels of the page's
viewport, where the content script looks for what is there (extension/content/points.js).

The picture was cut (one element, when asked) from a capture in device pixels and scaled down
to what models take in; `area` (extension/shared/pictures/screenshot-canvas.js) says which part
of the viewport it shows, in CSS pixels, and how far the page was scrolled then. So pixel
(x, y) of a picture `width` × `height` is at (left + x·area width / width, top + y·area height /
height) of the viewport: device pixel ratio, zoom, cropping and scaling all cancel out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..our_notes import our_note

NO_PICTURE = our_note("No screenshot of this page was taken in this turn, so there are no coordinates to go by: "
                      "take one with screenshot(), then give a point of it.")
OTHER_PAGE = our_note("The last screenshot was of {was}, not of this page ({now}): take a screenshot of this page, "
                      "then give a point of it.")
OUTSIDE = "The point ({x}, {y}) is outside the last screenshot, which is {width}×{height} pixels."
POINT = re.compile(r"\A\s*\(?\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)?\s*\Z")


@dataclass(frozen=True)
class Picture:
    url: str
    width: int
    height: int
    area: dict  # left, top, width, height (CSS pixels of the viewport), scroll_x, scroll_y


def without_fragment(url: str | None) -> str:
    return (url or "").split("#", 1)[0]


class LastScreenshot:
    """The last screenshot of a page the model was shown in this turn, to find its points."""

    def __init__(self):
        self.picture: Picture | None = None

    def keep(self, shot: dict, url: str) -> None:
        """A screenshot that went to the model (of the whole view or one element)."""
        area = shot.get("area")  # none: a tab that is not a web page (a PDF), or another tab
        self.picture = Picture(url, shot["width"], shot["height"], area) if area else None

    def point(self, x: float, y: float) -> dict | str:
        """The point in the page's viewport ({x, y, scroll_x, scroll_y}), or why there is none."""
        shot = self.picture
        if shot is None:
            return NO_PICTURE
        if not (0 <= x <= shot.width and 0 <= y <= shot.height):
            return OUTSIDE.format(x=x, y=y, width=shot.width, height=shot.height)
        area = shot.area
        return {"x": area["left"] + x * area["width"] / shot.width, "y": area["top"] + y * area["height"] / shot.height,
                "scroll_x": area["scroll_x"], "scroll_y": area["scroll_y"]}

    def not_of(self, page_url: str | None) -> str | None:
        """Why the picture's points are not of the page an action is on (None: they are)."""
        shot = self.picture
        if shot is None:
            return NO_PICTURE
        if without_fragment(shot.url) != without_fragment(page_url):
            return OTHER_PAGE.format(was=shot.url, now=page_url)
        return None

    def end(self, text: str) -> dict | str:
        """One end of a drag: "x,y" is a point of the picture; anything else a locator or selector."""
        found = POINT.match(str(text))
        return self.point(float(found[1]), float(found[2])) if found else {"locator": text}
