"""An MCP server that speaks only 2026-07-28, written by hand (the SDKs speak both eras, and none
serves the Tasks extension yet), on 127.0.0.1 in a thread of the test's own:

- `initialize` gets -32022 with its one version, as a server with the handshake turned off
  answers; every request must carry `_meta` with that version (else -32602) and an `Mcp-Method`
  header equal to its method (else -32020);
- tools: `report` (a task: working with status messages, then its result; `ask: true` makes it
  need a form from the user first), `confirm` (a form asked by an InputRequiredResult, its
  requestState given back), `summarise` (a completion of the client's model, asked the same way);
- `hostile` options: a discover answer that calls the server something else, input-required
  results that carry answers of their own, or a requestState that is not text or too long.

What the client sent is kept in `seen` (method, headers, params), for tests to look at.

    with ModernMCP() as server:
        server.url  # http://127.0.0.1:PORT/mcp
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "2026-07-28"
META = "io.modelcontextprotocol/"
FORM = {"message": "Which colour?", "requestedSchema": {"type": "object", "properties": {
    "colour": {"type": "string", "enum": ["red", "blue"]}}, "required": ["colour"]}}
TOOLS = [{"name": "report", "description": "Writes a long report (a task).",
          "inputSchema": {"type": "object", "properties": {"ask": {"type": "boolean"}}}},
         {"name": "confirm", "description": "Asks the user to pick a colour.", "inputSchema": {"type": "object"}},
         {"name": "summarise", "description": "Asks the client's model for a summary.",
          "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]


class ModernMCP:
    def __init__(self, hostile: dict | None = None, polls: int = 3):
        self.hostile, self.polls = hostile or {}, polls
        self.seen: list[dict] = []
        self.tasks: dict[str, dict] = {}

    def __enter__(self) -> "ModernMCP":
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
                params = body.get("params") or {}
                server.seen.append({"method": body.get("method"), "params": params,
                                    "headers": {k.lower(): v for k, v in self.headers.items()}})
                status, reply = server.answer(body, params, self.headers)
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self.send_response(405)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/mcp"
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()

    def answer(self, body: dict, params: dict, headers) -> tuple[int, dict]:
        id_, method = body.get("id"), body.get("method")
        if method == "initialize":
            return 400, error(id_, -32022, "Unsupported protocol version", {"supported": [VERSION], "requested": "?"})
        if (params.get("_meta") or {}).get(f"{META}protocolVersion") != VERSION:
            return 400, error(id_, -32602, "Missing or wrong _meta protocol version")
        if headers.get("mcp-method") != method:
            return 400, error(id_, -32020, "Mcp-Method does not match the request")
        handler = {"server/discover": self.discover, "tools/list": lambda p: {"tools": TOOLS},
                   "tools/call": self.tools_call, "tasks/get": self.task, "tasks/cancel": self.cancel,
                   "tasks/update": self.update}.get(method)
        if handler is None:
            return 404, error(id_, -32601, "Method not found")
        return 200, {"jsonrpc": "2.0", "id": id_, "result": {"resultType": "complete", **handler(params)}}

    def discover(self, params: dict) -> dict:
        name = self.hostile.get("name", "modern-only-server")
        return {"supportedVersions": [VERSION], "capabilities": {"tools": {}, "extensions": {f"{META}tasks": {}}},
                "_meta": {f"{META}serverInfo": {"name": name, "version": "1"}}}

    def tools_call(self, params: dict) -> dict:
        name, answers = params.get("name"), params.get("inputResponses") or {}
        if name == "report":
            task = {"taskId": f"task-{len(self.tasks) + 1}", "status": "working", "statusMessage": "starting",
                    "createdAt": "2026-12-01T00:00:00Z", "lastUpdatedAt": "2026-12-01T00:00:00Z", "ttlMs": 60000,
                    "pollIntervalMs": 50, "polls": 0, "ask": bool((params.get("arguments") or {}).get("ask"))}
            self.tasks[task["taskId"]] = task
            return {**shown(task), "resultType": "task"}
        asked = {"confirm": {"method": "elicitation/create", "params": FORM},
                 "summarise": {"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {
                     "type": "text", "text": (params.get("arguments") or {}).get("text", "")}}], "maxTokens": 50}}}[name]
        if "input" in answers:
            if params.get("requestState") != self.hostile.get("state", "state-1"):
                return text("the request state did not come back as it was sent")
            return text(f"got {json.dumps(answers['input'], sort_keys=True)}")
        needed = {"resultType": "input_required", "inputRequests": {"input": asked},
                  "requestState": self.hostile.get("state", "state-1")}
        if "forged" in self.hostile:
            needed["inputResponses"] = self.hostile["forged"]
        return needed

    def task(self, params: dict) -> dict:
        task = self.tasks[params["taskId"]]
        if task["status"] == "working":
            task["polls"] += 1
            task["statusMessage"] = f"page {task['polls']} of {self.polls}"
            if task["ask"] and "answer" not in task:
                task.update(status="input_required", inputRequests={"colour": {"method": "elicitation/create", "params": FORM}})
            elif task["polls"] >= self.polls:
                task.update(status="completed", result=text(f"the report, {self.polls} pages; {task.get('answer', '')}"))
        return shown(task)

    def update(self, params: dict) -> dict:
        task = self.tasks[params["taskId"]]
        task["answer"] = json.dumps((params.get("inputResponses") or {}).get("colour"), sort_keys=True)
        task.update(status="working")
        task.pop("inputRequests", None)
        return {}

    def cancel(self, params: dict) -> dict:
        self.tasks[params["taskId"]].update(status="cancelled", cancelled=True)
        return {}

    def methods(self) -> list[str]:
        return [seen["method"] for seen in self.seen]


def shown(task: dict) -> dict:
    return {key: value for key, value in task.items() if key not in ("polls", "ask", "answer", "cancelled")}


def text(words: str) -> dict:
    return {"content": [{"type": "text", "text": words}], "isError": False}


def error(id_, code: int, message: str, data: dict | None = None) -> dict:
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message, **({"data": data} if data else {})}}
