"""What the user attached to a message in the composer: other open tabs, and the selection on
the page they are on. The user chose them, so they are read once at the start of the turn,
with no consent question, and handed to the model with the task, each marked as untrusted
page content like every page tool's result (page_bridge.untrusted): the tab's text, the
selection, and the page's title and address.

A turn request may carry:

    "attached_tabs": [tab_id, ...]                                 read as read_tab reads them
    "attached_selection": {"text": str, "url": str, "title": str}  captured when attached
"""

from __future__ import annotations

from .page_bridge import marked_selection, untrusted
from .page_tools import PART_TOKENS, article_text

MAX_TABS = 10
MAX_SELECTION_CHARS = 200_000


def attached_tab_ids(request: dict) -> list[int]:
    """The tab ids the user attached, in order, each once (anything else is dropped)."""
    ids = []
    for value in request.get("attached_tabs") or []:
        if isinstance(value, int) and not isinstance(value, bool) and value not in ids:
            ids.append(value)
    return ids[:MAX_TABS]


async def read_attached_tab(page, tab_id: int) -> str:
    try:
        reply = await page.call("read_page", {"page": 1, "max_tokens": PART_TOKENS}, tab_id)
    except Exception as error:  # the bridge broke: the turn goes on, and the model is told
        reply = {"ok": False, "error": str(error)}
    if not reply.get("ok"):
        return f"Tab {tab_id} could not be read: {reply.get('error') or 'the browser did not say why.'}"
    result = reply["result"]
    if (result.get("pages") or 1) > 1:
        result = {**result, "note": f"This is part 1 of {result['pages']}; read_tab(tab_id={tab_id}, page=2) "
                                    "gives the next."}
    return f"Tab {tab_id}, which the user attached:\n" + untrusted(reply.get("url", ""), article_text(result))


def selection_text(selection: dict) -> str:
    text = str(selection.get("text") or "")[:MAX_SELECTION_CHARS]
    return ("The text the user selected on a page, with the page's title and address:\n"
            + marked_selection(text, str(selection.get("title") or ""), str(selection.get("url") or "")))


async def task_with_attachments(request: dict, page) -> str:
    """The user's message, followed by what they attached to it (the message alone when
    nothing was attached)."""
    parts = []
    selection = request.get("attached_selection")
    if isinstance(selection, dict) and str(selection.get("text") or "").strip():
        parts.append(selection_text(selection))
    ids = attached_tab_ids(request)
    if ids and page is None:
        parts.append("The user attached tabs, but this surface cannot read tabs.")
    elif ids:
        parts += [await read_attached_tab(page, tab_id) for tab_id in ids]
    if not parts:
        return request["task"]
    return request["task"] + "\n\nThe user attached this to the message:\n\n" + "\n\n".join(parts)
