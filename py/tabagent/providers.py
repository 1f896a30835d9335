"""The model providers the user picks from, by id, declared once.

Python compares a provider with these names (context_window.py, vision.py, the app's
turns.py and cli.py), never with a literal; app/wire.py hands them to JavaScript as
wire.js PROVIDERS (the presets the settings page and the panel offer) and Provider (each id
by its name). tests/unit/test_contract.py fails when an id is spelled anywhere else.
"""

from __future__ import annotations

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
