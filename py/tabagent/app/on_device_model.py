"""The model on this device: a GGUF file run by llama.cpp compiled to WebAssembly, inside the
extension (the offscreen document in Chrome, the background page in Firefox), reached through
the host.

What runs there is llama.cpp's own server code (wllama 3 is built on llama-server's
server-context): it takes the OpenAI-compatible body OpenAIModel writes (messages, tools),
renders it with the chat template in the model file, and answers with the same server-sent
events, a tool call parsed by llama.cpp for the model's family (text_calls.py reads one left in
the text, as for any endpoint). So the on-device model is an OpenAIModel whose host hands the
request to the extension instead of the network. The bridge the extension lends
(extension/offscreen/on-device/device-model.js):
- complete(request_id, body_json): the reply's server-sent events, a stream of text pieces;
  it loads the model first when it is not loaded (the first message after an idle unload);
- window(): the context window the model is loaded with, in tokens (the model file's own,
  capped by what the device's memory allows);
- abort(request_id): stop that reply.
"""

from __future__ import annotations

import json
import uuid

from ..errors import ModelError
from ..host import Host, Response
from ..models import OpenAIModel

BASE_URL = "on-device://model/v1"  # never fetched: OnDeviceHost answers it, and nothing else
WINDOW_PATH = "/props"  # where context_window.py asks a llama.cpp server for its window


class OnDeviceModelError(ModelError):
    kind = "on_device"  # settings fix it: choose or download a model (wire.py FATAL_ERRORS)


class OnDeviceHost(Host):
    """Answers the model's requests through the bridge; the clock and sleep of `host`."""

    def __init__(self, bridge, host: Host | None = None) -> None:
        self.bridge, self.clock = bridge, host

    async def request(self, method, url, headers, body=None, timeout=None, follow_redirects=True) -> Response:
        if not url.startswith(BASE_URL.removesuffix("/v1")):
            raise OnDeviceModelError(f"the on-device model answers no request to {url}")
        if url.endswith("/chat/completions"):
            return await self._complete(body or b"{}")
        if url.endswith(WINDOW_PATH):
            window = await self._ask(self.bridge.window)
            return ReplyPieces([json.dumps({"n_ctx": int(window)})], status=200)
        return ReplyPieces([], status=404)  # no model list, no capabilities: nothing else to ask

    async def _complete(self, body: bytes) -> Response:
        request_id = uuid.uuid4().hex
        stream = await self._ask(self.bridge.complete, request_id, body.decode())
        return ReplyPieces(stream, status=200, stop=lambda: self.bridge.abort(request_id))

    @staticmethod
    async def _ask(method, *args):
        try:
            return await method(*args)
        except ModelError:
            raise
        except Exception as error:  # the extension's words: no model chosen, a file that will not load...
            raise OnDeviceModelError(f"The on-device model could not answer: {_last_line(error)}") from None

    def now(self) -> float:
        return self.clock.now() if self.clock else super().now()

    async def sleep(self, seconds: float) -> None:
        await (self.clock.sleep(seconds) if self.clock else super().sleep(seconds))


class ReplyPieces(Response):
    """A reply whose body is the bridge's text pieces, as they come."""

    def __init__(self, pieces, status: int, stop=None) -> None:
        super().__init__(status, {"content-type": "text/event-stream"})
        self._pieces, self._stop, self._closed = pieces, stop, False

    async def chunks(self):
        try:
            if hasattr(self._pieces, "__aiter__"):
                async for piece in self._pieces:
                    yield str(piece).encode()
            else:
                for piece in self._pieces:
                    yield str(piece).encode()
        except ModelError:
            raise
        except Exception as error:  # the model stopped mid-reply (out of memory, the file unreadable)
            raise OnDeviceModelError(f"The on-device model stopped: {_last_line(error)}") from None

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._stop:
                self._stop()


def _last_line(error: Exception) -> str:
    return str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__


def on_device_model(bridge, settings: dict, host: Host | None = None) -> OpenAIModel:
    """The model the user chose on this device (settings["model"]: its id in the extension)."""
    limit = settings.get("max_output_tokens")
    return OpenAIModel(BASE_URL, None, settings.get("model", ""), host=OnDeviceHost(bridge, host),
                       timeout=None, max_retries=0, temperature=settings.get("temperature"),
                       extra_body={"max_tokens": int(limit)} if limit else {})
