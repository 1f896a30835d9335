"""The code sandbox played in one Python process: SandboxRuntime behind a stand-in worker,
spoken to in the JSON messages the offscreen document and the worker exchange."""

from __future__ import annotations

import asyncio
import json

from tabagent.app.in_sandbox.runtime import SandboxRuntime


class InProcessSandbox:
    """CodeSandbox's part played in Python: runs go to a SandboxRuntime as JSON text and
    its tool calls come back to onToolCall, as between the offscreen document and the worker."""

    def __init__(self):
        self.worker, self.last_run, self.stops = Worker(), 0, 0

    async def runJson(self, code, options_json, on_tool_call):  # noqa: N802  CodeSandbox's name
        options = json.loads(options_json)
        self.last_run += 1
        self.worker.runtime.start_run(run_message(self.last_run, code, options["tools"], options["max_output_chars"]))
        while (message := await self.worker.next())["type"] == "tool-call":
            reply = await on_tool_call(message["name"], message["args"])
            self.worker.runtime.receive(json.dumps({"type": "tool-result", "run_id": message["run_id"],
                                                    "call_id": message["call_id"], "reply": reply}))
        return json.dumps({"output": message["output"], "is_error": message["is_error"], "is_final": message["is_final"],
                           "final_value": message["final_value"], "stopped": None})

    async def reset(self):
        self.worker = Worker()

    def stop(self):
        self.stops += 1


def run_message(run_id, code, tools=(), max_output_chars=20_000):
    return json.dumps({"type": "run", "run_id": run_id, "code": code, "tools": list(tools),
                       "max_output_chars": max_output_chars, "memory_limit_bytes": 0})


class Worker:
    """A SandboxRuntime and what it posts, as the worker sees it."""

    def __init__(self):
        self.posted = asyncio.Queue()
        self.runtime = SandboxRuntime(lambda text: self.posted.put_nowait(json.loads(text)))

    async def next(self, timeout=5):
        return await asyncio.wait_for(self.posted.get(), timeout)

    async def run(self, run_id, code, tools=()):
        self.runtime.start_run(run_message(run_id, code, tools))
        return await self.next()
