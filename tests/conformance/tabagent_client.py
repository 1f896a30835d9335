"""TabAgent's MCP client as the official conformance suite (@modelcontextprotocol/conformance)
runs it: `conformance client --command "python -m tests.conformance.tabagent_client"` starts
this with the scenario's server address as its last argument and the scenario's name in
MCP_CONFORMANCE_SCENARIO.

Nothing here speaks MCP: a turn runs as the extension runs one (tabagent.app.turns.Turns), the
server in the user's settings, its calls asked of a scripted user (who says yes, sends a form as
drawn, and signs in when asked, through the app's own sign-in steps: app/mcp_sign_in.py, the
sign-in window being an HTTP request that stops at the redirect, as the conformance
authorization server approves at once), and a scripted model that calls the tools the scenario
expects. A scenario's credentials (MCP_CONFORMANCE_CONTEXT) are what a user types into the
server's settings.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from tabagent.app import mcp_sign_in
from tabagent.app.turns import Turns
from tabagent.hosts import default_host
from tabagent.testing import ScriptedModel

REDIRECT = "http://127.0.0.1:1/tabagent-sign-in"  # never reached: the window stops at it
SERVER = {"id": "conformance", "name": "conformance", "enabled": True, "tools": {}}

# What the model calls, by scenario: (tool, arguments) in order; "*" is every tool listed,
# with arguments made from its schema; a scenario not named calls every tool.
CALLS = {
    "initialize": [], "json-schema-ref-no-deref": [],
    "tools_call": [("add_numbers", {"a": 2, "b": 3})],
    "elicitation-sep1034-client-defaults": [("test_client_elicitation_defaults", {})],
    "sse-retry": [("test_reconnection", {})],
    "json-schema-2020-12-preservation": [("json_schema_echo", lambda offered: {
        "schema": offered["json_schema_2020_12_tool"]})],
    "sep-2322-client-request-state": [("test_mrtr_echo_state", {}), ("test_mrtr_unrelated", {}),
                                      ("test_mrtr_no_state", {}), ("test_mrtr_no_result_type", {})],
}
AUTH_CALLS = [("test-tool", {})]


class User:
    """The person at the panel: says yes to each call, sends each form as it is drawn (its
    defaults filled in), and signs in when a server asks, in the app's sign-in steps."""

    def __init__(self, host, context: dict):
        self.host, self.context = host, context
        self.forms: dict[str, list] = {}
        self.asked: list[str] = []
        self.record: dict | None = None  # the server's sign-in, kept as the service worker keeps it
        self.url = ""

    def saw(self, event: dict) -> None:
        if event.get("kind") == "confirmation" and "form" in event.get("data", {}):
            self.forms[event["data"]["id"]] = event["data"]["form"]

    async def run_page_tool(self, name, args, tab_id=None, expect_url=None):
        return {"ok": False, "error": "no page in a conformance run"}

    async def confirm(self, id_, tool, message, details):
        self.asked.append(message)
        return "once"

    async def fill(self, id_):
        drawn = self.forms.get(id_, [])
        return {"decision": "once", "values": {f["name"]: f["default"] for f in drawn if "default" in f}}

    async def ask(self, id_, question=""):
        return None

    async def sign_in(self, server_id: str, challenge: str, interactive: bool) -> dict:
        """What the service worker does when a turn asks (mcp-sign-in.js signInForTurn): the
        token refreshed; or, once the user said yes, the plan, the window, the record kept."""
        if not interactive:
            if not (self.record or {}).get("refresh_token"):
                return {"ok": False, "error": "not signed in"}
            refreshed = await mcp_sign_in.refresh(self.record, self.host)
            return self._kept(refreshed)
        planned = await mcp_sign_in.plan({**SERVER, "url": self.url}, REDIRECT, self.context.get("client_id", ""),
                                         self.host, self.context.get("client_secret", ""), known=self.record,
                                         header=challenge)
        if not planned["ok"]:
            return planned
        window = await self.host.request("GET", planned["plan"]["authorize_url"], {}, None, 15, follow_redirects=False)
        await window.close()
        return self._kept(await mcp_sign_in.finish(planned["plan"], window.headers.get("location", ""), self.host))

    def _kept(self, answer: dict) -> dict:
        if not answer["ok"]:
            return answer
        self.record = answer["record"]
        return {"ok": True, "authorization": f"Bearer {self.record['access_token']}"}


def model_for(scenario: str, context: dict) -> ScriptedModel:
    given = [(call["name"], call.get("arguments") or {}) for call in context.get("toolCalls") or []]
    planned = given or CALLS.get(scenario, AUTH_CALLS if scenario.startswith("auth/") else None)

    def reply(messages):
        done = sum(1 for m in messages if m["role"] == "tool")
        offered = model.calls[-1]["tools"] or []
        names = [t["function"]["name"] for t in offered]
        ours = f"{SERVER['name']}__"
        calls = planned if planned is not None else [(n[len(ours):], None) for n in names if n.startswith(ours)]
        if done >= len(calls):
            return "Done."
        tool, arguments = calls[done]
        name = f"{SERVER['name']}__{tool}"
        if name not in names:
            return f"The server offers no tool {tool}."
        schemas = {t["function"]["name"].split("__", 1)[-1]: t["function"]["parameters"] for t in offered}
        schema = schemas[tool]
        arguments = arguments(schemas) if callable(arguments) else arguments
        return {"content": "", "tool_calls": [{"name": name, "arguments": arguments if arguments is not None
                                                else made_arguments(schema)}]}

    model = ScriptedModel(reply)
    return model


def made_arguments(schema: dict) -> dict:
    """Arguments a model would write from a schema: each required property, of its type."""
    values = {"integer": 1, "number": 1, "boolean": True, "string": "x", "array": [], "object": {}}
    properties = schema.get("properties") or {}
    return {name: values.get((properties.get(name) or {}).get("type"), "x") for name in schema.get("required") or []}


async def run(url: str) -> int:
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    host = default_host()
    user = User(host, context)
    user.url = url
    server = {**SERVER, "url": url}
    request = {"conversation_id": "conformance", "task": f"Run the scenario {scenario}", "memory": None,
               "settings": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "agent": "tool_calling"},
               "mcp_servers": [server], "mcp_headers": {}}
    events: list[dict] = []

    def emit(event):
        events.append(event)
        user.saw(event)

    result = await Turns().run(request, emit, model=model_for(scenario, context), page=user, host=host)
    problems = [e["data"].get("message") for e in events if e["kind"] == "error"]
    for problem in problems:
        print(f"told: {problem}", file=sys.stderr)
    print(f"turn {result['status']}; questions: {user.asked}", file=sys.stderr)
    return 0 if result["status"] == "ok" and not problems else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(run(sys.argv[-1])))
