"""The CPython host: HTTP with httpx, for the command line and the unit tests.

httpx is imported when the host is first used, so `import tabagent` works in an
interpreter (Pyodide) that does not have it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING

from ..host import Host, NetworkError, RequestTimeout, Response

if TYPE_CHECKING:
    import httpx


class CPythonHost(Host):
    def __init__(self) -> None:
        # One client per event loop: an httpx client may not outlive the loop it
        # was made in (pytest gives each test its own loop).
        self._client = None
        self._loop = None

    def _get_client(self):
        import httpx

        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client, self._loop = httpx.AsyncClient(), loop
        return self._client

    async def request(self, method: str, url: str, headers: dict[str, str], body: bytes | None = None,
                      timeout: float | None = None, follow_redirects: bool = True) -> Response:
        import httpx

        client = self._get_client()
        request = client.build_request(method, url, headers=headers, content=body,
                                       timeout=httpx.Timeout(timeout))
        try:
            # httpx follows no redirect unless told; the model calls never asked it to.
            response = await client.send(request, stream=True, follow_redirects=False)
        except httpx.TimeoutException as e:
            raise RequestTimeout(f"no response within {timeout} s") from e
        except httpx.HTTPError as e:
            raise NetworkError(_describe(e)) from e
        return HttpxResponse(response)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


class HttpxResponse(Response):
    def __init__(self, response: httpx.Response) -> None:
        super().__init__(response.status_code,
                         {k.lower(): v for k, v in response.headers.items()})
        self._response = response

    async def chunks(self) -> AsyncGenerator[bytes, None]:
        import httpx

        try:
            async for chunk in self._response.aiter_bytes():
                yield chunk
        except httpx.TimeoutException as e:
            raise RequestTimeout("the server stopped sending") from e
        except httpx.HTTPError as e:
            raise NetworkError(_describe(e)) from e

    async def close(self) -> None:
        await self._response.aclose()


def _describe(error: Exception) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
