"""The Pyodide host: HTTP with JavaScript `fetch`, reading the streamed body.

Works wherever Pyodide has a global `fetch`: the extension's offscreen document
and Node.js 20. Cancelling the awaiting task aborts the request through an
`AbortController`, so a stopped turn stops costing tokens.

JavaScript has two "nothing"s and Pyodide gives each its own value: `undefined` is None,
`null` is `jsnull` (a JsNull, which is not None). Every value this host reads from
JavaScript that may be missing goes through `given()`, so that a response without a body (a
redirect not followed, 204, 304) is an empty body and not an AttributeError.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING

import js
from pyodide.ffi import JsException, jsnull, to_js

from ..host import Host, NetworkError, RequestTimeout, Response

if TYPE_CHECKING:
    from pyodide.ffi import JsProxy


class PyodideHost(Host):
    async def request(self, method: str, url: str, headers: dict[str, str], body: bytes | None = None,
                      timeout: float | None = None, follow_redirects: bool = True) -> Response:
        controller = js.AbortController.new()
        # No cookies: the key is the endpoint's credential. An extension with host permission
        # sends the user's cookies for that host even in fetch's default mode, and a redirect
        # would carry them to wherever the endpoint points (docs/security.md, the table of fetches).
        init = {"method": method, "headers": headers, "signal": controller.signal, "credentials": "omit",
                "redirect": "follow" if follow_redirects else "manual"}
        if body is not None:
            init["body"] = to_js(body)  # bytes -> Uint8Array
        init = to_js(init, dict_converter=js.Object.fromEntries)
        try:
            response = await _within(timeout, js.fetch(url, init), controller)
        except JsException as e:
            raise NetworkError(_describe(e)) from None
        return FetchResponse(response, controller, timeout)

    def resolve_url(self, url: str, base: str) -> tuple[str, str] | None:
        """By the browser's own URL parser, the one its fetch uses."""
        try:
            parsed = js.URL.new(url, base)
        except JsException:
            return None
        if parsed.protocol not in ("http:", "https:"):
            return None
        return str(parsed.href), str(parsed.origin)

    def time_zone(self, when: float) -> tuple[int, str | None]:
        """The browser's: the zone the user's system is set to (Intl), not the interpreter's."""
        offset = -int(js.Date.new(when * 1000).getTimezoneOffset())
        try:
            zone = given(js.Intl.DateTimeFormat.new().resolvedOptions().timeZone)
        except (JsException, AttributeError):
            zone = None
        return offset, str(zone) if zone else None


class FetchResponse(Response):
    def __init__(self, response: JsProxy, controller: JsProxy, timeout: float | None) -> None:
        super().__init__(int(response.status), headers=_headers(response))
        self._response, self._controller, self._timeout = response, controller, timeout
        self._closed = False

    async def chunks(self) -> AsyncGenerator[bytes, None]:
        body = given(self._response.body)
        if body is None:
            return  # a redirect not followed (status 0), 204, 304...: no body at all
        reader = body.getReader()
        try:
            while True:
                result = await _within(self._timeout, reader.read(), self._controller)
                value = given(result.value)
                if result.done or value is None:
                    break
                yield value.to_bytes()
        except JsException as e:
            raise NetworkError(_describe(e)) from None
        finally:
            try:
                reader.releaseLock()
            except JsException:
                pass  # older runtimes refuse while a read is pending; abort() ends it anyway

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._controller.abort()


async def _within(timeout, promise, controller):
    """Await a JS promise; on timeout or cancellation abort the request."""
    try:
        async with asyncio.timeout(timeout):  # None: no limit
            return await promise
    except TimeoutError:
        controller.abort()
        raise RequestTimeout(f"no response within {timeout} s") from None
    except asyncio.CancelledError:
        controller.abort()
        raise


def given(value: object) -> object:
    """A value read from JavaScript, with both null (jsnull) and undefined as None."""
    return None if value is None or value is jsnull else value


def _headers(response) -> dict[str, str]:
    headers = given(response.headers)
    if headers is None:
        return {}
    return {str(k).lower(): str(v) for k, v in headers.entries()}


def _describe(error: JsException) -> str:
    # Node's fetch says "TypeError: fetch failed" and hides the reason in `cause`.
    cause = given(getattr(given(getattr(error, "js_error", None)), "cause", None))
    return f"{error} ({cause})" if cause is not None else str(error)
