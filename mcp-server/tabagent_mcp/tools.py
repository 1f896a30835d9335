"""The page tools offered to MCP clients: TabAgent's own (py/tabagent/app/page_tools.py,
page_actions.py, screenshots.py), with the same names and parameters (a unit test compares
them). Each only passes the call to the extension, which runs the real one."""

from __future__ import annotations

from mcp.server.mcpserver import Context

from .server import call_extension, content_of


def client_name(ctx: Context | None) -> str:
    """The name the MCP client gave itself (its clientInfo), which the panel shows."""
    params = getattr(getattr(ctx, "session", None), "client_params", None) if ctx is not None else None
    info = getattr(params, "client_info", None)
    return str(getattr(info, "name", "") or "an MCP client")


async def _call(ctx: Context | None, tool: str, **args):
    given = {k: v for k, v in args.items() if v is not None}
    return content_of(await call_extension(tool, given, client_name(ctx)))


async def read_page(page: int = 1, ctx: Context | None = None):
    """Reads the user's current tab (its main content) as Markdown, after its title and address. A long page
    comes in parts ("page 1 of 3"): call again with page=2 for the next. The user sees the call in TabAgent's panel."""
    return await _call(ctx, "read_page", page=page)


async def list_controls(within: str | None = None, page: int = 1, ctx: Context | None = None):
    """Lists the page's controls, one a line: the locator the actions take (like "ta-12"), kind, name, value,
    state. within: a form or dialog (locator or CSS selector) to list only its controls."""
    return await _call(ctx, "list_controls", within=within, page=page)


async def find_in_page(query: str, ctx: Context | None = None):
    """Finds a phrase on the page: each match with the text around it and the locator of its element."""
    return await _call(ctx, "find_in_page", query=query)


async def list_tabs(ctx: Context | None = None):
    """Lists the browser's open tabs (id, title, address), once the user allows it in TabAgent's panel."""
    return await _call(ctx, "list_tabs")


async def screenshot(locator: str | None = None, labels: bool = False, ctx: Context | None = None):
    """A screenshot of the visible part of the user's tab, or of one element (locator). labels=True draws
    each control's number on it (14 is locator ta-14)."""
    return await _call(ctx, "screenshot", locator=locator, labels=labels)


async def click(locator: str, ctx: Context | None = None):
    """Clicks an element (a locator from list_controls or find_in_page, or a CSS selector), once the user
    allows it in TabAgent's panel."""
    return await _call(ctx, "click", locator=locator)


async def type_text(locator: str, text: str, clear: bool = True, submit: bool = False, ctx: Context | None = None):
    """Types into a text field, once the user allows it in TabAgent's panel. clear: replace what it holds;
    submit: then submit its form."""
    return await _call(ctx, "type_text", locator=locator, text=text, clear=clear, submit=submit)


async def select_option(locator: str, option: str | list[str], ctx: Context | None = None):
    """Chooses an option (by label or value) in a drop-down or list box, once the user allows it."""
    return await _call(ctx, "select_option", locator=locator, option=option)


async def check(locator: str, checked: bool = True, ctx: Context | None = None):
    """Checks (or, with checked=false, unchecks) a check box, radio button or switch, once the user allows it."""
    return await _call(ctx, "check", locator=locator, checked=checked)


async def press_key(key: str, locator: str | None = None, ctx: Context | None = None):
    """Presses a key ("Enter", "Escape", "Tab", "Control+a"...) on an element or the focused one, once the
    user allows it."""
    return await _call(ctx, "press_key", key=key, locator=locator)


async def scroll(to: str, ctx: Context | None = None):
    """Scrolls the page ("top", "bottom", "up", "down", or an element's locator), once the user allows it."""
    return await _call(ctx, "scroll", to=to)


async def navigate(url: str, ctx: Context | None = None):
    """Opens an http(s) address in the user's tab, once the user allows it in TabAgent's panel."""
    return await _call(ctx, "navigate", url=url)


TOOLS = (read_page, list_controls, find_in_page, list_tabs, screenshot, click, type_text, select_option,
         check, press_key, scroll, navigate)
