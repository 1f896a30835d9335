"""Knowing the model's context window: how many tokens one request may hold.

Asked of the endpoint where it says (the model list of OpenRouter, Groq, vLLM and LM Studio;
llama.cpp's server `/props`; Ollama's `/api/show`, capped by the user's setting, since Ollama
gives whatever num_ctx asks), else taken from the model's name (not for a local server, whose
window is its own setting), else the user's setting. A server that refuses a request as too long may say its window in the
error ("maximum context length is 2048 tokens"): `window_from_error` reads it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from .providers import HOSTED_PROVIDERS, LLAMACPP, LMSTUDIO, LOCAL_PROVIDERS, OLLAMA, ONDEVICE

if TYPE_CHECKING:
    from .host import Host

DEFAULT_WINDOW = 8192  # the setting's default: what most local servers give a model, or more
OLLAMA_DEFAULT = 4096  # what Ollama gives a model below 24 GiB of VRAM, when nothing says more
PROBE_TIMEOUT = 5.0

# Known model families, most specific first: (a pattern found in the name, its window).
KNOWN_MODELS = (
    ("gpt-4.1", 1_047_576), ("gpt-5", 400_000), ("gpt-4o", 128_000), ("gpt-4-turbo", 128_000),
    ("gpt-3.5-turbo", 16_385), ("gpt-4", 8_192), ("o1", 200_000), ("o3", 200_000),
    ("o4-mini", 200_000), ("claude", 200_000), ("gemini", 1_048_576),
    ("llama-3.1", 131_072), ("llama-3.2", 131_072), ("llama-3.3", 131_072),
    ("llama3.1", 131_072), ("llama3.2", 131_072), ("llama3.3", 131_072), ("llama-4", 131_072),
    ("llama3", 8_192), ("llama-3", 8_192), ("mixtral", 32_768), ("mistral", 32_768),
    ("qwen3", 40_960), ("qwen2.5", 32_768), ("deepseek", 65_536), ("gemma3", 131_072),
    ("gemma-3", 131_072), ("gemma2", 8_192), ("gemma-2", 8_192), ("phi-4", 16_384),
    ("phi3", 4_096), ("phi-3", 4_096), ("smollm2", 8_192), ("gpt-oss", 131_072),
)

# Where model lists put the window: OpenRouter, Groq, LM Studio (loaded before max), vLLM.
_LIST_FIELDS = ("context_length", "context_window", "loaded_context_length",
                "max_context_length", "max_model_len")

_ERROR_PATTERNS = (
    re.compile(r"maximum context length is (\d+)", re.I),
    re.compile(r"context window of (\d+)", re.I),
    re.compile(r"context (?:size|length|window) (?:of|is) (\d+)", re.I),
    re.compile(r'"n_ctx"\s*:\s*(\d+)'),  # llama.cpp's server: {"error": {..., "n_ctx": 4096}}
)


@dataclass(frozen=True)
class ContextWindow:
    tokens: int
    source: str  # where it came from, in words: "the endpoint (/props)", "the model's name", ...

    @property
    def reply_reserve(self) -> int:
        """Tokens kept free for the model's reply."""
        return min(4096, max(256, self.tokens // 8))

    @property
    def budget(self) -> int:
        """Tokens one request may use."""
        return self.tokens - self.reply_reserve

    @property
    def part_tokens(self) -> int:
        """How long one part of a page read should be: a quarter of the window."""
        return max(200, min(4000, self.tokens // 4))


def from_model_name(name: str) -> int | None:
    name = (name or "").lower()
    for pattern, tokens in KNOWN_MODELS:
        if pattern in name:
            return tokens
    return None


def window_from_error(text: str) -> int | None:
    """The window a server named when it refused a request as too long, if it did."""
    for pattern in _ERROR_PATTERNS:
        if match := pattern.search(text or ""):
            return int(match.group(1))
    return None


async def discover(host: Host, base_url: str, model: str, api_key: str | None = None,
                   provider: str = "", setting: int | None = None) -> ContextWindow:
    """The model's window, from the first source that knows it. Never raises: a source that
    fails or says nothing is skipped."""
    for probe in _probes(provider):
        try:
            tokens, where = await probe(host, base_url, model, api_key)
        except Exception:  # a probe is a guess at what the endpoint offers; any failure: next
            continue
        if tokens and provider == OLLAMA:  # asked for with num_ctx: as much as the user allows
            return _within_setting(tokens, where, setting)
        if tokens and provider == ONDEVICE:  # loaded with the model file's own window, or what memory allows
            return ContextWindow(tokens, "the model file")
        if tokens:
            return ContextWindow(tokens, f"the endpoint ({where})")
    # A local server sets its own window, whatever the model could do: its name says nothing.
    if provider not in LOCAL_PROVIDERS and (tokens := from_model_name(model)):
        return ContextWindow(tokens, f"the model's name ({model})")
    return ContextWindow(int(setting or DEFAULT_WINDOW), "the setting")


def _within_setting(tokens: int, where: str, setting: int | None) -> ContextWindow:
    """Ollama's window: the model's own, capped by the setting (else by Ollama's own default),
    since Ollama gives a model the context each request asks for, memory or not."""
    cap = int(setting or OLLAMA_DEFAULT)
    if tokens <= cap:
        return ContextWindow(tokens, f"the endpoint ({where})")
    return ContextWindow(cap, f"the setting (the model takes {tokens:,}, says {where})")


def _probes(provider: str):
    if provider == OLLAMA:
        return (_ollama_show,)
    if provider == LLAMACPP:
        return (_llama_props, _model_list)
    if provider == ONDEVICE:  # llama.cpp in the extension answers /props (app/on_device_model.py)
        return (_llama_props,)
    if provider == LMSTUDIO:
        return (_lmstudio_models, _model_list)
    if provider in HOSTED_PROVIDERS:
        return (_model_list,)
    return (_model_list, _llama_props, _lmstudio_models, _ollama_show)


async def _get_json(host, method: str, url: str, api_key: str | None, body: dict | None = None):
    headers = {"accept": "application/json"}
    if api_key:
        headers["authorization"] = f"Bearer {api_key}"
    if body is not None:
        headers["content-type"] = "application/json"
    response = await host.request(method, url, headers, json.dumps(body).encode() if body else None,
                                  PROBE_TIMEOUT)
    data = await response.read()
    if response.status != 200:
        return None
    return json.loads(data)


def _root(base_url: str) -> str:
    """The server's root: the base URL without /v1 (or /api/v1) and /chat/completions."""
    parts = urlsplit(base_url.rstrip("/").removesuffix("/chat/completions"))
    path = re.sub(r"/(api/)?v\d+$", "", parts.path.rstrip("/"))
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _models_url(base_url: str) -> str:
    return base_url.rstrip("/").removesuffix("/chat/completions") + "/models"


def _from_listing(data, model: str) -> int | None:
    entries = data.get("data") if isinstance(data, dict) else None
    for entry in entries or []:
        if isinstance(entry, dict) and entry.get("id") == model:
            for key in _LIST_FIELDS:
                value = entry.get(key) or (entry.get("top_provider") or {}).get(key)
                if isinstance(value, int) and value > 0:
                    return value
    return None


async def _model_list(host, base_url, model, api_key):
    return _from_listing(await _get_json(host, "GET", _models_url(base_url), api_key), model), "/models"


async def _lmstudio_models(host, base_url, model, api_key):
    data = await _get_json(host, "GET", _root(base_url) + "/api/v0/models", api_key)
    return _from_listing(data, model), "/api/v0/models"


async def _llama_props(host, base_url, model, api_key):
    data = await _get_json(host, "GET", _root(base_url) + "/props", api_key) or {}
    settings = data.get("default_generation_settings") or {}
    tokens = settings.get("n_ctx") or data.get("n_ctx")
    return (tokens if isinstance(tokens, int) else None), "/props"


async def _ollama_show(host, base_url, model, api_key):
    """Ollama: the model's own window (we ask for what we need with num_ctx, up to it)."""
    data = await _get_json(host, "POST", _root(base_url) + "/api/show", api_key, {"model": model}) or {}
    info = data.get("model_info") or {}
    tokens = next((v for k, v in info.items() if k.endswith(".context_length") and isinstance(v, int)), None)
    if match := re.search(r"num_ctx\s+(\d+)", str(data.get("parameters") or "")):
        tokens = min(tokens or 10**9, int(match.group(1)))  # the Modelfile asks for less
    return tokens, "/api/show"
