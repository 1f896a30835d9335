"""Whether the model sees: if it takes images, a screenshot is sent to it; else a sentence.

The user's setting decides when it says "yes" or "no" (they may know better, or want to spend
no tokens on pictures). On "auto", the endpoint is asked where it says (OpenRouter's model list:
`architecture.input_modalities`; Ollama's `/api/show`: `capabilities` holding "vision"), else the
model's name tells the families known to see, else the model is taken not to: a picture sent to
a model that takes none is a failed request, a sentence is not.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from .context_window import _get_json, _models_url, _root
from .providers import OLLAMA

if TYPE_CHECKING:
    from .host import Host

SETTING_CHOICES = ("auto", "yes", "no")
# Families that take images, found in the model's name (lowercase).
SEEING_NAMES = ("gpt-4o", "gpt-4.1", "gpt-5", "o3", "o4-mini", "claude", "gemini", "llava", "bakllava",
                "pixtral", "-vl", "vl-", "vision", "gemma3", "gemma-3", "llama-4", "llama4", "minicpm-v",
                "moondream", "qwen2.5vl", "qwen3-vl", "mistral-small3.1", "granite3.2-vision")
# Answers found, by (endpoint, model, setting): asked once per interpreter, not every turn.
_found: dict[tuple, tuple[bool, str]] = {}


class Vision:
    """Shared by a turn's agents and its screenshot tool. `sees` is None until learned."""

    def __init__(self, find: Callable[[], Awaitable[tuple[bool, str]]] | None = None,
                 key: tuple | None = None) -> None:
        self._find, self._key = find, key  # async () -> (sees, where it was learned)
        self.sees, self.source = _found.get(key, (None, "")) if key else (None, "")

    @classmethod
    def fixed(cls, sees: bool, source: str = "the setting") -> Vision:
        vision = cls()
        vision.sees, vision.source = sees, source
        return vision

    async def known(self) -> bool:
        if self.sees is None:
            self.sees, self.source = await self._find() if self._find else (False, "nothing said")
            if self._key:
                _found[self._key] = (self.sees, self.source)
        return self.sees

    @classmethod
    def for_endpoint(cls, host: Host, base_url: str, model: str, api_key: str | None = None,
                     provider: str = "", setting: str = "auto") -> Vision:
        if setting in ("yes", "no"):
            return cls.fixed(setting == "yes")

        async def find():
            return await discover(host, base_url, model, api_key, provider)
        return cls(find, (base_url, model))


async def discover(host: Host, base_url: str, model: str, api_key: str | None, provider: str) -> tuple[bool, str]:
    """(sees, where that was learned), from the first source that says. Never raises."""
    probes = (_ollama_capabilities,) if provider == OLLAMA else (_listed_modalities,)
    for probe in probes:
        try:
            sees = await probe(host, base_url, model, api_key)
        except Exception:  # a probe is a guess at what the endpoint offers; any failure: next
            continue
        if sees is not None:
            return sees, "the endpoint"
    name = (model or "").lower()
    if any(family in name for family in SEEING_NAMES):
        return True, "the model's name"
    return False, "nothing said it does"


async def _listed_modalities(host, base_url, model, api_key) -> bool | None:
    data = await _get_json(host, "GET", _models_url(base_url), api_key)
    for entry in (data or {}).get("data") or []:
        if isinstance(entry, dict) and entry.get("id") == model:
            modalities = (entry.get("architecture") or {}).get("input_modalities")
            return "image" in modalities if isinstance(modalities, list) else None
    return None


async def _ollama_capabilities(host, base_url, model, api_key) -> bool | None:
    data = await _get_json(host, "POST", _root(base_url) + "/api/show", api_key, {"model": model}) or {}
    capabilities = data.get("capabilities")
    return "vision" in capabilities if isinstance(capabilities, list) else None
