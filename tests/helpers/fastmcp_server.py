"""A real MCP server written with FastMCP 4 (`fastmcp`, on the official SDK 2.x), as its own guide
writes one for both eras: a tool that needs the user asks with `ctx.elicit`/`ctx.sample` in a
handshake session, and by returning an `InputRequiredResult` (reading `ctx.input_responses` when
the client calls again) on 2026-07-28, where a server has no back-channel. Progress with a total.
A long tool that runs as a task (the Tasks extension, served by `fastmcp-tasks` on a Docket queue
in memory): its progress is the task's status message, `tasks/cancel` cancels it, and the calls it
saw cancelled are counted at /test/cancelled.
Stateful (a session) or stateless (`stateless_http`, FastMCP's deployment for many workers).

    with FastMCPServer(stateless=True) as server:
        server.url  # http://127.0.0.1:PORT/mcp
"""

import argparse
import asyncio
import os
import subprocess
import sys
import urllib.request
from datetime import timedelta

from tests.helpers.mcp_server import ROOT, MCPTestServer


class FastMCPServer(MCPTestServer):
    def __init__(self, stateless: bool = False):
        super().__init__("streamable-http")
        self.stateless = stateless

    def _start(self) -> None:
        args = [sys.executable, "-m", "tests.helpers.fastmcp_server", "--port", str(self.port)]
        if self.stateless:
            args.append("--stateless")
        self.process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        env={**os.environ, "PYTHONPATH": str(ROOT), "FASTMCP_SHOW_CLI_BANNER": "false"})
        self._wait_until_listening(timeout=90)  # FastMCP, its tasks and their queue import slowly under load

    def cancelled_tasks(self) -> int:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/test/cancelled", timeout=5) as reply:
            return int(reply.read())


def build():
    from fastmcp import Context, FastMCP
    from fastmcp_tasks import TasksExtension
    from mcp import types

    server = FastMCP("fastmcp-test-server")
    server.add_extension(TasksExtension())
    colours = {"type": "object", "properties": {"colour": {"type": "string", "enum": ["red", "blue"]}},
               "required": ["colour"]}

    @server.tool(description="Asks the user which colour they like.")
    async def pick_colour(ctx: Context) -> str | types.InputRequiredResult:
        if not ctx._is_modern_protocol():
            answer = await ctx.elicit("Which colour?", response_type=["red", "blue"])
            return f"picked {getattr(answer, 'data', None) or answer.action}"
        answered = (ctx.input_responses or {}).get("colour")
        if answered is None:
            form = types.ElicitRequestFormParams(message="Which colour?", requested_schema=colours)
            return types.InputRequiredResult(input_requests={"colour": types.ElicitRequest(params=form)})
        answered = answered if isinstance(answered, dict) else answered.model_dump(exclude_none=True)
        return f"picked {(answered.get('content') or {}).get('colour') or answered.get('action')}"

    @server.tool(description="Asks the client's model to summarise a text.")
    async def summarise(text: str, ctx: Context) -> str | types.InputRequiredResult:
        if not ctx._is_modern_protocol():
            reply = await ctx.sample(text, system_prompt="Summarise in one line.", max_tokens=100)
            return f"the client's model said: {reply.text}"
        answered = (ctx.input_responses or {}).get("summary")
        if answered is None:
            asked = types.CreateMessageRequestParams(
                messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=text))],
                system_prompt="Summarise in one line.", max_tokens=100)
            return types.InputRequiredResult(input_requests={"summary": types.CreateMessageRequest(params=asked)})
        answered = answered if isinstance(answered, dict) else answered.model_dump(exclude_none=True)
        return f"the client's model said: {(answered.get('content') or {}).get('text')}"

    @server.tool(description="Counts, reporting progress out of a total.")
    async def count(steps: int, ctx: Context) -> str:
        for step in range(steps):
            await ctx.report_progress(step + 1, steps, f"counted {step + 1}")
            await asyncio.sleep(0.2)
        return f"counted to {steps}"

    add_report(server, Context)
    return server


def add_report(server, Context) -> None:
    """The long tool, run as a task when the client takes tasks, and what it saw cancelled."""
    from fastmcp.utilities.tasks import TaskConfig
    from starlette.responses import PlainTextResponse

    cancelled = {"tasks": 0}
    every_tenth = TaskConfig(mode="optional", poll_interval=timedelta(milliseconds=100))

    @server.tool(description="Writes a long report, a page every 0.2 s.", task=every_tenth)
    async def report(pages: int, ctx: Context) -> str:
        try:
            for page in range(pages):
                await ctx.report_progress(page, pages, f"writing page {page + 1} of {pages}")
                await asyncio.sleep(0.2)
        except asyncio.CancelledError:
            cancelled["tasks"] += 1
            raise
        return f"the report, {pages} pages" + (" (run as a task)" if ctx.is_background_task else "")

    @server.custom_route("/test/cancelled", methods=["GET"])
    async def seen_cancelled(request) -> PlainTextResponse:
        return PlainTextResponse(str(cancelled["tasks"]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--stateless", action="store_true")
    options = parser.parse_args()
    build().run(transport="http", host="127.0.0.1", port=options.port, path="/mcp",
                stateless_http=options.stateless, show_banner=False)


if __name__ == "__main__":
    main()
