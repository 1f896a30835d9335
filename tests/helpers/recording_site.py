"""A site on 127.0.0.1 whose pages are functions of the request, and that keeps every request
it got with its headers: for red-team tests where a site answers the browser's own load of a tab
and TabAgent's download of the same address differently, or where what matters is which
requests reached it and with which cookies. A body given as parts (an iterable of bytes, its
content-length among the headers) is sent part by part as they come: a file still on its way.

    site = Site("localhost", {"/login": lambda request: (200, {"set-cookie": "a=b"}, b"hi")})
    site.url("/login"); site.requests  # [{"path": "/login", "headers": {...}}]
    site.stop()
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Site:
    """Served on 127.0.0.1 and reached under `host` (another host name is another site, with
    its own cookie jar). A page answers (status, headers, body)."""

    def __init__(self, host, pages):
        self.host, self.pages, self.requests = host, pages, []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                site.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}})
                page = site.pages.get(self.path.split("?")[0])
                status, headers, body = page(self) if page else (404, {}, b"")
                whole = isinstance(body, bytes)
                self.send_response(status)
                for name, value in {"cache-control": "no-store", **({"content-length": str(len(body))} if whole else {}), **headers}.items():
                    self.send_header(name, value)
                self.end_headers()
                for part in [body] if whole else body:
                    self.wfile.write(part)
                    self.wfile.flush()

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    def url(self, path):
        return f"http://{self.host}:{self._httpd.server_address[1]}{path}"

    def stop(self):
        self._httpd.shutdown()
        self._httpd.server_close()


def shown_in_the_tab(request):
    """The browser's own load of a tab (what the user sees) is a document navigation."""
    return request.headers.get("sec-fetch-dest") == "document"


def downloads(requests):
    """Those of a site's `requests` TabAgent made (fetch's own destination: not a tab, not an icon)."""
    return [r for r in requests if r["headers"].get("sec-fetch-dest") == "empty"]
