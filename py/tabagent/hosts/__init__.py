"""Host implementations: `cpython` (httpx) and `pyodide` (JavaScript fetch)."""
