"""Page tools: reading the page the user is on, and the other tabs of the window.

Each tool is a method whose docstring is the schema the model reads; the argument names
are the content script's own (extension/content/), so a call goes through unchanged.
What a tool returns is marked as untrusted page content (untrusted_content.untrusted). A page
the browser does not let the extension read (chrome://, the Web Store) gives a
sentence saying so, as the result: the model can tell the user, and the turn goes on.

    tools = page_tools(bridge, consent.asking(actor))   # reading and acting tools (consent.py)
"""

from __future__ import annotations

from typing import Literal

from .consent import RefusedWithoutAsking
from .downloads import Downloads, UnnamedDownloads, telling_late_downloads
from .page_actions import ACTING, BY_POSITION, HOW_PRESSED, PageActor
from .picture_points import LastScreenshot
from .page_bridge import as_json, failure
from .no_such_part import controls_part_refused, text_part_refused
from .untrusted_content import untrusted
from .wire import PAGE_TOOL_DEFAULTS
from .screenshots import Screenshots
from .working_tab import WorkingTab, about_the_window
from ..vision import Vision
from ..tools import FunctionTool, Refused, Tool
from ..our_notes import our_note

# The content scripts apply the same defaults (wire.py), so page.run_page_tool gets what these give.
DEFAULT = PAGE_TOOL_DEFAULTS
PART_TOKENS = PAGE_TOOL_DEFAULTS["read_page"]["max_tokens"]
HTML_CHARS = PAGE_TOOL_DEFAULTS["page_html"]["max_chars"]

READING = ("read_page", "list_controls", "wait_for", "get_selection", "find_in_page", "query_page",
           "list_links", "extract_tables", "page_html", "list_tabs", "read_tab")
SEEING = ("screenshot",)
CHOOSING_THE_TAB = ("switch_tab",)
DOWNLOADED = ("read_download",)  # the files the working tab downloaded in this turn (downloads.py)
# How much a reading tool gives: left out of the schema the model is shown, named with their
# defaults in the description (tools.Tool.unlisted), still taken when a model sends them.
SIZE_KNOBS = ("max_results", "max_chars", "context_chars", "max_tables", "max_rows", "max_controls")


def article_text(result: dict) -> str:
    """read_page's result as the model reads it: what the page is, then its Markdown."""
    lines = [f"Title: {result.get('title') or '(none)'}", f"URL: {result.get('url')}"]
    for key, label in (("byline", "Byline"), ("site_name", "Site"), ("published_time", "Published"),
                       ("lang", "Language")):
        if result.get(key):
            lines.append(f"{label}: {result[key]}")
    lines.append(f"Length: {result.get('length')} characters of Markdown; "
                 f"this is page {result.get('page')} of {result.get('pages')}")
    if result.get("note"):
        lines.append(result["note"])
    return "\n".join(lines) + just_changed_text(result.get("just_changed")) + "\n\n" + (result.get("markdown") or "")


def just_changed_text(said) -> str:
    """What the page says in its status, alert and live regions and dialogs, and text new since
    the last read (content/just-changed.js): first, since it is often the outcome of the last action."""
    if not isinstance(said, list) or not said:
        return ""
    lines = [f"- ({item.get('kind')}) {item.get('text')}" for item in said if isinstance(item, dict)]
    return "\n\nWhat the page is saying now, and text new since the last read:\n" + "\n".join(lines)


def controls_text(result: dict) -> str:
    """list_controls' result as the model reads it: a line saying how many, then one per control."""
    head = f"{result.get('count')} controls on {result.get('url')}; this is part {result.get('page')} of {result.get('pages')}."
    lines = [head] + ([result["note"]] if result.get("note") else [])
    return "\n".join(lines) + ("\n\n" + result["controls"] if result.get("controls") else "")


SMALL_PARTS = our_note("TabAgent's note: you set max_tokens={asked}, so this page comes in {pages} parts; it is "
                       "about {tokens} tokens in all. Call {tool} without max_tokens to read it {how}.")


