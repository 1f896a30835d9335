"""A throwaway HTTP server for test pages.

Pages are served over real HTTP (not file://) so that they have an origin: same-origin
iframes, relative links and "does this link stay on the site" behave as on a real site.

    with PageServer("/path/to/pages") as server:
        driver.get(server.url("article.html"))
"""

import functools
import http.server
import threading
from pathlib import Path
from urllib.parse import quote


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    # Test files are UTF-8; without a charset the browser would guess (windows-1252) for
    # pages that do not declare one, and read "’" as "â€™".
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8",
        ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
        ".json": "application/json; charset=utf-8", ".txt": "text/plain; charset=utf-8",
    }

    # Test output should show failures, not one access-log line per request.
    def log_message(self, format, *args):
        pass


class PageServer:
    """Serves `root` on 127.0.0.1 at a free port, in a background thread."""

    def __init__(self, root):
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise FileNotFoundError(f"no such directory to serve: {self.root}")
        handler = functools.partial(_QuietHandler, directory=str(self.root))
        # Port 0: the OS picks a free port, so parallel runs never collide.
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = None

    @property
    def port(self):
        return self._httpd.server_address[1]

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    def url(self, path=""):
        return f"{self.origin}/{quote(str(path).lstrip('/'))}"

    def start(self):
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread:
            self._thread.join(timeout=5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
