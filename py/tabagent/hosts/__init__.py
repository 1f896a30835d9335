"""Host implementations: `cpython` (httpx) and `pyodide` (JavaScript fetch)."""

from __future__ import annotations

import sys

from ..host import Host


def default_host() -> Host:
    """The host for the interpreter we are running in (each imported only where it runs)."""
    if sys.platform == "emscripten":
        from .pyodide import PyodideHost
        return PyodideHost()
    from .cpython import CPythonHost
    return CPythonHost()
