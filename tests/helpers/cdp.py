"""A small Chrome DevTools Protocol client over the browser's websocket.

Selenium drives pages; this reaches what Selenium cannot: the extension's service worker
and offscreen document (their console errors, stopping the worker), through flat sessions
attached to each target.
"""

from __future__ import annotations

import itertools
import json
import threading
import urllib.request
from collections import defaultdict

import websocket


class CDPError(RuntimeError):
    pass


class CDP:
    def __init__(self, debugger_address: str):
        version = json.load(urllib.request.urlopen(f"http://{debugger_address}/json/version", timeout=10))
        self._ws = websocket.create_connection(version["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[threading.Event, list]] = {}
        self._listeners: dict[str, list] = defaultdict(list)
        self._lock = threading.Lock()
        self._closed = False
        self._reader = threading.Thread(target=self._read, name="cdp-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while not self._closed:
            try:
                message = json.loads(self._ws.recv())
            except websocket.WebSocketTimeoutException:
                continue  # a quiet while (a long turn with nothing to report) is not the end
            except Exception:
                break
            if "id" in message:
                waiter = self._pending.pop(message["id"], None)
                if waiter:
                    waiter[1].append(message)
                    waiter[0].set()
            else:
                for listener in list(self._listeners[message.get("method", "")]):
                    listener(message.get("params", {}), message.get("sessionId"))

    def send(self, method: str, params: dict | None = None, session_id: str | None = None, timeout: float = 30) -> dict:
        command_id = next(self._ids)
        done, box = threading.Event(), []
        self._pending[command_id] = (done, box)
        payload = {"id": command_id, "method": method, "params": params or {}}
        if session_id:
            payload["sessionId"] = session_id
        with self._lock:
            self._ws.send(json.dumps(payload))
        if not done.wait(timeout):
            self._pending.pop(command_id, None)
            raise CDPError(f"{method}: no answer in {timeout} s")
        reply = box[0]
        if "error" in reply:
            raise CDPError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def on(self, method: str, listener) -> None:
        self._listeners[method].append(listener)

    def targets(self) -> list[dict]:
        return self.send("Target.getTargets")["targetInfos"]

    def attach(self, target_id: str) -> str:
        return self.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})["sessionId"]

    def evaluate(self, session_id: str, expression: str, timeout: float = 30):
        """Evaluates JavaScript in an attached target, awaiting promises; returns the value."""
        result = self.send(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
            session_id=session_id,
            timeout=timeout,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise CDPError(details.get("exception", {}).get("description") or details.get("text"))
        return result["result"].get("value")

    def call_module_function(self, session_id: str, name: str, body: str, timeout: float = 30):
        """Runs `body` (an async function body) with `fn` bound to the function called `name`
        that a module of the target defined, and returns its value. A service worker may not
        import() modules, and their functions are not globals: DevTools finds them on the heap."""
        prototype = self.send("Runtime.evaluate", {"expression": "Function.prototype"}, session_id=session_id)
        functions = self.send("Runtime.queryObjects", {"prototypeObjectId": prototype["result"]["objectId"]},
                              session_id=session_id)["objects"]["objectId"]
        result = self.send("Runtime.callFunctionOn", {
            "objectId": functions,
            "functionDeclaration": f"async function () {{ const fn = this.find((f) => f.name === {name!r});"
                                   f" if (!fn) throw new Error('no function ' + {name!r}); {body} }}",
            "awaitPromise": True, "returnByValue": True,
        }, session_id=session_id, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise CDPError(details.get("exception", {}).get("description") or details.get("text"))
        return result["result"].get("value")

    def close(self) -> None:
        self._closed = True
        try:
            self._ws.close()
        except Exception:
            pass
