"""Where an attacker would send what they stole: an HTTP server on 127.0.0.1 that answers
anything with a 1x1 GIF and records every request. A red-team test points an attack at
it and then asserts it heard nothing.

    with ListeningPost() as post:
        page = f"... ![x]({post.url('steal')}?d=...) ..."
        ...
        assert post.requests == []
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _record(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length).decode(errors="replace") if length else ""
        self.server.owner.requests.append({"method": self.command, "path": self.path, "body": body})
        self.send_response(200)
        self.send_header("content-type", "image/gif")
        self.send_header("content-length", str(len(GIF)))
        self.send_header("access-control-allow-origin", "*")
        self.end_headers()
        self.wfile.write(GIF)

    do_GET = do_POST = do_PUT = do_OPTIONS = do_HEAD = _record


class ListeningPost:
    def __init__(self):
        self.requests: list[dict] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._server.owner = self
        self._thread = threading.Thread(target=self._server.serve_forever, name="listening-post", daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str = "") -> str:
        return f"{self.origin}/{path.lstrip('/')}"

    def __enter__(self) -> "ListeningPost":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
