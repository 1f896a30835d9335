"""The host interface: the only way tabagent reaches the world outside Python.

The agent never imports a browser or an HTTP library. It asks a `Host` to make a
request, to tell the time and to sleep; the host picks the real mechanism
(httpx in CPython, JavaScript `fetch` in Pyodide: hosts/, whose `default_host` picks
the one for the interpreter). Tests and the extension swap hosts without touching the loop.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncGenerator

from .origins import resolve


class NetworkError(Exception):
    """The request did not complete: refused, reset, DNS failure, closed mid-body."""


class RequestTimeout(Exception):
    """No response headers, or no next chunk of the body, within the timeout."""


class Response:
    """An HTTP response whose body is read as it arrives.

    Hosts subclass this and implement `chunks()` and `close()`; `headers` keys are
    lower-case so callers need not guess the server's spelling.
    """

    def __init__(self, status: int, headers: dict[str, str]) -> None:
        self.status = status
        self.headers = headers

    def chunks(self) -> AsyncGenerator[bytes, None]:
        """The body as bytes, chunk by chunk (an async generator)."""
        raise NotImplementedError

    async def close(self) -> None:
        """Stop reading and abort the request if it is still running."""
        raise NotImplementedError

    async def read(self) -> bytes:
        try:
            return b"".join([chunk async for chunk in self.chunks()])
        finally:
            await self.close()


class Host:
    """What the agent needs from its surroundings.

    `request` returns once the response headers are in; `timeout` bounds the wait
    for the headers and then for each chunk of the body (an idle timeout, so a
    long streamed answer is never cut while tokens keep coming). Hosts raise
    `NetworkError` and `RequestTimeout`, never their library's own exceptions.
    Cancelling the awaiting task aborts the request. With `follow_redirects=False` a redirect
    is not followed: it comes back as a response of status 0 (the browser shows no more of
    it) or 3xx, for the caller to refuse.
    """

    async def request(self, method: str, url: str, headers: dict[str, str],
                      body: bytes | None = None, timeout: float | None = None,
                      follow_redirects: bool = True) -> Response:
        raise NotImplementedError

    def resolve_url(self, url: str, base: str) -> tuple[str, str] | None:
        """(address, origin) of `url` read against `base` as the browser's `fetch` reads it
        (the WHATWG URL standard), for deciding where a request may go; None when it cannot
        be read so (then it is refused). Here: only what Python's parser reads the same way
        (tabagent.origins); the Pyodide host asks the browser's own parser."""
        return resolve(url, base)

    def now(self) -> float:
        return time.time()

    def time_zone(self, when: float) -> tuple[int, str | None]:
        """The user's offset from UTC at `when` (minutes east), and their time zone's name
        ("Europe/Paris") when known: here the machine's; the Pyodide host asks the browser."""
        local = time.localtime(when)
        return (local.tm_gmtoff or 0) // 60, _zone_name() or local.tm_zone

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def _zone_name() -> str | None:
    """The machine's IANA zone name: $TZ, else where /etc/localtime points."""
    name = os.environ.get("TZ", "").lstrip(":")
    if "/" in name and not name.startswith("/"):
        return name
    try:
        target = os.path.realpath("/etc/localtime")
    except OSError:
        return None
    return target.split("/zoneinfo/", 1)[1] if "/zoneinfo/" in target else None
