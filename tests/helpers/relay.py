"""A TCP relay in front of a server, that can cut a connection as a network would: after
forwarding the server's bytes that carry a given marker, it closes both sides mid-response.

    with Relay(target_port, cut_after=b"notifications/progress") as relay:
        relay.url("/mcp")   # http://127.0.0.1:RELAY_PORT/mcp
        relay.cuts          # how many connections it has cut (once by default)

The client sees what it would after a dropped Wi-Fi: a response whose body stops in the
middle, with no clean end. Everything else passes through unchanged.
"""

from __future__ import annotations

import socket
import threading


class Relay:
    def __init__(self, target_port: int, cut_after: bytes | None = None, times: int = 1, method: bytes = b"POST"):
        self.target_port, self.cut_after, self.times = target_port, cut_after, times
        self.method = method  # only the answers to requests of this method are cut (not a resumed GET)
        self.cuts = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._open: list[socket.socket] = []

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __enter__(self) -> "Relay":
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._listener.close()
        for sock in list(self._open):
            _close(sock)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # closed
            server = socket.create_connection(("127.0.0.1", self.target_port))
            self._open += [client, server]
            asked = {"method": b""}  # of the request the connection carries now
            threading.Thread(target=self._pump, args=(client, server, asked, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, asked, True), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, asked: dict, from_server: bool) -> None:
        try:
            while data := source.recv(65536):
                if not from_server and data.split(b" ", 1)[0].isalpha():
                    asked["method"] = data.split(b" ", 1)[0]  # a new request on this connection
                sink.sendall(data)
                if from_server and asked["method"] == self.method and self._should_cut(data):
                    break  # what carried the marker went through; the rest never will
        except OSError:
            pass
        _close(source)
        _close(sink)

    def _should_cut(self, data: bytes) -> bool:
        if self.cut_after is None or self.cut_after not in data:
            return False
        with self._lock:
            if self.cuts >= self.times:
                return False
            self.cuts += 1
            return True


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
