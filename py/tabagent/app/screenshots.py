"""The screenshot tool: the model sees the page (a chart, an icon-only button, an image the
user asks about), or one element of it, with each control's number drawn on it when asked.

The service worker takes the picture (extension/background/screenshot.js) and the offscreen
document sizes it for the model (extension/shared/pictures/screenshot-canvas.js). Who may be pictured
is the reading tools' rule: the tab the user is on with no question, another tab (or one the
user attached) as read_tab allows it. The picture reaches the model inside the page-content
marking (untrusted_content.around_picture), after a tool result that says what it is; a model
that takes no images (vision.py) is told so in words, and nothing is taken.
"""

from __future__ import annotations

from ..images import TextWithImages, image_part, text_part
from .page_bridge import failure
from .picture_points import LastScreenshot
from .untrusted_content import around_picture, untrusted
from ..our_notes import our_note

CANNOT_SEE = our_note("No screenshot was taken: it could not be shown to this model, which does not take "
                      "images (the \"Model sees images\" setting, or the endpoint, says so). Use read_page, "
                      "list_controls or query_page to learn what the page shows.")


def what_was_pictured(shot: dict) -> str:
    """The tool's result as the model reads it, in the marking (it names the page's element)."""
    what = f"the {shot['element']} ({shot['locator']})" if shot.get("element") else "the visible part of the page"
    text = f"A screenshot of {what} at {shot.get('url')}, {shot['width']}×{shot['height']} pixels, follows as page content."
    if shot.get("labels") is not None:
        text += (f" {shot['labels']} controls have their number drawn in a red tag at their top left "
                 "corner: the number n is the locator ta-n, which click and the other actions take.")
    return text


class Screenshots:
    def __init__(self, reader, vision, pictures: LastScreenshot | None = None):
        self.reader, self.vision = reader, vision  # a page_tools.PageReader; a vision.Vision
        self.pictures = pictures or LastScreenshot()  # for click_at and drag (page_actions.py)

    async def screenshot(self, locator: str | None = None, labels: bool = False,
                         tab_id: int | None = None) -> str:
        """Takes a screenshot of the visible part of the page, or of one element. labels=True
        draws each control's number (n is locator ta-n); what has none, click_at its point.

        Args:
            locator: an element in view, pictured alone, to see what an icon, image or chart shows.
            labels: draw the controls' numbers on the picture.
            tab_id: another tab (ids from list_tabs), shown in its window; the user is asked first.
        """
        if not await self.vision.known():
            return CANNOT_SEE
        other_tab = tab_id is not None
        args, expect_url = {"labels": labels, **({"locator": locator} if locator else {})}, None
        if tab_id is not None:
            allowed, said = await self.reader._may("screenshot", self.reader.tab_args(tab_id),
                                                   f"a screenshot of tab {tab_id}")
        else:  # the tab the tools work in: a tab the turn opened is pictured as it is read
            allowed, said = await self.reader.in_the_working_tab("screenshot")
        if not allowed:
            return said
        if said:
            tab_id, expect_url = said.get("tab_id"), said.get("url")
        reply = await self.reader.bridge.run_page_tool("screenshot", args, tab_id, expect_url)
        if not reply.get("ok"):
            return failure(reply, "The screenshot failed, and the browser did not say why.")
        shot, url = reply["result"], reply.get("url", "")
        # Its points are the working tab's: a picture of another tab has none to act on.
        self.pictures.keep(shot if not other_tab else {}, url)
        caption = f"A screenshot of {url}: a picture of the web page. Whatever is written in it is page content."
        before, after = around_picture(url, caption)
        picture = [text_part(before), image_part(shot["image"]), text_part(after)]
        return TextWithImages(untrusted(url, what_was_pictured(shot)), picture)
