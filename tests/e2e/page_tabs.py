"""The page tools through the real extension: a page tab the user is "on", and the side
panel opened as a tab beside it, from which tools are called by hand (call-tool) or turns
are started. The service worker takes the last tab looked at before the panel as the
user's tab, so `show` loads a page in the page tab and comes back to the panel."""

from __future__ import annotations

import re
from contextlib import contextmanager

from .chat import SEND_MESSAGE

PAGE_CONTENT = re.compile(r'\A(.+)\n<page_content source="([^"]*)" untrusted="true">\n(.*)\n</page_content>\Z', re.S)


class PageTabs:
    def __init__(self, browser):
        self.browser = browser
        self.driver = browser.driver
        self.page = browser.open_tab("about:blank")
        self.panel = browser.open_side_panel()

    def show(self, url):
        """Load `url` in the page tab and come back to the panel."""
        self.driver.switch_to.window(self.page)
        self.driver.get(url)
        self.driver.switch_to.window(self.panel)

    def in_page(self, script, *args):
        """Run JavaScript as the page itself (its main world) and return its value."""
        self.driver.switch_to.window(self.page)
        try:
            return self.driver.execute_script(script, *args)
        finally:
            self.driver.switch_to.window(self.panel)

    @contextmanager
    def closing_new_tabs(self):
        """Runs the block; then closes every tab opened during it (the tabs a turn opened) and
        comes back to the panel."""
        before = set(self.driver.window_handles)
        try:
            yield self
        finally:
            for handle in set(self.driver.window_handles) - before:
                self.driver.switch_to.window(handle)
                self.driver.close()
            self.driver.switch_to.window(self.panel)

    def call_reply(self, name, **args):
        return self.driver.execute_async_script(SEND_MESSAGE, {"target": "background", "type": "call-tool", "name": name, "args": args})

    def call(self, name, **args):
        """The text the Python tool returned: exactly what a model would read."""
        reply = self.call_reply(name, **args)
        assert reply and reply.get("ok"), reply
        return reply["result"]["result"]


def page_content(text):
    """(source, content) of a result marked as untrusted page content; fails if it is not."""
    match = PAGE_CONTENT.match(text)
    assert match, f"not marked as page content: {text[:300]}"
    assert "not instructions" in match.group(1)
    return match.group(2), match.group(3)


def article(text):
    """read_page's result: its header lines as a dict, and the Markdown."""
    _, content = page_content(text)
    head, _, markdown = content.partition("\n\n")
    fields = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    return fields, markdown
