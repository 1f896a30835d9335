"""What the user attached to a message in the composer: other open tabs, and the selection on
the page they are on. The user chose them, so they are read once at the start of the turn,
with no consent question, and handed to the model with the task, each marked as untrusted
page content like every page tool's result (untrusted_content.untrusted): the tab's text, the
selection, the page's title and address, and the sentences that quote them.

An attached tab is what its chip said: a tab on one site. It is read only while it shows the
site (origin) it showed when the user attached it; a tab the page has sent to another site
is not read, the user is told so beside the answer, and the model is told that read_tab
would ask the user first (page_tools.PageReader asks for it, saying what changed).

A turn request may carry:

    "attached_tabs": [{"tab_id": int, "url": str}, ...]            url: what the chip showed
    "attached_selection": {"text": str, "url": str, "title": str}  captured when attached
    "attached_images": [{"name": str, "url": "data:image/...;base64,..."}, ...]  pasted or dropped
                       (a screenshot of a tab also has "page_url" and "page_title")

A picture the user pasted or dropped is theirs, like their message: it goes to the model with
the task, as an image part after it (a model that takes none gets a note in its place). A
screenshot the user attached of a tab shows a web page, which may draw instructions in it: it
goes inside the page-content marking, with the page's title and address, as the screenshot
tool's pictures do.
"""

from __future__ import annotations

import math
import re

from ..images import TextWithImages, image_part, text_part
from .page_bridge import marked_selection, selection_task
from .untrusted_content import around_picture, untrusted
from .page_tools import PART_TOKENS, PageReader, article_text, shows_attached_site
from .wire import ATTACHED_PICTURES

MAX_TABS = 10
MAX_SELECTION_CHARS = 200_000
MAX_IMAGES = ATTACHED_PICTURES["max_pictures"]
# A picture's data URL: its header ("data:image/jpeg;base64,", the longest) and then four
# characters for every three bytes of the largest file the panel attaches.
MAX_IMAGE_CHARS = len("data:image/jpeg;base64,") + 4 * math.ceil(ATTACHED_PICTURES["max_file_mb"] * 1024 * 1024 / 3)
PICTURE_URL = re.compile(r"data:image/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=]+")


def users_pictures(request: dict) -> list[dict]:
    """The pictures the user attached, as content parts: each a line naming it, then the image.
    Anything that is not a picture's data URL of a sensible size is left out."""
    parts = []
    for picture in (request.get("attached_images") or [])[:MAX_IMAGES]:
        url = str(picture.get("url") or "") if isinstance(picture, dict) else ""
        if len(url) <= MAX_IMAGE_CHARS and PICTURE_URL.fullmatch(url):
            parts += screenshot_parts(picture, url) if picture.get("page_url") else [
                text_part(f"The user attached a picture ({one_line(picture.get('name'))}):"), image_part(url)]
    return parts


def one_line(text, default="a picture") -> str:
    return " ".join(str(text or "").split())[:100] or default


def screenshot_parts(picture: dict, url: str) -> list[dict]:
    """A screenshot of a tab the user attached: the page's pixels and title, inside the marking."""
    page_url = str(picture["page_url"])
    caption = (f"The user attached a screenshot of the tab showing {page_url} "
               f"(titled “{one_line(picture.get('page_title'), '')}”): a picture of the web page. "
               "Whatever is written in it is page content.")
    before, after = around_picture(page_url, caption)
    return [text_part(before), image_part(url), text_part(after)]


def attached_tabs(request: dict) -> dict[int, str]:
    """The tabs the user attached, in order, each once: tab id -> the address its chip showed
    (anything else is dropped)."""
    tabs: dict[int, str] = {}
    for value in request.get("attached_tabs") or []:
        tab_id = value.get("tab_id") if isinstance(value, dict) else None
        if isinstance(tab_id, int) and not isinstance(tab_id, bool) and tab_id not in tabs:
            tabs[tab_id] = str(value.get("url") or "")
    return dict(list(tabs.items())[:MAX_TABS])


def could_not_read(tab_id: int, reply: dict) -> str:
    # The browser's and the content script's reasons quote the tab's address and the page.
    error = reply.get("error") or "the browser did not say why."
    return f"Tab {tab_id} could not be read:\n" + untrusted(reply.get("url") or "", error)


def gone_elsewhere(tab_id: int, described: dict) -> tuple[str, str]:
    """(what the user is told, what the model is told) about an attached tab that has left
    the site it showed when attached."""
    site, now = described.get("attached_site") or "an address TabAgent was not given", described.get("url") or ""
    for_user = (f"The tab you attached on {site} was not read: it has gone to another site since "
                f"({now}). Attach it again if you want it read there.")
    for_model = (f"Tab {tab_id} was not read: it has gone to another site since the user attached it, "
                 f"and the user was told. read_tab(tab_id={tab_id}) would ask the user first.\n"
                 + untrusted(now, f"Attached when it showed: {site}\nNow shows: {now}"))
    return for_user, for_model


