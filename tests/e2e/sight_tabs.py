"""For the screenshot tests: the page tab shown in its own window and the side panel in
another, as a real side panel sits beside the page (the browser pictures only the tab shown in
a window, and the e2e panel is a tab of its own); and what a recorded picture shows."""

from __future__ import annotations

import base64
import io

from PIL import Image


from .page_tabs import PageTabs


class WindowedTabs(PageTabs):
    """`other`: an address shown first in a window of its own (in front there, so the browser
    could picture it), opened before the page so that the page is the tab the user looked at last."""

    def __init__(self, browser, other: str | None = None):
        self.browser, self.driver = browser, browser.driver
        self.page = browser.open_tab(other or "about:blank")
        if other:
            self.driver.switch_to.new_window("window")
            self.page = self.driver.current_window_handle
        self.driver.switch_to.new_window("window")
        self.driver.get(browser.url("extension/sidepanel/sidepanel.html"))
        self.panel = self.driver.current_window_handle


def picture(data_url: str) -> Image.Image:
    """The picture a data URL holds, as RGB pixels."""
    head, _, data = data_url.partition(",")
    assert head in ("data:image/png;base64", "data:image/jpeg;base64"), head
    return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")


def near(colour, expected, slack=40) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(colour, expected))
