"""`make run`'s browser: TabAgent loaded, the panel open, and a saved tool file live in it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import websocket

from tests.helpers.browser import ROOT
from tests.helpers.cdp import CDP
from tests.helpers.console_watcher import ConsoleWatcher

NEW_TOOL = ROOT / "py" / "user_tools" / "e2e_live_reload_tool.py"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def targets(port):
    return json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2))


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except (OSError, websocket.WebSocketException):
            pass  # the browser or the page is between lives
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}")


def panel_tool_names(page_target) -> list[str]:
    if page_target is None:  # closed by the reload, not open again yet
        return []
    ws = websocket.create_connection(page_target["webSocketDebuggerUrl"], timeout=5, suppress_origin=True)
    try:
        expression = ("chrome.runtime.sendMessage({target: 'background', type: 'list-tools'})"
                      ".then((r) => r.ok ? r.result.tools.map((t) => t.name) : [])")
        ws.send(json.dumps({"id": 1, "method": "Runtime.evaluate", "params": {"expression": expression, "awaitPromise": True, "returnByValue": True}}))
        while True:
            reply = json.loads(ws.recv())
            if reply.get("id") == 1:
                return reply["result"]["result"].get("value") or []
    finally:
        ws.close()


def test_run_opens_the_panel_and_a_saved_tool_is_live_after_the_reload(tmp_path):
    port = free_port()
    env = {**os.environ, "TABAGENT_DEVTOOLS_PORT": str(port), "TABAGENT_PROFILE": str(tmp_path / "profile")}
    env.pop("DISPLAY", None)
    runner = subprocess.Popen([sys.executable, "scripts/run.py"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True)
    output, cdp, problems = "", None, []
    try:
        panel = lambda: next((t for t in targets(port) if t["url"].endswith("sidepanel/sidepanel.html")), None)  # noqa: E731
        first = wait_for(panel, 60, "the side panel page")
        # Its panel is watched like the tests' own: what it logged before this is handed over.
        cdp = CDP(f"127.0.0.1:{port}")
        watcher = ConsoleWatcher(cdp)
        assert "convert_units" in wait_for(lambda: panel_tool_names(panel()), 30, "the tool list")
        NEW_TOOL.write_text('from tabagent import tool\n\n\n@tool\ndef live_tool() -> str:\n    """Says it is live."""\n    return "live"\n')
        # Saved: rebuilt, the extension reloaded, the panel opened again, the tool there.
        wait_for(lambda: "live_tool" in panel_tool_names(panel()), 90, "the new tool in the reloaded extension")
        assert panel()["id"] != first["id"]  # the panel came back after the reload
        problems = watcher.take_problems()
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n--- make run printed:\n{finish(runner)}") from None
    finally:
        NEW_TOOL.unlink(missing_ok=True)
        if cdp is not None:
            cdp.close()
        output = finish(runner)
        subprocess.run([sys.executable, "scripts/build.py"], cwd=ROOT, check=True)
    assert "no display here" in output
    assert not problems, "errors in the extension:\n" + "\n".join(map(str, problems))


def finish(runner) -> str:
    """Stops `make run` as Ctrl-C would, and returns what it printed."""
    if runner.poll() is None:
        os.killpg(runner.pid, signal.SIGINT)
    try:
        return runner.communicate(timeout=20)[0]
    except subprocess.TimeoutExpired:
        os.killpg(runner.pid, signal.SIGKILL)
        return runner.communicate()[0]
    except ValueError:
        return ""  # already collected
