"""A scripted Ollama on 127.0.0.1 that answers as Ollama does (read in ollama/ollama at
fb30760, server/routes.go): GET /api/version, POST /api/show (model_info with the
architecture's context_length, capabilities, parameters), the native POST /api/chat (lines
of JSON) and the OpenAI route POST /v1/chat/completions (server-sent events), both refusing
`tools` for a model without the "tools" capability with a 400 in Ollama's own words:

- /api/chat: {"error": "registry.ollama.ai/library/gemma:2b does not support tools"}
  (server/images.go CheckCapabilities: "does not support" + "tools", wrapped with the model's
  full name by scheduleRunner; handleScheduleError answers 400);
- /v1: the same message in {"error": {"message", "type": "invalid_request_error", "param":
  null, "code": null}} (middleware/openai.go writeError, openai/openai.go NewError).

Replies are played from `chat` in order (bytes of JSON lines for /api/chat, chunk lists for
/v1), and every request is recorded.
"""

from __future__ import annotations

import json

from scripted_endpoint import ScriptedEndpoint

VERSION = "0.12.6"


def full_name(model: str) -> str:
    """The name Ollama puts in its errors: registry.ollama.ai/library/gemma:2b."""
    name = model if ":" in model else f"{model}:latest"
    return name if "/" in name else f"registry.ollama.ai/library/{name}"


class ScriptedOllama(ScriptedEndpoint):
    def __init__(self, models: dict[str, dict]):
        """`models`: {name: {"context_length": int, "tools": bool, "num_ctx": int | None}}."""
        super().__init__({("GET", "/api/version"): (200, {"version": VERSION})})
        self.models = models
        self._server.answer = self._answer

    def _answer(self, method: str, path: str, body):
        """(status, JSON payload) for what a fixed answer or a refusal decides; None: the script."""
        if (method, path) == ("POST", "/api/show"):
            return self._show((body or {}).get("model", ""))
        if method == "POST" and path in ("/api/chat", "/v1/chat/completions"):
            spec = self.models.get(body.get("model"))
            if spec is None:
                return 404, {"error": f"model '{body.get('model')}' not found"}
            if body.get("tools") and not spec.get("tools"):
                message = f"{full_name(body['model'])} does not support tools"
                if path == "/api/chat":
                    return 400, {"error": message}
                return 400, {"error": {"message": message, "type": "invalid_request_error",
                                       "param": None, "code": None}}
        return None

    def _show(self, model: str):
        spec = self.models.get(model)
        if spec is None:
            return 404, {"error": f"model '{model}' not found"}
        capabilities = ["completion", *(["tools"] if spec.get("tools") else [])]
        parameters = f"num_ctx {spec['num_ctx']}" if spec.get("num_ctx") else 'stop "<|im_end|>"'
        return 200, {"modelfile": "# Modelfile", "parameters": parameters, "template": "{{ .Prompt }}",
                     "details": {"format": "gguf", "family": "qwen2"},
                     "model_info": {"general.architecture": "qwen2",
                                    "qwen2.context_length": spec["context_length"]},
                     "capabilities": capabilities}


def ndjson(*objects) -> bytes:
    return b"".join(json.dumps(o).encode() + b"\n" for o in objects)
