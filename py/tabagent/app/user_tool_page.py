"""The page, as the developer's own tools reach it: `page` in their code, bound to the
user's tab for the length of one tool call (`with_page`).

A user tool reads the page during a turn in the browser (reading only: acting on a page
needs the user's consent, which only the built-in action tools ask for):

    from tabagent.app.user_tools import page                 # re-exported there for tool files
    found = await page.run_page_tool("query_page", selector="h1")     # the content script's data
    text = await page.read_page()                            # what the built-in tool returns

What a tool that read the page returns reaches the model marked as page content
(untrusted_content.py), unless the tool marked it itself with `page.untrusted`.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass

from .page_bridge import failure
from .page_tools import READING, PageReader
from .untrusted_content import collecting_marked, stop_collecting, untrusted
from ..tools import Tool, format_result


class PageUnavailable(RuntimeError):
    """A user tool asked for the page where there is none (the command line, a test)."""


class PageError(RuntimeError):
    """The browser could not do what the tool asked (a chrome:// page, no such element...)."""


@dataclass
class _OnPage:
    bridge: object
    consent: object = None  # who runs the tool (consent.AskTheUser), for a workflow's replay
    tool: str = ""  # the tool's name: a workflow's replay asks in it
    url: str = ""  # the address of the last page read, for marking text from it
    read: bool = False  # has the tool read anything from the page?


# Set for the length of one tool call by `with_page`: a context variable, not a global, since
# several turns may run at once, and the sandbox calls tools back from callbacks of its own.
_current: contextvars.ContextVar[_OnPage | None] = contextvars.ContextVar("tabagent_page", default=None)

# What `page.run_page_tool` may ask for: the reading tools by their bridge names (read_tab is read_page
# on another tab). Actions are left out on purpose: they go through the user's consent.
CALLABLE = tuple(name for name in READING if name != "read_tab")


class Page:
    """The page the user is on, as a user tool's code reaches it during a turn."""

    async def run_page_tool(self, name: str, **args):
        """Runs one reading tool of the content script (CALLABLE) with its own argument names
        and returns its result as data; raises PageError with the browser's sentence."""
        if name not in CALLABLE:
            raise ValueError(f"page.run_page_tool can run {', '.join(CALLABLE)}; not {name!r}")
        state = self._state(name)
        state.read = True
        reply = await state.bridge.run_page_tool(name, args)
        if not reply.get("ok"):
            raise PageError(failure(reply, f"{name} failed, and the browser did not say why."))
        state.url = reply.get("url") or state.url
        return reply["result"]

    def untrusted(self, text: str) -> str:
        """`text` from the page, marked for the model as the built-in tools mark theirs, so
        that instructions written on a page are not taken for the user's."""
        state = _current.get()
        return untrusted(state.url if state else "", text)

    def __getattr__(self, name: str):
        # page.read_page(), page.extract_tables(...): the built-in tools' exact results.
        if name in READING:
            state = self._state(name)
            state.read = True
            return getattr(PageReader(state.bridge), name)
        raise AttributeError(f"page has no {name!r}; it has call, untrusted, {', '.join(READING)}")

    @staticmethod
    def _state(name: str) -> _OnPage:
        state = _current.get()
        if state is None:
            raise PageUnavailable(f"{name}: there is no page here; this tool reads the user's "
                                  f"tab, which only exists when TabAgent runs in the browser.")
        return state


page = Page()


def acting_on_page(name: str):
    """(bridge, asking) of the turn a tool is running in, for a saved workflow's actions
    (workflows.py), which ask the user as the agent's own do, in the name of the workflow's
    replay (consent.py). Raises PageUnavailable where there is no page or no one to ask (the
    command line, the Tools view's hand call)."""
    state = Page._state(name)
    if state.consent is None:
        raise PageUnavailable(f"{name}: a workflow acts on the page only in a turn, where each action is "
                              f"asked of the user: run it from the composer.")
    return state.bridge, state.consent.replaying(state.tool)


def with_page(tools, bridge) -> list[Tool]:
    """`tools` as one turn runs them: in their code, `page` is the page behind `bridge`
    (the same bridge the turn's page tools use). With no bridge, the tools as they are."""
    return list(tools) if bridge is None else [PageBound(t, bridge) for t in tools]


class PageBound(Tool):
    consent = None  # set by the turn (turns.build_agent): the turn's asking, whose replays ask in their own name

    def __init__(self, tool: Tool, bridge):
        self.tool, self.bridge = tool, bridge
        self.name, self.description = tool.name, tool.description
        self.inputs, self.output_type = tool.inputs, tool.output_type
        self.example = getattr(tool, "example", False)  # an example stays off the list (tool_set.py)

    @property
    def parameters(self) -> dict:
        return self.tool.parameters

    def bind(self, args, kwargs) -> dict:
        return self.tool.bind(args, kwargs)

    def validate(self, arguments: dict) -> None:
        self.tool.validate(arguments)

    async def __call__(self, *args, **kwargs):
        state = _OnPage(self.bridge, self.consent, self.name)
        token = _current.set(state)
        marked, collecting = collecting_marked()
        try:
            value = await self.tool(*args, **kwargs)
        finally:
            _current.reset(token)
            stop_collecting(collecting)
        # A tool that read the page returns page text: marked, unless the tool marked it itself.
        if state.read and format_result(value) not in marked:
            return untrusted(state.url, format_result(value))
        return value
