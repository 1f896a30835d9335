"""read_download: the file the page downloaded during this turn, as text.

The browsers give no extension a downloaded file's bytes (Chrome's and Firefox's `downloads`
API say what was downloaded, from where and when, never what), so the service worker finds the
download there and fetches it again from where it came, as the page's own request would
(extension/background/downloads.js; docs/security.md says with which cookies and why), and the
offscreen document reads it: text as it is, a PDF with pdf.js. What is offered is fenced:

- only a download that started during this turn (after the tools were made), never one before;
- only one the tab the tools work in started: one an action of the turn started there (the
  service worker watched the tab while it ran, and the action's result named it: `said_started`),
  or, for a download the page started on its own, one whose page is that tab's site (the
  browsers' downloads API names no tab);
- asked of the user like reading another tab, each time unless they allow it for the turn, and
  refused without a question where their site rules say `never` (the tab's site or the file's);
- its name is shown made harmless (`harmless_name`): no path, no invisible or direction-turning
  characters, bounded; its text reaches the model inside the page-content marking, in parts.
"""

from __future__ import annotations

import functools
import inspect
import re
import time
import unicodedata

from ..our_notes import our_note
from ..tools import Refused
from .page_bridge import failure
from .untrusted_content import untrusted
from .wire import DOWNLOADS, PAGE_TOOL_DEFAULTS

PART_CHARS_PER_TOKEN = 4  # as read_page parts a page (extension/content/read-page.js)
PART_TOKENS = PAGE_TOOL_DEFAULTS["read_page"]["max_tokens"]
LONGEST_NAME = 80
DENIED = our_note("The user did not allow reading the downloaded file {name}: nothing was read. Do not try to get "
                  "it another way; go on without it, or ask the user.")


def harmless_name(name: str) -> str:
    """A downloaded file's name as the user and the model are shown it: its last part only (no
    folder, either separator: "../../.bashrc" is ".bashrc", "C:\\Windows\\system32\\x.dll" is
    "x.dll"), without control, format or direction characters (a right-to-left override turns
    "cod.exe" into what reads "exe.doc"), bounded."""
    last = re.split(r"[\\/]", str(name or ""))[-1]
    shown = "".join(c for c in last if unicodedata.category(c)[0] not in "CZ" or c == " ").strip(" .")
    shown = shown or "download"
    return shown if len(shown) <= LONGEST_NAME else shown[:LONGEST_NAME - 1] + "…"


STARTED = our_note("This {tool} started {count} in this tab: read_download can read {it} (the user is asked "
                   "first). As the site named {it}:")


def said_started(tool: str, done: dict) -> str:
    """What the model is told of the downloads an action started (the service worker watched the
    tab while it ran: extension/background/action-downloads.js), or "" when it started none. The
    names are the site's words: made harmless and inside the marking, like the page's."""
    started = [d for d in done.get("downloads") or [] if isinstance(d, dict)][:5]
    if not started:
        return ""
    listed = listed_files(started)
    many = len(started) > 1
    return "\n\n" + STARTED.format(tool=tool, count=f"{len(started)} downloads" if many else "a download",
                                    it="them" if many else "it") + "\n" + untrusted(done.get("url", ""), listed)


LATE = our_note("Since the last result, {count} started in tab {tab_id} after an earlier click or key press of this "
                "turn there (the site answered late): read_download in that tab can read {it} (the user is asked first). "
                "As the site named {it}:")
# Told instead of taking the answer, once for each download (Agent.before_answer): what arrived
# after the turn's last result, which the model has not heard of.
UNNAMED = our_note("Your answer was not given to the user yet: after your last action, {count} started in tab {tab_id} "
                   "(the site answered late), and no result has named {it}. read_download in that tab can read {it} (the "
                   "user is asked first). If the task needs the file, read it; else answer again and say it was "
                   "downloaded. As the site named {it}:")
UNNAMED_LAST = our_note("After your last action, {count} started in tab {tab_id} (the site answered late), and no result has "
                        "named {it}. No step is left to read {it}: say in your answer that {it} downloaded, and that "
                        "read_download can read {it} in the next message. As the site named {it}:")


def listed_files(started: list) -> str:
    """The downloads, one a line, as the model is told them: harmless names (the site's words), sizes."""
    return "\n".join(f"{harmless_name(d.get('file_name'))} ({size_in_words(d.get('size'))}"
                     f"{', still downloading' if d.get('in_progress') is True else ''})" for d in started)


def said_late(late: list, lead: str = LATE) -> str:
    """What the model is told of the downloads that appeared after an earlier action's result (the
    service worker kept watching for the rest of the turn: action-downloads.js), or "". Like
    said_started, the names are the site's words."""
    said = ""
    for (tab_id, site), started in by_tab(late).items():
        started = started[:5]
        many = len(started) > 1
        said += "\n\n" + lead.format(count=f"{len(started)} downloads" if many else "a download", tab_id=tab_id,
                                    it="them" if many else "it") + "\n" + untrusted(site, listed_files(started))
    return said


def by_tab(late: list) -> dict:
    """The downloads the service worker described, by (tab id, site); what is not one is left out."""
    found: dict = {}
    for one in late:
        if isinstance(one, dict) and isinstance(one.get("tab_id"), int):
            found.setdefault((one["tab_id"], str(one.get("site") or "")), []).append(one)
    return found


