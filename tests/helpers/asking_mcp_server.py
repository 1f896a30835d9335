"""A real MCP server that asks things of the client while a tool runs, written with the
official Python SDK's MCPServer (FastMCP's API, `mcp` 2.x): it elicits a value from the user,
samples the client's model, lists the client's roots, reports progress with a total and sends
log messages, and says what every form it asked for brought back (what_forms_sent). Its questions are the SDK's resolvers (`Resolve(Elicit/Sample/ListRoots)`), which
ask in the era the client speaks: requests mid-call in a handshake session, an
`InputRequiredResult` and a retry in 2026-07-28. Stateful (a session, replies as event streams)
or stateless (no session, replies in JSON: a transport on which a server of the handshake era
cannot ask the client anything, and one of 2026-07-28 asks by input-required results).

    with AskingMCPServer(stateless=False) as server:
        server.url  # http://127.0.0.1:PORT/mcp
"""

import argparse
import asyncio

from tests.helpers.server_forks import forked
from tests.helpers.mcp_server import MCPTestServer


class AskingMCPServer(MCPTestServer):
    def __init__(self, stateless: bool = False, instructions: str | None = None):
        super().__init__("streamable-http")
        self.stateless, self.instructions = stateless, instructions

    def _start(self) -> None:
        args = ["--port", str(self.port)]
        if self.stateless:
            args.append("--stateless")
        if self.instructions:
            args += ["--instructions", self.instructions]
        self.process = forked("tests.helpers.asking_mcp_server", args)
        self._wait_until_listening()


def forms_sent(url: str) -> list:
    """What every form this server asked for brought back, asked of it over MCP with the official
    SDK's own client (no part of TabAgent in between)."""
    import asyncio
    import json

    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def ask():
        async with streamable_http_client(url) as (reading, writing), ClientSession(reading, writing) as session:
            await session.initialize()
            result = await session.call_tool("what_forms_sent", {})
            return json.loads(result.content[0].text)

    return asyncio.run(ask())


def build(instructions: str | None):
    import json
    from typing import Annotated

    from mcp import types
    from mcp.server.mcpserver import (AcceptedElicitation, Context, Elicit, ElicitationResult, ListRoots, MCPServer,
                                      Resolve, Sample)
    from pydantic import BaseModel, Field

    server = MCPServer("tabagent-asking-server", instructions=instructions)

    class Booking(BaseModel):
        name: str = Field(description="Your name")
        guests: int = Field(description="How many people", ge=1, le=12)
        vegetarian: bool = Field(default=False, description="A vegetarian menu")
        day: str = Field(description="Which day", json_schema_extra={"enum": ["friday", "saturday"]})

    def who_and_when() -> Elicit[Booking]:
        return Elicit("Who is coming, and when?", Booking)

    @server.tool(description="Books a table, asking the user for the details.")
    async def book_table(booking: Annotated[ElicitationResult[Booking], Resolve(who_and_when)]) -> str:
        if not isinstance(booking, AcceptedElicitation):
            return f"booking {booking.action}"
        data = booking.data
        return f"booked for {data.name}, {data.guests} guests on {data.day}, vegetarian={data.vegetarian}"

    received = []  # every value a form brought back to this server, for the tests to see

    @server.tool(description="Asks the user for something by a schema the test gives.")
    async def ask_for(message: str, schema_json: str, ctx: Context) -> str | types.InputRequiredResult:
        if (ctx.protocol_version or "") < "2026":
            answer = await ctx.session.elicit_form(message, json.loads(schema_json), related_request_id=ctx.request_id)
            answered = {"action": answer.action, "content": answer.content}
        else:
            answered = (ctx.input_responses or {}).get("form")
            if answered is None:
                form = types.ElicitRequestFormParams(message=message, requested_schema=json.loads(schema_json))
                return types.InputRequiredResult(input_requests={"form": types.ElicitRequest(params=form)})
            answered = answered if isinstance(answered, dict) else answered.model_dump(exclude_none=True)
        if answered.get("content"):
            received.append(answered["content"])
        return json.dumps({"action": answered.get("action"), "content": answered.get("content")})

    @server.tool(description="What the forms this server asked for brought back, all of it.")
    async def what_forms_sent() -> str:
        return json.dumps(received)

    def summary_asked(text: str) -> Sample:
        return Sample([types.SamplingMessage(role="user", content=types.TextContent(type="text", text=text))],
                      max_tokens=200, system_prompt="Summarise in one line.")

    @server.tool(description="Asks the client's model to summarise a text.")
    async def summarise_with_your_model(text: str, reply: Annotated[types.CreateMessageResult,
                                                                    Resolve(summary_asked)]) -> str:
        return f"the client's model said: {reply.content.text}"

    def roots_asked() -> ListRoots:
        return ListRoots()

    @server.tool(description="Lists the client's roots.")
    async def list_roots(roots: Annotated[types.ListRootsResult, Resolve(roots_asked)]) -> str:
        return f"{len(roots.roots)} roots"

    @server.tool(description="Works for a while, reporting progress out of a total and logging.")
    async def long_job(steps: int, ctx: Context) -> str:
        await ctx.info(f"starting {steps} steps")
        for step in range(steps):
            await ctx.report_progress(step + 1, steps, f"step {step + 1} of {steps}")
            await asyncio.sleep(0.3)
        await ctx.warning("the job is done")
        return f"did {steps} steps"

    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--stateless", action="store_true")
    parser.add_argument("--instructions")
    options = parser.parse_args()
    server = build(options.instructions)
    server.run("streamable-http", host="127.0.0.1", port=options.port, json_response=options.stateless,
               stateless_http=options.stateless)


if __name__ == "__main__":
    main()
