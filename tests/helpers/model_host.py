"""A local stand-in for a model host (Hugging Face's resolve/ addresses): it serves GGUF files on
127.0.0.1 with HTTP Range, as a real host does, and can misbehave the ways the on-device
provider's downloads must survive or refuse:

    /files/<name>      the file, whole (200) or from a Range (206)
    /cut/<name>        the first request ends after a third of the file (the connection closes);
                       later ones answer normally, so a resumed download completes
    /away/<name>       a redirect to the same file at localhost (another origin, another site)
    /tampered/<name>   a file of the same name and size that begins as a GGUF file does but whose
                       bytes differ after its first kilobytes (a swapped or corrupted model)
    /not-gguf.gguf     a page of HTML named like a model

Each request's path and Range header are kept in `seen`. The server stops when the test ends.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

NOT_GGUF = b"<!doctype html><title>Sign in</title><p>Please sign in to download this file.</p>" * 40


def tampered(data: bytes) -> bytes:
    """The same length and the same first 4 KiB (the GGUF magic and header start), other bytes after."""
    rest = bytearray(data[4096:])
    for at in range(0, len(rest), 997):
        rest[at] ^= 0xFF
    return data[:4096] + bytes(rest)


class ModelHost:
    def __init__(self, files: dict[str, Path]):
        self.files = files
        self.seen: list[tuple[str, str | None]] = []
        self.cut_done: set[str] = set()
        host = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                host.seen.append((self.path, self.headers.get("range")))
                kind, _, name = self.path.lstrip("/").partition("/")
                if self.path == "/not-gguf.gguf":
                    return self._send(NOT_GGUF, 200, len(NOT_GGUF))
                if kind == "away" and name in host.files:
                    self.send_response(302)
                    self.send_header("location", f"http://localhost:{host.port}/files/{name}")
                    self.send_header("content-length", "0")
                    return self.end_headers()
                if kind not in ("files", "cut", "tampered") or name not in host.files:
                    return self._send(b"not found", 404, 9)
                data = host.files[name].read_bytes()
                if kind == "tampered":
                    data = tampered(data)
                start = 0
                if rng := self.headers.get("range"):
                    start = int(rng.removeprefix("bytes=").split("-")[0])
                body = data[start:]
                status = 206 if start else 200
                cut = kind == "cut" and name not in host.cut_done
                self.send_response(status)
                self.send_header("content-type", "application/octet-stream")
                self.send_header("accept-ranges", "bytes")
                self.send_header("content-length", str(len(body)))
                if start:
                    self.send_header("content-range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.end_headers()
                if cut:
                    host.cut_done.add(name)
                    self.wfile.write(body[: len(data) // 3])
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(2)  # a broken connection, mid-file
                    return
                self.wfile.write(body)

            def _send(self, body: bytes, status: int, length: int):
                self.send_response(status)
                self.send_header("content-type", "text/html" if body is NOT_GGUF else "text/plain")
                self.send_header("content-length", str(length))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __enter__(self) -> ModelHost:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
