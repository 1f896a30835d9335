"""The test helpers' CDP client keeps reading through a quiet while on its socket."""

from __future__ import annotations

import io
import json
import threading

import websocket

from tests.helpers import cdp


class QuietThenAnswering:
    """A DevTools socket that says nothing for one receive timeout, then answers command 1."""

    def __init__(self):
        self.replies = [websocket.WebSocketTimeoutException("quiet"), json.dumps({"id": 1, "result": {"ok": True}})]
        self.sent = threading.Event()

    def send(self, _payload):
        self.sent.set()

    def recv(self):
        self.sent.wait(10)
        reply = self.replies.pop(0) if self.replies else websocket.WebSocketConnectionClosedException("closed")
        if isinstance(reply, Exception):
            raise reply
        return reply


def test_a_receive_timeout_does_not_end_the_reader(monkeypatch):
    monkeypatch.setattr(cdp.urllib.request, "urlopen", lambda *a, **k: io.StringIO('{"webSocketDebuggerUrl": "ws://x"}'))
    monkeypatch.setattr(cdp.websocket, "create_connection", lambda *a, **k: QuietThenAnswering())
    client = cdp.CDP("127.0.0.1:1")
    assert client.send("Browser.getVersion", timeout=10) == {"ok": True}
