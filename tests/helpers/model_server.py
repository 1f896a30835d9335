"""A scripted OpenAI-compatible model server for end-to-end tests.

It listens on 127.0.0.1 at a free port and answers `POST /v1/chat/completions` with the
next reply from its script, streamed as real server-sent events when the request asks for
`stream: true`. It records every request and every raw response so tests can assert on
exactly what crossed the wire.

    with ModelServer() as model:
        model.script(Reply(text="Hello **world**"), Reply(status=401))
        ... point the extension at model.base_url ...
        assert model.requests[0]["body"]["messages"][-1]["content"] == "hi"
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    text: str = ""
    tool_calls: list[dict] = field(default_factory=list)  # [{"name": ..., "arguments": {...}}]
    status: int = 200  # an HTTP error status makes this an error reply
    error: str = ""  # the error message for an error status
    retry_after: float | None = None
    token_delay: float = 0.0  # seconds between streamed pieces
    first_token_delay: float = 0.0
    pieces: list[str] | None = None  # how to split `text` when streaming (default: by word)
    together: bool = False  # the text's pieces in one write: what a fast server's buffered output looks like
    usage: dict | None = None
    reasoning: str = ""  # streamed, word by word, before the text
    # where the reasoning goes: a delta field ("reasoning_content", "reasoning"), or "think"
    # for a <think> block at the start of the content
    reasoning_field: str = "reasoning_content"
    stream_error: dict | None = None  # sent inside the stream after the text, instead of finishing
    finish_reason: str | None = None  # the stream's last finish_reason ("length": cut at the output limit)
    # The stream waits for this event (set by the test) at `pause_at`: "text" (after the
    # reasoning, before the text) or "end" (after the text): tests see a moment, not a race.
    pause: threading.Event | None = None
    pause_at: str = "text"
    # tool_calls made when the reply is due, from the requests so far (an id a tool gave earlier)
    calls_from: object = None  # callable(requests) -> [{"name": ..., "arguments": {...}}]

    def wait(self, where: str) -> None:
        if self.pause is not None and self.pause_at == where:
            self.pause.wait(30)

    def text_pieces(self) -> list[str]:
        if self.pieces is not None:
            return self.pieces
        words = self.text.split(" ")
        return [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words) if w or i < len(words) - 1]


def _chunk(delta: dict, finish: str | None = None, usage: dict | None = None) -> dict:
    payload = {"id": "chatcmpl-e2e", "object": "chat.completion.chunk", "model": "scripted",
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    if usage:
        payload["usage"] = usage
    return payload


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "_Server"

    def log_message(self, *args):
        pass

    def do_OPTIONS(self):
        self._send(204, b"", "text/plain")

    def do_GET(self):
        # Model lists and other look-ups (an agent asking the context window) are kept apart
        # from `requests`, which are the chat requests.
        self.server.owner.lookups.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}})
        required = self.server.owner.required_key
        if required and self.headers.get("authorization") != f"Bearer {required}":
            return self._send(401, b'{"error": {"message": "Incorrect API key provided"}}', "application/json")
        if self.path.rstrip("/").endswith("/models"):
            body = {"object": "list", "data": [{"id": m, "object": "model"} for m in self.server.owner.models]}
            if self.server.owner.context_length:  # as OpenRouter says it
                for entry in body["data"]:
                    entry["context_length"] = self.server.owner.context_length
            for entry in body["data"] if self.server.owner.seeing is not None else ():  # as OpenRouter says it
                entry["architecture"] = {"input_modalities": ["text", "image"] if entry["id"] in self.server.owner.seeing else ["text"]}
            return self._send(200, json.dumps(body).encode(), "application/json")
        self._send(404, b'{"error": {"message": "not found"}}', "application/json")

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        owner = self.server.owner
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"unparsed": raw.decode(errors="replace")}
        ollama = self.path.rstrip("/").endswith("/api/chat")  # Ollama's native API (ollama.py)
        if not self.path.rstrip("/").endswith("/chat/completions") and not ollama:
            return self._send(404, b'{"error": {"message": "unknown path"}}', "application/json")
        reply = owner._next_reply({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body, "raw": raw.decode(errors="replace")})
        if reply is None:
            return self._send(500, b'{"error": {"message": "the test scripted no more replies"}}', "application/json")
        if reply.status != 200:
            headers = {"retry-after": str(reply.retry_after)} if reply.retry_after is not None else {}
            payload = json.dumps({"error": {"message": reply.error or f"scripted {reply.status}", "code": reply.status}}).encode()
            owner._record_response(payload.decode())
            return self._send(reply.status, payload, "application/json", headers)
        if ollama:
            self._ollama(reply)
        elif body.get("stream"):
            self._stream(reply)
        else:
            self._complete(reply)

    def _send(self, status: int, payload: bytes, content_type: str, headers: dict | None = None):
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(payload)))
        self.send_header("access-control-allow-origin", "*")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(payload)

    def _complete(self, reply: Reply):
        message = {"role": "assistant", "content": reply.text or None}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": f"call_{i}", "type": "function", "function": {"name": c["name"], "arguments": json.dumps(c.get("arguments", {}))}}
                for i, c in enumerate(reply.tool_calls)
            ]
        payload = json.dumps({"id": "chatcmpl-e2e", "object": "chat.completion", "model": "scripted",
                              "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if reply.tool_calls else "stop"}],
                              "usage": reply.usage or {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}).encode()
        self.server.owner._record_response(payload.decode())
        self._send(200, payload, "application/json")

    def _ollama(self, reply: Reply):
        """The reply as Ollama's native API streams it: one JSON object per line."""
        lines = [{"message": {"role": "assistant", "content": piece}, "done": False}
                 for piece in (reply.text_pieces() if reply.text else [])]
        if reply.tool_calls:
            lines.append({"message": {"role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": c["name"], "arguments": c.get("arguments", {})}} for c in reply.tool_calls]},
                "done": False})
        lines.append({"message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop",
                      "prompt_eval_count": 10, "eval_count": 5})
        payload = "".join(json.dumps(line) + "\n" for line in lines)
        self.server.owner._record_response(payload)
        self._send(200, payload.encode(), "application/x-ndjson")

    def _stream(self, reply: Reply):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("access-control-allow-origin", "*")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        sent = []

        def event(*datas: str):  # several: in one write
            lines = [f"data: {data}\n\n" for data in datas]
            sent.extend(lines)
            encoded = "".join(lines).encode()
            self.wfile.write(f"{len(encoded):x}\r\n".encode() + encoded + b"\r\n")
            self.wfile.flush()
            for data in datas:
                self.server.owner._on_sent(data)

        try:
            time.sleep(reply.first_token_delay)
            event(json.dumps(_chunk({"role": "assistant", "content": ""})))
            thoughts = [w + " " for w in reply.reasoning.split(" ")] if reply.reasoning else []
            if thoughts and reply.reasoning_field == "think":
                thoughts = ["<think>", *thoughts, "</think>\n\n"]
            for piece in thoughts:
                key = "content" if reply.reasoning_field == "think" else reply.reasoning_field
                event(json.dumps(_chunk({key: piece})))
                time.sleep(reply.token_delay)
            reply.wait("text")
            text_events = [json.dumps(_chunk({"content": piece})) for piece in (reply.text_pieces() if reply.text else [])]
            if reply.together and text_events:
                event(*text_events)
            for data in [] if reply.together else text_events:
                event(data)
                time.sleep(reply.token_delay)
            for i, call in enumerate(reply.tool_calls):
                arguments = json.dumps(call.get("arguments", {}))
                half = len(arguments) // 2  # arguments arrive in pieces, as real servers send them
                event(json.dumps(_chunk({"tool_calls": [{"index": i, "id": f"call_{i}", "type": "function",
                                                          "function": {"name": call["name"], "arguments": arguments[:half]}}]})))
                event(json.dumps(_chunk({"tool_calls": [{"index": i, "function": {"arguments": arguments[half:]}}]})))
            reply.wait("end")
            if reply.stream_error is not None:
                event(json.dumps({"error": reply.stream_error}))
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
                return
            usage = reply.usage or {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
            event(json.dumps(_chunk({}, reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop"), usage)))
            event("[DONE]")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.server.owner.hangups += 1
        finally:
            self.server.owner._record_response("".join(sent))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: "ModelServer"


class ModelServer:
    def __init__(self, models: tuple[str, ...] = ("scripted-model", "scripted-model-large")):
        self.models = list(models)
        self.required_key: str | None = None  # when set, GET /models wants this bearer key
        self.requests: list[dict] = []
        self.lookups: list[dict] = []  # GET requests: model lists, context window look-ups
        self.context_length: int | None = None  # when set, the model list gives each model this window
        # when set, the model list says which models take images (OpenRouter's input_modalities)
        self.seeing: set[str] | None = None
        self.responses: list[str] = []
        self.hangups = 0
        self._replies: list[Reply] = []
        self._lock = threading.Lock()
        self._sent_listeners = []
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(target=self._server.serve_forever, name="model-server", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._replies.extend(replies)

    def reset(self) -> None:
        with self._lock:
            self._replies.clear()
            self.requests.clear()
            self.lookups.clear()
            self.responses.clear()
            self.hangups = 0

    def on_sent(self, listener) -> None:
        """listener(data, monotonic_time) for each SSE event as it leaves the server."""
        self._sent_listeners.append(listener)

    def _next_reply(self, request: dict) -> Reply | None:
        with self._lock:
            self.requests.append(request)
            reply = self._replies.pop(0) if self._replies else None
        if reply is not None and reply.calls_from is not None:
            reply.tool_calls = reply.calls_from(self.requests)
        return reply

    def pictures(self, index: int) -> list[dict]:
        """The image parts of request `index`: {"role", "url", "before": the text part just before}."""
        found = []
        for message in self.requests[index]["body"].get("messages", []):
            parts = message.get("content") if isinstance(message.get("content"), list) else []
            for i, part in enumerate(parts):
                if part.get("type") == "image_url":
                    before = parts[i - 1].get("text", "") if i else ""
                    found.append({"role": message["role"], "url": part["image_url"]["url"], "before": before,
                                  "after": parts[i + 1].get("text", "") if i + 1 < len(parts) else ""})
        return found

    def _record_response(self, text: str) -> None:
        with self._lock:
            self.responses.append(text)

    def _on_sent(self, data: str) -> None:
        now = time.monotonic()
        for listener in self._sent_listeners:
            listener(data, now)

    def __enter__(self) -> "ModelServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
