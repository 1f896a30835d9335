"""Signing in to the user's MCP servers, for the extension (tabagent/mcp/oauth.py does the
protocol): each step answers {"ok": true, ...} or {"ok": false, "error"} in words, never a
traceback. The service worker opens the browser's sign-in window between the two steps and
keeps the record where the API key is kept."""

from __future__ import annotations

from ..mcp import MCPError
from ..mcp import oauth
from ..unseen import bounded


async def _answered(work, key: str) -> dict:
    try:
        return {"ok": True, key: await work}
    except MCPError as error:
        return {"ok": False, "error": str(error)}
    except Exception as error:  # anything else is said in one line
        return {"ok": False, "error": bounded(f"Sign-in failed: {type(error).__name__}: {error}", 400)}


async def plan(server: dict, redirect_uri: str, client_id: str = "", host=None, client_secret: str = "",
               known: dict | None = None, header: str | None = None) -> dict:
    """The sign-in window's address and what the token request will need (the plan). A client
    id and secret are the user's (a client registered beforehand); `known` is the server's
    earlier sign-in and `header` the challenge of the request that asked (a step-up's names
    the scope it lacks), when a turn asks."""
    return await _answered(oauth.plan_sign_in(str(server.get("url") or ""), redirect_uri, client_id.strip(), host,
                                              client_secret.strip(), header, known), "plan")


async def finish(plan_: dict, ended_at: str, host=None) -> dict:
    """The record to keep, from the address the sign-in window ended at."""
    return await _answered(oauth.finish_sign_in(plan_, ended_at, host), "record")


async def refresh(record: dict, host=None) -> dict:
    return await _answered(oauth.refresh(record, host), "record")


async def sign_out(record: dict, host=None) -> dict:
    await oauth.sign_out(record, host)
    return {"ok": True}
