"""A page tab the user is "on" and the chat beside it, in Firefox: the page tools act on the
tab looked at last before the chat (background/page-access.js `userTab`), so `show` loads a
page in the page tab, looks at it, and comes back to the chat."""

from __future__ import annotations

from .sidebar import ask_background, open_chat


class PageTab:
    def __init__(self, firefox, chat: str | None = None):
        """A new page tab, beside a new chat or the one given (the user moving to another tab)."""
        self.firefox = firefox
        self.page = firefox.open_tab("about:blank")
        self.chat = chat or open_chat(firefox)

    def show(self, url: str, wait: str = "complete") -> None:
        self.firefox.send("browsingContext.navigate", {"context": self.page, "url": url, "wait": wait})
        self.firefox.send("browsingContext.activate", {"context": self.page})
        self.firefox.send("browsingContext.activate", {"context": self.chat})

    def call(self, name: str, **args) -> str:
        """The text the Python tool returned: exactly what a model would read."""
        return ask_background(self.firefox, self.chat, "call-tool", name=name, args=args)["result"]
