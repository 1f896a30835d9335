#!/usr/bin/env python3
"""MCP tools through the extension, timed in real headless Chromium against a real MCP server
(the official Python SDK's, tests/helpers/mcp_server.py) on 127.0.0.1:

- one tool call's overhead: `tools/call` of `echo` from the offscreen document's Python
  (tabagent.mcp over the browser's fetch, with the Origin rule of a saved local server), less
  the same request made straight from this process (httpx on the same session: the server's
  own time and the loopback);
- listing and registering 100 tools: `mcp_tools()` (tools/list, then a Tool per definition with
  its schema, OpenAI definition and Python signature) on a warm connection.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from build_first import build_checkout  # noqa: E402  (beside this file)
from tests.helpers.browser import Browser, fresh_profile, remove_profile  # noqa: E402
from tests.helpers.mcp_server import MCPTestServer  # noqa: E402

from bench_sandbox import PING, in_python, offscreen, row  # noqa: E402

IN_OFFSCREEN = """
import json, time
from tabagent.mcp import MCPClient, mcp_tools

calls, listed = [], []
async with MCPClient(CALL_URL, name="lab") as client:
    for _ in range(5):
        await client.call_tool("echo", {"text": "x"})
    for _ in range(RUNS):
        started = time.perf_counter()
        await client.call_tool("echo", {"text": "x"})
        calls.append((time.perf_counter() - started) * 1000)
async with MCPClient(MANY_URL, name="many") as client:
    await mcp_tools(client)
    for _ in range(RUNS):
        started = time.perf_counter()
        tools = await mcp_tools(client)
        for tool in tools:
            tool.to_openai(), tool.python_signature()
        listed.append((time.perf_counter() - started) * 1000)
json.dumps({"calls": calls, "listed": listed, "count": len(tools)})
"""


def straight_calls(url: str, runs: int) -> list[float]:
    """The same tools/call, made by plain httpx on a session of its own: what the server and
    the loopback take, with as little client as there can be."""
    import httpx

    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    with httpx.Client() as client:
        start = client.post(url, headers=headers, json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
        headers = {**headers, "mcp-session-id": start.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
        client.post(url, headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        times = []
        for i in range(runs + 5):
            started = time.perf_counter()
            reply = client.post(url, headers=headers, json={"jsonrpc": "2.0", "id": i + 2, "method": "tools/call",
                                                            "params": {"name": "echo", "arguments": {"text": "x"}}})
            assert b"x" in reply.content, reply.content
            times.append((time.perf_counter() - started) * 1000)
    return times[5:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    build_checkout()
    with MCPTestServer() as lab, MCPTestServer(extra_tools=93) as many:
        profile = fresh_profile()
        browser = Browser(profile).start()
        try:
            browser.open_side_panel()
            assert browser.driver.execute_async_script(PING)["ok"]
            servers = [{"id": s, "name": s, "url": server.url, "enabled": True, "tools": {}} for s, server in (("lab", lab), ("many", many))]
            saved = browser.driver.execute_async_script(
                "const [servers, done] = arguments; chrome.runtime.sendMessage({ target: 'background', type: 'save-mcp-servers', servers }).then(done);",
                servers)
            assert saved["ok"], saved
            target = offscreen(browser)
            browser.expose_offscreen_for_tests(target)
            code = IN_OFFSCREEN.replace("CALL_URL", repr(lab.url)).replace("MANY_URL", repr(many.url)).replace("RUNS", str(args.runs))
            measured = json.loads(in_python(browser, target, code))
        finally:
            browser.quit()
            remove_profile(profile)
        straight = straight_calls(lab.url, args.runs)
    overhead = [a - statistics.median(straight) for a in measured["calls"]]
    print(f"\n### MCP tools through the extension ({args.runs} runs each; ms)\n")
    print("| measure | median | min–max | target |")
    print("|---|---|---|---|")
    print(row("one `tools/call` from the extension's Python", measured["calls"]))
    print(row("the same call straight from httpx (the server's own time)", straight))
    print(row("overhead of one MCP tool call (the two above)", overhead, "< 10"))
    print(row(f"list and register {measured['count']} tools", measured["listed"], "< 50"))


if __name__ == "__main__":
    main()
