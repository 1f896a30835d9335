"""A real HTTP server on 127.0.0.1 that plays an OpenAI-compatible endpoint.

Tests pick a behaviour by URL: `server.base_url("rate_limited_once")` gives
`http://127.0.0.1:PORT/s/rate_limited_once/<fresh id>/v1`, so each test has its own
attempt counter even when the same server is shared (by the CPython tests, and by
the Pyodide cases running in Node). `GET <base_url>/stats` reports what the server
saw: number of requests, request bodies and headers, whether the client hung up.

`/s/recorded_<name>/...` plays a provider's reply as recorded in provider_streams.py.

Responses are chunked HTTP/1.1 with real server-sent events, written in pieces
(events split mid-line, a UTF-8 character split across writes) so the client's
reassembly is exercised on a real socket.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from provider_streams import RECORDINGS


def chunk(delta: dict | None = None, finish_reason: str | None = None, usage: dict | None = None) -> dict:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish_reason}]
    payload = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "model": "fake", "choices": choices}
    if usage:
        payload["usage"] = usage
    return payload


USAGE = {"prompt_tokens": 11, "completion_tokens": 4, "total_tokens": 15}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # keep test output clean
        pass

    # --- plumbing ---------------------------------------------------------------

    def do_GET(self):
        parts = self.path.strip("/").split("/")
        if len(parts) >= 4 and parts[0] == "s" and parts[-1] == "stats":
            self.send_json(200, self.server.fake.stats(parts[2]))
        elif len(parts) == 4 and parts[1] == "llama_cpp_python" and parts[-1] == "openapi.json":
            # llama-cpp-python's FastAPI schema says a chat request takes a grammar (reply_grammar.py)
            fields = {name: {} for name in ("messages", "tools", "grammar", "response_format")}
            self.send_json(200, {"components": {"schemas": {"CreateChatCompletionRequest": {"properties": fields}}}})
        else:
            self.send_json(404, {"error": {"message": "no such path"}})

    def do_POST(self):
        parts = self.path.strip("/").split("/")
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if len(parts) < 4 or parts[0] != "s" or not self.path.endswith("/chat/completions"):
            return self.send_json(404, {"error": {"message": f"unknown path {self.path}"}})
        scenario, key = parts[1], parts[2]
        attempt = self.server.fake.record(key, body, dict(self.headers))
        try:
            if scenario.startswith("recorded_"):
                return self.play(RECORDINGS[scenario.removeprefix("recorded_")], attempt)
            getattr(self, "scenario_" + scenario)(attempt, body)
        except (BrokenPipeError, ConnectionResetError):
            self.server.fake.mark(key, disconnected=True)

    def send_json(self, status: int, payload, headers: dict | None = None):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def start_sse(self):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream; charset=utf-8")
        self.send_header("transfer-encoding", "chunked")
        self.send_header("cache-control", "no-cache")
        self.end_headers()

    def write(self, data: bytes | str):
        if isinstance(data, str):
            data = data.encode()
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def event(self, payload, split: bool = True):
        """One SSE event, written in two pieces split mid-line."""
        data = f"data: {json.dumps(payload, ensure_ascii=False)}\n\n".encode()
        if split and len(data) > 12:
            self.write(data[:9])
            self.write(data[9:])
        else:
            self.write(data)

    def end_sse(self):
        self.write(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def play(self, recordings, attempt):
        """A provider's recorded reply (provider_streams.py), in small pieces on the wire."""
        recording = recordings[min(attempt, len(recordings)) - 1]
        self.send_response(recording.status)
        if recording.content_type:
            self.send_header("content-type", recording.content_type)
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        data = recording.body.encode()
        for start in range(0, len(data), 37):  # splits lines, tags and UTF-8 characters alike
            self.write(data[start:start + 37])
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def drop(self):
        """Hang up mid-body, without the final empty chunk."""
        self.wfile.flush()
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    # --- scenarios: scenario_<name>(attempt, request_body) ------------------------

    def scenario_text(self, attempt, body):
        self.start_sse()
        self.event(chunk({"role": "assistant", "content": ""}))
        self.write(b": keep-alive comment\n\n")
        self.event(chunk({"content": "Hel"}))
        self.event(chunk({"content": "lo, "}))
        # "wörld" with the two bytes of "ö" in different writes, and CRLF line ends.
        data = f"data: {json.dumps(chunk({'content': 'wörld'}), ensure_ascii=False)}\r\n\r\n".encode()
        cut = data.index("ö".encode()) + 1
        self.write(data[:cut])
        self.write(data[cut:])
        self.event(chunk({}, finish_reason="stop"))
        self.event(chunk(None, usage=USAGE))
        self.end_sse()

    def scenario_llama_cpp_python(self, attempt, body):
        """Calls cut off until a reply is held to a tool call (response_format's schema): then one."""
        held = (body.get("response_format") or {}).get("schema")
        content = ('{"name": "final_answer", "arguments": {"answer": "held"}}' if held
                   else '<tool_call>\n{"name": "add", "arguments": {"a": 1, "b"')
        self.start_sse()
        self.event(chunk({"role": "assistant", "content": content}))
        self.event(chunk({}, finish_reason="stop"))
        self.end_sse()

    def scenario_tool_call_split(self, attempt, body):
        self.start_sse()
        self.event(chunk({"role": "assistant", "content": None, "tool_calls": [{
            "index": 0, "id": "call_abc", "type": "function",
            "function": {"name": "get_weather", "arguments": ""}}]}))
        for piece in ['{"ci', 'ty": "Pa', 'ris", "un', 'its": "C"}']:
            self.event(chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}))
        self.event(chunk({}, finish_reason="tool_calls"))
        self.event(chunk(None, usage=USAGE))
        self.end_sse()

    def scenario_parallel_tool_calls(self, attempt, body):
        self.start_sse()
        self.event(chunk({"role": "assistant", "tool_calls": [{
            "index": 0, "id": "call_1", "type": "function", "function": {"name": "add", "arguments": ""}}]}))
        self.event(chunk({"tool_calls": [{
            "index": 1, "id": "call_2", "type": "function", "function": {"name": "mul", "arguments": ""}}]}))
        for index, piece in [(0, '{"a": '), (1, '{"a": 3'), (0, '2, "b": 3}'), (1, ', "b": 4}')]:
            self.event(chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
        self.event(chunk({}, finish_reason="tool_calls"))
        self.end_sse()

    def scenario_rate_limited_once(self, attempt, body):
        if attempt == 1:
            return self.send_json(429, {"error": {"message": "Rate limit reached", "type": "requests"}},
                                  {"retry-after": "1"})
        self.scenario_text(attempt, body)

    def scenario_server_error(self, attempt, body):
        self.send_json(500, {"error": {"message": "The server had an error", "type": "server_error"}})

    def scenario_unauthorized(self, attempt, body):
        self.send_json(401, {"error": {"message": "Incorrect API key provided: sk-te***",
                                       "type": "invalid_request_error", "code": "invalid_api_key"}})

    def scenario_context_too_long(self, attempt, body):
        self.send_json(400, {"error": {"message": "This model's maximum context length is 8192 "
                                       "tokens.", "code": "context_length_exceeded"}})

    def scenario_bad_request(self, attempt, body):
        self.send_json(400, {"error": {"message": "'temperature' must be a number"}})

    def scenario_drop_mid_stream(self, attempt, body):
        self.start_sse()
        self.event(chunk({"content": "Partial"}))
        self.event(chunk({"content": " answ"}))
        self.drop()

    def scenario_drop_once(self, attempt, body):
        if attempt == 1:
            return self.scenario_drop_mid_stream(attempt, body)
        self.scenario_text(attempt, body)

    def scenario_slow_stream(self, attempt, body):
        """One token, then keep-alive comments until the client hangs up."""
        self.start_sse()
        self.event(chunk({"content": "Thinking"}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            time.sleep(0.02)
            self.write(b": still thinking\n\n")  # raises once the client has gone

    def scenario_slow_headers(self, attempt, body):
        time.sleep(1.0)
        self.scenario_text(attempt, body)

    def scenario_non_streaming(self, attempt, body):
        self.send_json(200, {"id": "chatcmpl-test", "object": "chat.completion", "choices": [{
            "index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": "Hello from a plain endpoint"}}],
            "usage": USAGE})

    def scenario_agent(self, attempt, body):
        """A tiny tool-calling model: call add(2, 3), then answer with its result."""
        results = [m["content"] for m in body["messages"] if m["role"] == "tool"]
        self.start_sse()
        if not results:
            call = {"index": 0, "id": "call_add", "type": "function",
                    "function": {"name": "add", "arguments": '{"a": 2, '}}
            self.event(chunk({"role": "assistant", "content": "Adding.", "tool_calls": [call]}))
            self.event(chunk({"tool_calls": [{"index": 0, "function": {"arguments": '"b": 3}'}}]}))
        else:
            call = {"index": 0, "id": "call_fin", "type": "function",
                    "function": {"name": "final_answer", "arguments": json.dumps({"answer": results[-1]})}}
            self.event(chunk({"role": "assistant", "tool_calls": [call]}))
        self.event(chunk({}, finish_reason="tool_calls"))
        self.event(chunk(None, usage=USAGE))
        self.end_sse()


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that hangs up on a kept-alive connection is normal, not worth a traceback.
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


class FakeOpenAI:
    def __init__(self):
        self.httpd = QuietServer(("127.0.0.1", 0), Handler)
        self.httpd.fake = self
        self._stats: dict[str, dict] = {}
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def base_url(self, scenario: str) -> str:
        return f"{self.url}/s/{scenario}/{uuid.uuid4().hex}/v1"

    def record(self, key: str, body: dict, headers: dict) -> int:
        with self._lock:
            stats = self._stats.setdefault(key, {"requests": 0, "bodies": [], "headers": [],
                                                 "disconnected": False})
            stats["requests"] += 1
            stats["bodies"].append(body)
            stats["headers"].append({k.lower(): v for k, v in headers.items()})
            return stats["requests"]

    def mark(self, key: str, **facts):
        with self._lock:
            self._stats[key].update(facts)

    def stats(self, key_or_url: str) -> dict:
        key = key_or_url.rstrip("/").split("/")[-2] if "/" in key_or_url else key_or_url
        with self._lock:
            return json.loads(json.dumps(self._stats.get(key, {"requests": 0})))

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


if __name__ == "__main__":  # run by hand: python tests/unit/fake_openai.py
    server = FakeOpenAI().start()
    print(server.base_url("text"), flush=True)
    threading.Event().wait()
