"""The bench's pages on 127.0.0.1 (pages/), and what the site was asked: a form sent or a link
followed is logged as (path, fields) for the tasks' checks, as a shop's server would see it.
/search answers from a small catalogue; /submit/... and /signout answer a short page."""

from __future__ import annotations

import html
import http.server
import threading
import urllib.parse
from pathlib import Path

PAGES = Path(__file__).resolve().parent / "pages"
CATALOGUE = ["Blue enamel kettle", "Steel whistling kettle", "Stoneware teapot", "Glass teapot with infuser",
             "Teapot warmer (cosy), knitted", "Mug set of four", "Copper milk pan", "Tea caddy"]
LOGGED = ("/submit/", "/signout", "/search")


class _Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=str(PAGES), **kwargs)

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if not url.path.startswith(LOGGED):
            return super().do_GET()
        fields = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query, keep_blank_values=True).items()}
        self.server.site.log.append((url.path, fields))
        if url.path == "/search":
            return self._page("Search results", _results(fields.get("q", "")))
        if url.path == "/signout":
            return self._page("Signed out", "<p>You are signed out. <a href='shop.html'>Back to the shop</a></p>")
        return self._page("Thank you", "<p>Thank you: we have received your form.</p>")

    def _page(self, title: str, body: str):
        payload = (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}</title></head>"
                   f"<body><h1>{title}</h1>{body}</body></html>").encode()
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def _results(query: str) -> str:
    words = query.lower().split()
    found = [item for item in CATALOGUE if words and all(w in item.lower() for w in words)]
    items = "".join(f"<li>{html.escape(item)}</li>" for item in found)
    return f"<p>{len(found)} results for “{html.escape(query)}”.</p><ul>{items}</ul>"


class Site:
    """with Site() as site: site.url("shop.html"); site.log is what it was asked."""

    def __init__(self):
        self.log: list[tuple[str, dict]] = []
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.site, self._server.daemon_threads = self, True

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{path}"

    def __enter__(self) -> Site:
        threading.Thread(target=self._server.serve_forever, args=(0.1,), daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
