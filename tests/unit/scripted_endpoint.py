"""A scripted HTTP endpoint on 127.0.0.1 for the context-window tests: fixed answers by
method and path (a model list, llama.cpp's /props, Ollama's /api/show), and chat
completions played from a script of raw responses, recorded as they come.

    with ScriptedEndpoint({("GET", "/v1/models"): (200, {...})}) as endpoint:
        endpoint.chat.append(sse_reply("Hello"))   # or (400, {...}), or EMPTY_STREAM
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EMPTY_STREAM = "empty stream"  # 200, the event-stream content type, then nothing


def sse_reply(text: str) -> list[dict]:
    """The chunks of a streamed reply saying `text`."""
    chunk = {"id": "c", "object": "chat.completion.chunk", "model": "m"}
    return [{**chunk, "choices": [{"index": 0, "delta": {"role": "assistant", "content": text},
                                   "finish_reason": None}]},
            {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self._answer("GET", None)

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        self._answer("POST", json.loads(raw or b"{}"))

    def _answer(self, method, body):
        owner = self.server.owner
        owner.seen.append((method, self.path, body))
        decided = self.server.answer(method, self.path, body) if getattr(self.server, "answer", None) else None
        if decided is not None:  # a subclass's own answer (scripted_ollama.py), the request recorded
            if method == "POST" and self.path.endswith(("/chat/completions", "/api/chat")):
                owner.chat_requests.append(body)
            return self._send(decided[0], json.dumps(decided[1]).encode(), "application/json")
        if method == "POST" and self.path.endswith(("/chat/completions", "/api/chat")):
            owner.chat_requests.append(body)
            return self._chat(owner.chat.pop(0) if owner.chat else (500, {"error": {"message": "no script"}}))
        status, payload = owner.routes.get((method, self.path), (404, {"error": "no such path"}))
        self._send(status, json.dumps(payload).encode(), "application/json")

    def _chat(self, reply):
        if isinstance(reply, bytes):  # Ollama's native stream: lines of JSON
            return self._send(200, reply, "application/x-ndjson")
        if reply == EMPTY_STREAM:
            return self._send(200, b"", "text/event-stream")
        if isinstance(reply, tuple):
            status, payload = reply
            return self._send(status, json.dumps(payload).encode(), "application/json")
        events = "".join(f"data: {json.dumps(c)}\n\n" for c in reply) + "data: [DONE]\n\n"
        self._send(200, events.encode(), "text/event-stream")

    def _send(self, status, payload: bytes, content_type):
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


class ScriptedEndpoint:
    def __init__(self, routes: dict | None = None):
        self.routes = routes or {}
        self.chat: list = []            # replies for the next chat requests, in order
        self.chat_requests: list[dict] = []
        self.seen: list[tuple] = []     # (method, path, body) of every request
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._server.owner = self
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def base_url(self) -> str:
        return self.root + "/v1"

    def __enter__(self) -> ScriptedEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
