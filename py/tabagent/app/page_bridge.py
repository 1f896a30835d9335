"""The page bridge: how the page tools reach the browser, and how what they bring back is
marked for the model.

The page tools (page_tools.py, page_actions.py) run in Python but their work is done in
the tab, by a content script reached through the service worker. A bridge is any object
with two async methods:

    run_page_tool(name, args, tab_id=None, expect_url=None) -> dict
        {"ok": True, "result": ..., "tab_id", "url", "title"} or {"ok": False, "error": str}
        `tab_id` pins the call to one tab and `expect_url` refuses it if that tab has left
        the page since (an action the user confirmed must land where they saw it).
    confirm(id, tool, message, details) -> "once" | "turn" | "site" | "deny" (wire.CONFIRMATION_DECISIONS)
        waits for the user's answer to the `confirmation` event with that id.
    ask(id, question) -> str | None
        waits, with no timeout, for the user's answer to the `hand_back` event with that id
        (hand_back.py); None when the turn ended first.
    sign_in(server_id, challenge, interactive) -> {"ok", "authorization"} | {"ok": False, "error"}
        an MCP server of the turn asked for sign-in (its WWW-Authenticate: `challenge`): the
        service worker refreshes its token, or, `interactive` (the user said yes), opens the
        browser's sign-in window; the header to send from now on (mcp_requests.py).

Tests hand in a fake; the extension's offscreen document hands in JavaScript functions
that speak JSON text, wrapped by `JsonBridge`.
"""

from __future__ import annotations

import json

from ..tools import Failed
from .untrusted_content import untrusted
from .wire import CONFIRMATION_DECISIONS

DECISIONS = CONFIRMATION_DECISIONS


def marked_selection(selection: str, title: str, url: str) -> str:
    """Text selected on a page with the page's title and address: all three come from the
    page, so all go inside the marking."""
    page = f"Page title: {title or '(none)'}\nPage address: {url or 'unknown'}\nSelected text:\n{selection}"
    return untrusted(url or "", page)


def selection_task(text: str, context: dict | None) -> str:
    """The user's message about text they selected on a page (the context menu)."""
    if not context or not context.get("selection"):
        return text
    return (f"{text}\n\nThe user selected text on a web page; it is below, with the page's title "
            f"and address.\n{marked_selection(context['selection'], context.get('title'), context.get('url'))}")


def failure(reply: dict, fallback: str) -> str:
    """A failed call's sentence for the model. Errors from the content script (no such element,
    no such part) quote the page (element labels, its text, the selector the model gave), so they
    are marked like it, and are errors to the agents (tools.Failed). The browser's own
    explanations (a page of the browser's own, a tab that is gone) stay what the tool says of
    the tab: shown to the user as an explanation, not an error."""
    error = reply.get("error") or fallback
    return Failed(untrusted(reply.get("url") or "", error)) if reply.get("from_page") else error


def as_json(value) -> str:
    return json.dumps(value, ensure_ascii=False)


class JsonBridge:
    """A bridge over the page bridge the extension lent (wire.py LENT["page"]), passing JSON text
    both ways, so no JavaScript objects are proxied into Python: `lent.runPageTool(request_json)` resolves to the reply as JSON and
    `lent.confirm(id, message)` to the decision (the question's sentence goes along for a run
    nobody watches, which stops and says what it was asking), `lent.ask(id, question)` to the user's
    answer as JSON."""

    def __init__(self, lent):
        self.lent = lent

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None) -> dict:
        request = {"name": name, "args": args, "tab_id": tab_id, "expect_url": expect_url}
        return json.loads(str(await self.lent.runPageTool(as_json(request))))

    async def confirm(self, id, tool, message, details) -> str:
        decision = str(await self.lent.confirm(id, message))
        return decision if decision in DECISIONS else "deny"

    async def ask(self, id, question="") -> str | None:
        answer = json.loads(str(await self.lent.ask(id, question)))
        return answer if isinstance(answer, str) else None

    async def sign_in(self, server_id, challenge, interactive) -> dict:
        try:
            answer = json.loads(str(await self.lent.signIn(server_id, challenge, bool(interactive))))
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or not isinstance(answer.get("authorization"), str):
            return {"ok": False, "error": str((answer or {}).get("error") or "The sign-in did not happen."),
                    "ended": (answer or {}).get("ended") is True}  # a kept sign-in that cannot be renewed
        return {"ok": True, "authorization": answer["authorization"]}

    async def fill(self, id) -> dict:
        """The user's answer to a `confirmation` carrying a form: wire.FORM_ANSWER, the values
        typed only when they sent it (the page bridge resolves the same wait as JSON text)."""
        try:
            answer = json.loads(str(await self.lent.confirm(id)))
        except ValueError:
            answer = None
        decision = answer.get("decision") if isinstance(answer, dict) else None
        return {"decision": decision if decision in DECISIONS else "cancel",
                "values": answer.get("values") if decision == "once" else None}
