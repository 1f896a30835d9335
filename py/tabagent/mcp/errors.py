"""What goes wrong with an MCP server, said in words the user can act on. What the server
wrote in them is bounded and shown (tabagent.unseen); where an error reaches the model, it
is marked whole as the server's (mcp.tools)."""

from __future__ import annotations

from ..unseen import bounded


class MCPError(Exception):
    """The server could not be reached, refused us, or answered something unusable."""

    def __init__(self, message: str, code: int | None = None, data: object = None) -> None:
        super().__init__(message)
        self.code = code  # the JSON-RPC error code, when the server sent one
        self.data = data  # and its data (a -32022's supported versions)


class SessionExpired(MCPError):
    """The server forgot our session (HTTP 404 or 400 to a request that carried its id);
    `refusal` is the server's answer in words, for when a new session is refused the same."""

    def __init__(self, message: str, code: int | None = None, refusal: MCPError | None = None) -> None:
        super().__init__(message, code=code if code is not None or refusal is None else refusal.code)
        self.refusal = refusal  # (an error is made again as type(error)(text, code=...): same order)


class SignInNeeded(MCPError):
    """The server wants the user signed in: a 401, or a 403 naming the scope it lacks (a
    "step-up"); `challenge` is its WWW-Authenticate, which says where and with what scope."""

    def __init__(self, error: MCPError | str, code: int | None = None, status: int = 401, challenge: str = "") -> None:
        super().__init__(str(error), code=code if code is not None else status)
        self.status, self.challenge = status, challenge


class ToolCallError(MCPError):
    """The tool ran and reported a failure (`isError`): the model should read it."""


def http_error(url: str, status: int, headers: dict, body: bytes) -> MCPError:
    if status == 0 or 300 <= status < 400:
        return MCPError(f"the MCP server at {url} answered with a redirect, which TabAgent does not "
                        f"follow (its headers would go along): use the address it redirects to.", code=status)
    detail = bounded(body.decode("utf-8", "replace").strip()[:300], 300)
    if status == 401:
        scheme = headers.get("www-authenticate", "")
        how = f" (it asks for: {bounded(scheme[:200], 200)})" if scheme else ""
        return MCPError(f"the MCP server at {url} needs authorisation{how}: sign in to it (settings, "
                        f"MCP servers, Sign in) or add its token or header in the server's settings.", code=401)
    if status == 403:
        return MCPError(f"the MCP server at {url} refused the request (403 Forbidden"
                        f"{': ' + detail if detail else ''}). A local server may be checking the "
                        f"Origin header: allow this extension's origin in its settings.", code=403)
    return MCPError(f"the MCP server at {url} answered HTTP {status}"
                    f"{': ' + detail if detail else ''}.", code=status)
