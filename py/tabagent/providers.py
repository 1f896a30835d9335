"""The model providers the user picks from, by id, declared once.

Python compares a provider with these names (context_window.py, vision.py, the app's
turns.py and cli.py), never with a literal; app/wire.py hands them to JavaScript as
wire.js PROVIDERS (the presets the settings page and the panel offer) and Provider (each id
by its name). tests/unit/test_contract.py fails when an id is spelled anywhere else.
"""

from __future__ import annotations

import re

from .origins import origin_of  # an address read as the browser reads it: no trick address counts as local

ONDEVICE = "ondevice"      # a GGUF model run inside the extension (llama.cpp in WebAssembly), no server, no key
BUILTIN = "builtin"        # Chrome's own model (the Prompt API), on this device, no key
OPENAI = "openai"
OPENROUTER = "openrouter"
GROQ = "groq"
OLLAMA = "ollama"
LMSTUDIO = "lmstudio"
LLAMACPP = "llamacpp"
CUSTOM = "custom"          # any OpenAI-compatible base URL the user types

# Each provider's preset, in the order they are offered: its label (a name, or `message`: the
# _locales message that says it in words), the base URL it fills in, whether it needs an API
# key, whether it runs on this machine (its window is its own setting), whether it is
# Chrome's built-in model (no URL, key or model name; offered only where Chrome has it), and
# whether it is the model inside the extension (no URL or key: a model file the user picked, in
# the extension's own storage). The first is the extension's default when nothing is configured
# (no provider, no base URL: extension/shared/settings/settings.js).
PROVIDERS = {
    ONDEVICE: {"message": "providerOnDevice", "base_url": "", "on_device": True},
    BUILTIN: {"message": "providerBuiltin", "base_url": "", "needs_key": False, "local": False, "builtin": True},
    OPENAI: {"label": "OpenAI", "base_url": "https://api.openai.com/v1", "needs_key": True},
    OPENROUTER: {"label": "OpenRouter", "base_url": "https://openrouter.ai/api/v1", "needs_key": True},
    GROQ: {"label": "Groq", "base_url": "https://api.groq.com/openai/v1", "needs_key": True},
    OLLAMA: {"label": "Ollama", "base_url": "http://localhost:11434/v1", "local": True},
    LMSTUDIO: {"label": "LM Studio", "base_url": "http://localhost:1234/v1", "local": True},
    LLAMACPP: {"label": "llama.cpp server", "base_url": "http://localhost:8080/v1", "local": True},
    CUSTOM: {"message": "providerCustom", "base_url": ""},
}
PROVIDERS = {id: {"needs_key": False, "local": False, "builtin": False, "on_device": False, **preset} for id, preset in PROVIDERS.items()}

# The servers on this machine, whose window is their own setting (a model's name says nothing).
LOCAL_PROVIDERS = tuple(id for id, preset in PROVIDERS.items() if preset["local"])
# The hosted endpoints, whose model list is the one place to ask for a model's window.
HOSTED_PROVIDERS = (BUILTIN, OPENAI, GROQ, OPENROUTER)

# How long a request waits for the model's answer to start, and then for each next piece of it,
# when the user has not set it (the request_timeout setting, empty): an API on the internet
# answers in seconds or is in trouble, but a model on this machine reads a long first prompt on
# the CPU, which takes minutes on a small one. Measured (commit "Local models get a longer
# request timeout by default"): Qwen2.5-Coder-1.5B's first agent request through llama.cpp's
# server on 2 busy cores. The user's own setting always wins.
REMOTE_TIMEOUT = 120
LOCAL_TIMEOUT = 900
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")


def runs_here(provider: str, base_url: str) -> bool:
    """Whether the model answers from this machine: a local server's preset, the model inside
    the extension, or an endpoint whose address is this machine's own."""
    if provider == ONDEVICE or provider in LOCAL_PROVIDERS:
        return True
    if provider not in ("", CUSTOM):
        return False
    authority = (origin_of(base_url or "") or "").partition("://")[2]
    host = authority[:authority.find("]") + 1] if authority.startswith("[") else authority.partition(":")[0]
    return host in LOOPBACK or host.endswith(".localhost") or re.fullmatch(r"127(\.\d{1,3}){3}", host) is not None


def default_timeout(provider: str, base_url: str) -> int:
    """Seconds a request waits when the user has not said (see REMOTE_TIMEOUT)."""
    return LOCAL_TIMEOUT if runs_here(provider, base_url) else REMOTE_TIMEOUT
