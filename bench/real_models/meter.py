"""A meter in front of llama.cpp's server: every agent of the bench, TabAgent and the peers, talks
to the model through it, so each one's tokens are counted the same way.

llama-cpp-python's server does not report usage in a streamed reply, so the meter counts
itself, with the model's own tokenizer and chat template (tests/helpers/llama_server.py's ChatTemplate: llama-cpp-python's own
Jinja2ChatFormatter over the GGUF's template, as the server renders each request): the prompt
as the server built it, and the reply's text and tool calls as they came back.

It also says two things in llama-cpp-python's spelling that its server only takes in that
spelling (each client's intent kept, for every agent alike): `max_completion_tokens` (OpenAI's
newer name) as `max_tokens`, and a `json_schema` response format as its `json_object` with the
same schema (the server answers 422 to `json_schema`; with `schema` it constrains the reply by
grammar, as llama-server and Ollama do for `json_schema`).
"""

from __future__ import annotations

import http.client
import http.server
import json
import threading
import urllib.parse

from tests.helpers.llama_server import ChatTemplate


REPLY_KEPT = 1500  # characters of each reply kept in the row: what the model wrote, for whoever reads a failure


class Counter(ChatTemplate):
    """Tokens of a request's prompt as the server renders it, and of a reply's text."""

    def prompt(self, body: dict) -> int:
        try:
            return self.tokens(self.render(body.get("messages") or [], body.get("tools"), body.get("tool_choice")))
        except Exception:  # a request the template cannot render: the server refuses it too
            return 0


def as_llama_cpp_takes_it(body: dict) -> dict:
    body = dict(body)
    if "max_completion_tokens" in body and "max_tokens" not in body:
        body["max_tokens"] = body.pop("max_completion_tokens")
    shape = body.get("response_format")
    if isinstance(shape, dict) and shape.get("type") == "json_schema":
        schema = (shape.get("json_schema") or {}).get("schema")
        body["response_format"] = {"type": "json_object", **({"schema": schema} if schema else {})}
    return body


# Where a server says it can hold a reply to a schema or grammar (py/tabagent/reply_grammar.py asks
# these): a meter with grammar=False answers 404 to them, as a server that cannot.
CONSTRAINT_PROBES = ("/openapi.json", "/props", "/api/version", "/api/v0/models")


def held(body: dict) -> bool:
    """Whether a request asks the server to hold its reply to a schema, a grammar or a tool."""
    shape = body.get("response_format")
    return bool(body.get("grammar") or (isinstance(shape, dict) and shape.get("type") != "text")
                or body.get("tool_choice") == "required" or isinstance(body.get("tool_choice"), dict))


def reply_text(raw: bytes) -> str:
    """The text the model wrote in a reply, streamed or not: content and tool calls."""
    text = raw.decode(errors="replace")
    pieces = []
    payloads = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")] or [text]
    for payload in payloads:
        try:
            choice = (json.loads(payload).get("choices") or [{}])[0]
        except (ValueError, AttributeError):
            continue
        message = choice.get("delta") or choice.get("message") or {}
        pieces.append(message.get("content") or "")
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            pieces.append((function.get("name") or "") + (function.get("arguments") or ""))
    return "".join(pieces)


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # the reply ends when the connection closes: a stream passes as it comes

    def log_message(self, *args):
        pass

    def do_GET(self):
        self._forward(None)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        self._forward(body)

    def _forward(self, body: bytes | None):
        meter: Meter = self.server.meter
        if body is None and not meter.grammar and urllib.parse.urlsplit(self.path).path.endswith(CONSTRAINT_PROBES):
            self.send_error(404)
            return
        request = None
        if body and self.path.endswith("/chat/completions"):
            try:
                request = as_llama_cpp_takes_it(json.loads(body))
                body = json.dumps(request).encode()
            except ValueError:
                request = None
        upstream = http.client.HTTPConnection(meter.host, meter.port, timeout=3600)
        headers = {"content-type": "application/json"} if body else {}
        upstream.request(self.command, self.path, body, headers)
        response = upstream.getresponse()
        self.send_response(response.status)
        for name in ("content-type", "cache-control"):
            if response.getheader(name):
                self.send_header(name, response.getheader(name))
        self.end_headers()
        received = bytearray()
        try:
            while chunk := response.read1(65536):
                received += chunk
                try:
                    self.wfile.write(chunk)
                    self.wfile.flush()
                except OSError:  # the agent stopped listening (a stopped turn): the model's work still counts
                    pass
        except (http.client.IncompleteRead, OSError):  # the server cut the reply short: counted as far as it came
            pass
        upstream.close()
        if request is not None:
            meter.add(request, bytes(received))


class Meter:
    """with Meter(upstream_root, gguf) as meter: agents use meter.base_url; meter.take() gives
    and resets {"requests", "held", "prompt_tokens", "completion_tokens", "replies"} since the last
    take (held: the requests that asked for a reply held to a schema, a grammar or a tool; replies:
    the text of each reply, in order, its first REPLY_KEPT characters)."""

    def __init__(self, upstream_root: str, gguf: str, grammar: bool = True):
        self.grammar = grammar  # False: the server is said not to hold replies (CONSTRAINT_PROBES answer 404)
        split = urllib.parse.urlsplit(upstream_root)
        self.host, self.port = split.hostname, split.port
        self.counter = Counter(gguf)
        self._lock = threading.Lock()
        self._counts = self._zero()
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.meter, self._server.daemon_threads = self, True

    @staticmethod
    def _zero() -> dict:
        return {"requests": 0, "held": 0, "prompt_tokens": 0, "completion_tokens": 0, "replies": []}

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def add(self, request: dict, reply: bytes) -> None:
        text = reply_text(reply)
        prompt, completion = self.counter.prompt(request), self.counter.tokens(text)
        with self._lock:
            self._counts["requests"] += 1
            self._counts["held"] += held(request)
            self._counts["prompt_tokens"] += prompt
            self._counts["completion_tokens"] += completion
            self._counts["replies"].append(text[:REPLY_KEPT])

    def take(self) -> dict:
        with self._lock:
            counts, self._counts = self._counts, self._zero()
        return counts

    def __enter__(self) -> Meter:
        threading.Thread(target=self._server.serve_forever, args=(0.1,), daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