class UnnamedDownloads:
    """Before the agent's answer is taken (Agent.before_answer): the downloads the turn's actions
    started that no result named (a server that answered after the last action), claimed by one
    last call of the page bridge (DOWNLOADS["unnamed_call"]), which waits for the acting tabs to
    settle. The model is told of them once, and the user is shown them (a `download` event)."""

    def __init__(self, working) -> None:
        self.working = working

    async def before_answer(self, agent, can_act: bool = True) -> str | None:
        if self.working.may_have_downloaded:  # else nothing was watched: the bridge is not asked
            await self.working.run_page_tool(DOWNLOADS["unnamed_call"], {})  # WorkingTab keeps its late_downloads
        late, self.working.late_downloads = self.working.late_downloads, []
        said = said_late(late, UNNAMED if can_act else UNNAMED_LAST)
        if not said:
            return None
        await agent.emit("download", {"files": shown_files(late)})
        return said.lstrip("\n")


def shown_files(late: list) -> list[dict]:
    """The downloads as the panel shows them: each name made harmless, its size, the site, the tab,
    and the browser's id of the download (the panel follows one still in progress until it ends)."""
    return [{"file_name": harmless_name(one.get("file_name")), "size": _whole(one.get("size")),
             "site": str(one.get("site") or ""), "tab_id": tab_id, "in_progress": one.get("in_progress") is True,
             "download_id": _whole(one.get("download_id"))}
            for (tab_id, _), started in by_tab(late).items() for one in started[:5]]


def _whole(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def telling_late_downloads(working, forward):
    """A page tool's `forward` whose text result ends with the downloads that appeared since the
    last result (`working.late_downloads`, gathered from every reply of the turn), told once. It
    has the tool's own signature (functools.wraps), as what inspects `forward` expects."""
    @functools.wraps(forward)
    async def told(**arguments):
        result = forward(**arguments)
        if inspect.isawaitable(result):
            result = await result
        if not isinstance(result, str) or not working.late_downloads:
            return result
        late, working.late_downloads = working.late_downloads, []
        return type(result)(result + said_late(late))
    return told


def size_in_words(size) -> str:
    if not isinstance(size, (int, float)) or size < 0:
        return "size unknown"
    return f"{size / 1024 / 1024:.1f} MB" if size >= 1024 * 1024 else f"{max(1, round(size / 1024))} KB"


class Downloads:
    """read_download for one turn: `since_ms` is when the turn began (epoch ms, the browser's clock)."""

    def __init__(self, bridge, consent, part_tokens=None, since_ms: float | None = None):
        self.bridge, self.consent = bridge, consent
        self.part_tokens = part_tokens or (lambda default: default)
        self.since_ms = int(since_ms if since_ms is not None else time.time() * 1000)

    async def _described(self, name: str | None) -> dict | str:
        args = {"since": self.since_ms, **({"name": name} if name else {})}
        plan = await self.bridge.run_page_tool("describe_action", {"name": "read_download", "args": args})
        if not plan.get("ok"):
            return failure(plan, "read_download cannot be done here.")
        return plan["result"]

    async def _allowed(self, described: dict) -> bool:
        name = harmless_name(described.get("file_name"))
        from_site = described.get("from_site") or described.get("site")
        message = (f"Read the file “{name}” ({size_in_words(described.get('size'))}) that the page "
                   f"{described.get('site')} downloaded in this turn?")
        details = {"file": name, "from": from_site, "url": described.get("url")}  # each shown in the panel
        # acts: the user's `never` for either site refuses it unasked; `allow` still asks (a file is not a page).
        return bool(await self.consent.allows("read_download", message, details, tab=described.get("tab_id"),
                                              sites=[described.get("site"), from_site], acts=True))

    async def read_download(self, name: str | None = None, page: int = 1) -> str:
        """Reads a file the page downloaded during this turn (text or PDF; the latest, or the one
        named); the user is asked first. A long file comes in parts: page=2 for the next.

        Args:
            name: part of the file's name, when there were several.
            page: which part, from 1.
        """
        described = await self._described(name)
        if isinstance(described, str):
            return described
        shown = harmless_name(described.get("file_name"))
        if not await self._allowed(described):
            return Refused(DENIED.format(name=shown))
        args = {"since": self.since_ms, "download_id": described.get("download_id")}
        reply = await self.bridge.run_page_tool("read_download", args, described.get("tab_id"), described.get("url"))
        if not reply.get("ok"):
            return failure(reply, "read_download failed, and the browser did not say why.")
        return untrusted(f"the downloaded file {shown}", self._part(reply["result"], shown, page))

    def _part(self, read: dict, shown: str, page: int) -> str:
        text, size = str(read.get("text") or ""), max(200, self.part_tokens(PART_TOKENS)) * PART_CHARS_PER_TOKEN
        parts = max(1, -(-len(text) // size))
        page = min(max(1, int(page)), parts)
        head = [f"File: {shown} ({read.get('kind')}, {size_in_words(read.get('size'))})",
                f"Length: {len(text)} characters; this is part {page} of {parts}"]
        if read.get("cut"):
            head.append(f"Only the first {read['cut']} MB of the file were read: TabAgent reads no more of a download.")
        if parts > page:
            head.append(f"read_download(page={page + 1}) gives the next part.")
        return "\n".join(head) + "\n\n" + text[(page - 1) * size: page * size]