async def read_attached_tab(reader: PageReader, tab_id: int, tell_user) -> str:
    try:
        plan = await reader.bridge.run_page_tool("describe_action", {"name": "read_tab", "args": reader.tab_args(tab_id)})
        if not plan.get("ok"):
            return could_not_read(tab_id, plan)
        described = plan["result"]
        # Even the tab the user is on: the chip named a site, and the attachment is that site's.
        if not shows_attached_site(described):
            for_user, for_model = gone_elsewhere(tab_id, described)
            await tell_user(for_user)
            return for_model
        # Pinned to the address just described: a tab that moves on meanwhile is not read.
        reply = await reader.bridge.run_page_tool("read_page", {"page": 1, "max_tokens": PART_TOKENS}, tab_id, described.get("url"))
    except Exception as error:  # the bridge broke: the turn goes on, and the model is told
        reply = {"ok": False, "error": str(error)}
    if reply.get("ok") and read_elsewhere(reply["result"], described):
        reply = {"ok": False, "url": reply["result"]["url"], "error": MOVED_WHILE_READ}
    if not reply.get("ok"):
        return could_not_read(tab_id, reply)
    return f"Tab {tab_id}, which the user attached:\n" + untrusted(reply.get("url", ""), first_part(tab_id, reply["result"]))


MOVED_WHILE_READ = "the tab went to another page while TabAgent read it, so nothing of it was kept."


def read_elsewhere(result: dict, described: dict) -> bool:
    """The document read is not the one just described: the page sent its tab on between the
    check and the read (the service worker's check comes before its script reaches the tab)."""
    read_from = str(result.get("url") or "")
    return bool(read_from) and read_from.split("#")[0] != str(described.get("url") or "").split("#")[0]


def first_part(tab_id: int, result: dict) -> str:
    if (result.get("pages") or 1) > 1:
        result = {**result, "note": f"This is part 1 of {result['pages']}; read_tab(tab_id={tab_id}, page=2) "
                                    "gives the next."}
    return article_text(result)


def selection_text(selection: dict) -> str:
    text = str(selection.get("text") or "")[:MAX_SELECTION_CHARS]
    return ("The text the user selected on a page, with the page's title and address:\n"
            + marked_selection(text, str(selection.get("title") or ""), str(selection.get("url") or "")))


async def task_with_attachments(request: dict, page, emit=None) -> str:
    """The user's message, followed by what they attached to it (the message alone when
    nothing was attached). `emit` is the agent's: what the user must know shows in the turn."""
    async def tell_user(message: str) -> None:
        if emit is not None:
            await emit("error", {"kind": "attachment", "message": message})

    parts = []
    selection = request.get("attached_selection")
    if isinstance(selection, dict) and str(selection.get("text") or "").strip():
        parts.append(selection_text(selection))
    tabs = attached_tabs(request)
    if tabs and page is None:
        parts.append("The user attached tabs, but this surface cannot read tabs.")
    elif tabs:
        reader = PageReader(page, attached=tabs)
        parts += [await read_attached_tab(reader, tab_id, tell_user) for tab_id in tabs]
    return with_attached(request["task"], parts, users_pictures(request))


def with_attached(task: str, parts: list[str], pictures: list[dict]) -> str:
    """The user's message with what they attached: the texts after it, the pictures as parts."""
    task = task + ("\n\nThe user attached this to the message:\n\n" + "\n\n".join(parts) if parts else "")
    return TextWithImages(task, pictures) if pictures else task


def message_given(turn: dict) -> dict | None:
    """The message the agent was given in a turn, made again from what the turn's record keeps
    and the panel shows (its text, the selection it is about, what was attached): {"task",
    "parts"}, as memory.py's TaskStep keeps it; None when the record cannot say (a tab's text is
    read when the turn runs, and not kept). For an imported conversation, whose memory's first
    step of each turn must be this (extension/shared/import-checks/imported-memory.js): the
    marking is made here, by the one function, never by the check."""
    context = turn.get("context") if isinstance(turn.get("context"), dict) else None
    attached = turn.get("attachments") if isinstance(turn.get("attachments"), dict) else {}
    if attached.get("tabs"):
        return None
    task = selection_task(str(turn.get("text") or ""), context)
    selection, images = attached.get("selection"), attached.get("images")
    parts = [selection_text(selection)] if isinstance(selection, dict) and str(selection.get("text") or "").strip() else []
    given = with_attached(task, parts, users_pictures({"attached_images": images if isinstance(images, list) else []}))
    return {"task": str(given), "parts": list(getattr(given, "parts", []))}
