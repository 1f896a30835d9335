"""Multi round-trip requests (MCP 2026-07-28): a server that needs something from the user to
finish a request (a form, a completion of the user's model, the roots) answers it with an
`InputRequiredResult` ({"resultType": "input_required", "inputRequests": {key: {"method",
"params"}}, "requestState"?}), and the client sends the same request again with the answers
(`inputResponses`) and the server's `requestState` given back as it came.

Each input request is answered as the same request sent the older way would be
(`MCPClient.answer_input`: the form drawn under the same rules, sampling held until the user
allows it, roots none). What the server sent is untrusted and bounded:
- `requestState` is the server's own opaque text: given back unread, byte for byte, only to the
  server that sent it and only in the retry of the request it came with (never carried to
  another call), and refused when it is not text or is larger than MAX_STATE;
- only answers TabAgent made go back: a server's result carrying `inputResponses` of its own
  (answers it wrote for the user) has them ignored, and a key TabAgent was not asked is never
  answered;
- at most MAX_INPUTS requests a round and MAX_ROUNDS rounds a call, then the call fails in words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..unseen import bounded
from .errors import MCPError

MAX_ROUNDS = 10
MAX_INPUTS = 10
MAX_STATE = 64 * 1024  # characters of a requestState


class Answering(Protocol):
    """What the rounds read of the MCP client (client.MCPClient): the server's name, and how
    the client answers one input request."""
    name: str

    async def answer_input(self, method: str, params: dict) -> dict: ...


class InputRounds:
    """The rounds of one request: its parameters as first sent, and how many rounds so far."""

    def __init__(self, client: Answering, method: str, params: dict) -> None:
        self.client, self.method, self.params = client, method, params
        self.rounds = 0

    def needed(self, result: dict) -> bool:
        return result.get("resultType") == "input_required"

    async def answered(self, result: dict) -> dict:
        """The request's parameters for its next round: the first ones, the user's answers and
        the server's state as it came."""
        self.rounds += 1
        if self.rounds > MAX_ROUNDS:
            raise self._refused(f"kept asking for more input after {MAX_ROUNDS} rounds")
        requests, state = result.get("inputRequests"), result.get("requestState")
        if requests is None and state is None:
            raise self._refused("asked for input without saying what it needs")
        if state is not None and (not isinstance(state, str) or len(state) > MAX_STATE):
            raise self._refused("sent a request state TabAgent does not carry (it must be text, at most "
                                f"{MAX_STATE // 1024} KB)")
        params = {**self.params, "inputResponses": await self._answers(requests or {})}
        if state is not None:
            params["requestState"] = state
        return params

    async def _answers(self, requests) -> dict:
        return await answers(self.client, requests, self._refused)

    def _refused(self, why: str) -> MCPError:
        return MCPError(f"the MCP server {self.client.name} {why}: TabAgent stopped the {self.method} request.")


async def answers(client: Answering, requests: object, refused: Callable[[str], MCPError]) -> dict:
    """The user's answers to a server's input requests, by key, each as `answer_input` makes
    it; `refused(why)` makes the error for requests TabAgent does not read."""
    if not isinstance(requests, dict) or len(requests) > MAX_INPUTS:
        raise refused(f"asked for input in a form TabAgent does not read (at most {MAX_INPUTS} requests, each named)")
    answered = {}
    for key, asked in requests.items():
        if not isinstance(asked, dict) or not isinstance(asked.get("method"), str):
            raise refused(f"sent the input request {bounded(str(key), 60)!r} without a method")
        params = asked.get("params") if isinstance(asked.get("params"), dict) else {}
        answered[str(key)] = await client.answer_input(asked["method"], params)
    return answered