def parts_at(length: int, part_tokens: int) -> int:
    """About how many parts a page of `length` characters of Markdown comes in at `part_tokens`
    a part (content/read-page.js: 4 characters a token)."""
    return max(1, -(-int(length) // (part_tokens * 4)))


OTHER_TAB_DENIED = our_note("The user did not allow {what}: nothing was read. Do not try to get it another "
                            "way; go on with the tab the user is on, or ask the user.")


def shows_attached_site(described: dict) -> bool:
    """A tab the user attached that still shows the site (origin) its chip showed: they chose
    it, so it is read with no question. Gone to another site, it is not what they chose."""
    return bool(described.get("attached_site")) and described.get("site") == described["attached_site"]


def shows_the_site_allowed(described: dict) -> bool:
    """An attached tab on its site, or a tab the user allowed the agent to open (or send to an
    address) that still shows that site: read with no question."""
    opened = bool(described.get("opened_site")) and described.get("site") == described["opened_site"]
    return shows_attached_site(described) or opened


class PageReader:
    """The reading tools. Reading the tab the user is on needs no question; another tab is a
    boundary: list_tabs and read_tab of another tab ask the user first (`consent`, as the
    actions do), once per turn per tab and site when the user allows it for the turn. A tab
    the user attached (`attached`: tab id -> the address its chip showed) is read without a
    question while it shows that site. A tab this turn opened is never "the tab the user is
    on", even while they look at it: it is read and pictured unasked only on the site the user
    allowed it to open."""

    def __init__(self, bridge, consent=None, part_tokens=None, attached=None):
        self.bridge = bridge
        self.consent = consent or RefusedWithoutAsking()
        # part_tokens(default) -> the part size that suits the model's window (context_keeper.py)
        self.part_tokens = part_tokens or (lambda default: default)
        self.attached = dict(attached or {})
        self.told_small_parts = False  # read_page's note on parts the model made small: once a turn

    def tab_args(self, tab_id: int) -> dict:
        """read_tab's arguments for the service worker, with the address an attached tab showed."""
        url = self.attached.get(tab_id)
        return {"tab_id": tab_id, "attached_url": url} if url else {"tab_id": tab_id}

    async def _may(self, name: str, args: dict, what: str) -> tuple[bool, dict | str]:
        """(allowed, the description of what was allowed) or (False, the sentence for the model)."""
        plan = await self.bridge.run_page_tool("describe_action", {"name": name, "args": args})
        if not plan.get("ok"):
            return False, failure(plan, f"{name} cannot be done here.")
        described = plan["result"]
        if (described.get("user_is_on") and not args.get("opened_url")) or shows_the_site_allowed(described):
            return True, described
        details = {"url": described.get("url")} if described.get("url") else {}
        # Allowed for the turn means this tab on this site: gone elsewhere, it is asked again.
        tab = described.get("tab_id") if isinstance(described.get("tab_id"), int) else None
        if await self.consent.allows(name, described["summary"], details, sites=[described.get("site")],
                                     tab=tab, acts=False):
            return True, described
        return False, Refused(OTHER_TAB_DENIED.format(what=what))

    async def in_the_working_tab(self, name: str) -> tuple[bool, dict | str | None]:
        """Whether the tab the tools work in may be read (or pictured: `name`) now: the user's tab
        always (None); a tab this turn opened while it shows the site the user allowed, else
        after asking, as read_tab asks (the description of what was allowed, or the sentence)."""
        opened = getattr(self.bridge, "opened_for", lambda: None)()
        if opened is None:
            return True, None
        tab_id, url = opened
        return await self._may(name, {"tab_id": tab_id, "opened_url": url}, f"reading tab {tab_id}"
                               if name == "read_tab" else f"a screenshot of tab {tab_id}")

    async def _read(self, name: str, args: dict, show=as_json, tab_id=None, source=None, expect_url=None,
                    told=None, refused=None) -> str:
        """The tool's result, shown by `show` inside the untrusted marking; `told(result)`: what
        TabAgent says of it, after the marking (not page text); `refused(reply)`: the error of
        TabAgent's own a failed reply is, raised, or None (no_such_part.py)."""
        if tab_id is None and not about_the_window(name, args):
            allowed, said = await self.in_the_working_tab("read_tab")
            if not allowed:
                return said
            if said:  # read only if the tab still shows the page that was allowed
                tab_id, expect_url = said.get("tab_id"), said.get("url")
        reply = await self.bridge.run_page_tool(name, args, tab_id, expect_url)
        if not reply.get("ok"):
            if refused is not None and (mistake := refused(reply)) is not None:
                raise mistake
            return failure(reply, f"{name} failed, and the browser did not say why.")
        marked = untrusted(source or reply.get("url", ""), show(reply["result"]))
        said = told(reply["result"]) if told is not None else ""
        return f"{marked}\n{said}" if said else marked

    async def read_page(self, page: int = DEFAULT["read_page"]["page"], max_tokens: int | None = None) -> str:
        """Reads the user's page (main content) as Markdown, after its title, address, author,
        language and length. A long page comes in parts ("page 1 of 3"): call again with page=2
        for the next. Links show as text only; list_links gives their addresses.

        Args:
            page: which part, from 1.
            max_tokens: tokens per part, about (200 to 100000); leave out to fit your window.
        """
        return await self._read("read_page", {"page": page, "max_tokens": max_tokens or self.part_tokens(PART_TOKENS)},
                                article_text, told=self._small_parts("read_page()", max_tokens),
                                refused=lambda reply: text_part_refused(reply, "read_page", {}, bool(max_tokens)))

    def _small_parts(self, tool: str, asked: int | None):
        """What to tell of a read in parts smaller than the window fits, because the model asked
        for them (the 0.5B asked for max_tokens=200, the smallest the description names, and read
        eight times: issue 48's real-model bench): once a turn, how to read it whole."""
        fits = self.part_tokens(PART_TOKENS)

        def told(result: dict) -> str:
            pages, length = result.get("pages"), result.get("length")
            if self.told_small_parts or not isinstance(asked, int) or asked >= fits or not isinstance(pages, int) \
                    or not isinstance(length, int) or parts_at(length, fits) >= pages:
                return ""
            self.told_small_parts = True
            whole = parts_at(length, fits)
            how = "whole, in one part" if whole == 1 else f"in {whole} parts"
            return SMALL_PARTS.format(asked=asked, pages=pages, tokens=length // 4, tool=tool, how=how)
        return told

    async def list_controls(self, within: str | None = None, page: int = DEFAULT["list_controls"]["page"],
                            max_controls: int = DEFAULT["list_controls"]["max_controls"]) -> str:
        """Lists the page's controls, one a line: the locator the actions take, kind, name,
        value, state, and "below" or "above" when out of view.

        Args:
            within: a form or dialog (locator or CSS selector): only its controls.
            page: which part, from 1.
            max_controls: controls per part.
        """
        args = {"page": page, "max_controls": max_controls}
        if within is not None:
            args["within"] = within
        return await self._read("list_controls", args, controls_text,
                                refused=lambda reply: controls_part_refused(reply, within))

    async def wait_for(self, text: str | None = None, locator: str | None = None, gone: bool = False,
                       timeout: float = DEFAULT["wait_for"]["timeout_ms"] / 1000) -> str:
        """Waits until a text or an element appears on the page.

        Args:
            locator: an element to wait for (locator or CSS selector).
            gone: wait for it to go away instead.
            timeout: seconds at most (up to 20).
        """
        longest = DEFAULT["wait_for"]["longest_ms"] / 1000
        args = {"gone": gone, "timeout_ms": int(max(0, min(float(timeout), longest)) * 1000)}
        args.update({"text": text} if text is not None else {})
        args.update({"locator": locator} if locator is not None else {})
        return await self._read("wait_for", args)

    async def get_selection(self, context_chars: int = DEFAULT["get_selection"]["context_chars"]) -> str:
        """Gets the text the user selected on the page, with the text around it and the
        locator of its element.

        Args:
            context_chars: characters of text around it, each side.
        """
        return await self._read("get_selection", {"context_chars": context_chars})

    async def find_in_page(self, query: str, max_results: int = DEFAULT["find_in_page"]["max_results"],
                           context_chars: int = DEFAULT["find_in_page"]["context_chars"],
                           case_sensitive: bool = False) -> str:
        """Finds a phrase on the page, hidden too (a closed menu's items, folded parts): each
        match with the text around it and its element's locator, or a PDF's page.
        Something you see that list_controls lacks: find its text here.

        Args:
            query: the words to find (any whitespace between them matches).
            max_results: at most this many matches.
            context_chars: characters of text around each match, each side.
        """
        return await self._read("find_in_page", {"query": query, "max_results": max_results,
                                                 "context_chars": context_chars,
                                                 "case_sensitive": case_sensitive})

    async def query_page(self, selector: str, attributes: list[str] | None = None,
                         max_results: int = DEFAULT["query_page"]["max_results"],
                         max_chars: int = DEFAULT["query_page"]["max_chars"]) -> str:
        """Lists the elements matching a CSS selector: text, attributes and locator of each.

        Args:
            selector: a CSS selector (like "article h2") or a locator.
            attributes: the attributes to give (default: id, href, src, alt, title, name...).
            max_results: at most this many elements.
            max_chars: cut each element's text to this many characters.
        """
        args = {"selector": selector, "max_results": max_results, "max_chars": max_chars}
        if attributes is not None:
            args["attributes"] = attributes
        return await self._read("query_page", args)

    async def list_links(self, filter: str = "",
                         scope: Literal["all", "internal", "external"] = "all",
                         max_results: int = DEFAULT["list_links"]["max_results"]) -> str:
        """Lists the page's links: text, absolute URL, whether it stays on the site, locator.

        Args:
            filter: only links whose text or URL contains this (any case).
            scope: "internal": on the same site; "external": the others.
            max_results: at most this many links.
        """
        return await self._read("list_links", {"filter": filter, "scope": scope,
                                               "max_results": max_results})

    async def extract_tables(self, selector: str = "table", max_tables: int = DEFAULT["extract_tables"]["max_tables"],
                             max_rows: int = DEFAULT["extract_tables"]["max_rows"]) -> str:
        """Gets the page's data tables: column names (header rows joined by " / ")
        and rows of cell text; a cell spanning columns or rows is repeated in each.

        Args:
            selector: CSS selector of the tables, or of an element around them.
            max_tables: at most this many tables.
            max_rows: at most this many rows per table.
        """
        return await self._read("extract_tables", {"selector": selector, "max_tables": max_tables,
                                                   "max_rows": max_rows})

    async def page_html(self, selector: str | None = None, max_chars: int = HTML_CHARS,
                        keep_scripts: bool = False) -> str:
        """Gets the HTML of the page, or of the elements matching a CSS selector, without
        scripts, styles and comments unless keep_scripts.

        Args:
            selector: CSS selector or locator of the elements; leave out for the whole page.
            max_chars: cut the HTML to this many characters.
        """
        args = {"max_chars": max_chars, "keep_scripts": keep_scripts}
        if selector is not None:
            args["selector"] = selector
        return await self._read("page_html", args)

    async def list_tabs(self) -> str:
        """Lists the tabs of the user's window: id, title, address, and which the user is on;
        read_tab reads one."""
        allowed, said = await self._may("list_tabs", {}, "listing the tabs of the window")
        if not allowed:
            return said
        return await self._read("list_tabs", {}, source="the window's tabs")  # titles are page text

    async def read_tab(self, tab_id: int, page: int = DEFAULT["read_page"]["page"], max_tokens: int | None = None) -> str:
        """Reads another tab like read_page (page, max_tokens as there), without switching to it.

        Args:
            tab_id: its id, from list_tabs.
        """
        allowed, said = await self._may("read_tab", self.tab_args(tab_id), f"reading tab {tab_id}")
        if not allowed:
            return said
        # Read only if the tab still shows the page the user allowed.
        return await self._read("read_page", {"page": page, "max_tokens": max_tokens or self.part_tokens(PART_TOKENS)},
                                article_text, tab_id=tab_id, expect_url=said.get("url"),
                                told=self._small_parts(f"read_tab(tab_id={tab_id})", max_tokens),
                                refused=lambda reply: text_part_refused(reply, "read_tab", {"tab_id": tab_id},
                                                                        bool(max_tokens)))


def page_tools(bridge, consent, part_tokens=None, attached=None, vision=None) -> list[Tool]:
    """The page tools, reading, seeing and acting, as the agent's tools. `consent` asks the user
    before each action (consent.AskTheUser, in the acting actor's name); `part_tokens` sizes read_page's parts;
    `attached` are the tabs the user attached (PageReader); `vision` says whether the model takes
    images (vision.Vision; None: it does, as for a person calling the tool by hand)."""
    working = WorkingTab(bridge)  # the user's tab, or one the turn opened (switch_tab)
    pictures = LastScreenshot()  # the screenshot the model saw last, whose points it may act on
    reader, actor = PageReader(working, consent, part_tokens, attached), PageActor(working, consent, pictures)
    seer = Screenshots(reader, vision or Vision.fixed(True), pictures)
    downloads = Downloads(working, consent, part_tokens)
    tools = ([FunctionTool(getattr(reader, name), unlisted=SIZE_KNOBS) for name in READING]
             + [FunctionTool(getattr(downloads, name)) for name in DOWNLOADED]
             + [FunctionTool(getattr(seer, name)) for name in SEEING]
             + [FunctionTool(getattr(actor, name), unlisted=HOW_PRESSED) for name in ACTING + BY_POSITION]
             + [FunctionTool(getattr(working, name)) for name in CHOOSING_THE_TAB])
    for tool in tools:
        tool.forward = telling_late_downloads(working, tool.forward)  # a download that came late, in the next result
        tool.built_in = True  # a compact request lists only the core ones (tool_set.py)
        tool.acts = tool.name in (*ACTING, *BY_POSITION, *CHOOSING_THE_TAB)  # later calls wait; never a repeat
        if tool.name in DOWNLOADED:  # named by more_tools, listed when asked for (tool_set.py)
            tool.on_demand = "files the page downloaded"
            tool.before_answer = UnnamedDownloads(working).before_answer  # one that came after the last action
    return tools
