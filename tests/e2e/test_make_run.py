"""`make run`'s browser: TabAgent loaded, the panel open, and a saved tool file live in it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid

import pytest
import websocket

from tests.helpers.browser import ROOT
from tests.helpers.cdp import CDP
from tests.helpers.console_watcher import ConsoleWatcher
from tests.helpers.quiet import stays_quiet

NEW_TOOL = ROOT / "py" / "user_tools" / "e2e_live_reload_tool.py"
SAVED_FILE = ROOT / "extension" / "sidepanel" / "sidepanel.css"


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
            if reply.get("id") == 1:  # an error (the page closing for a reload): no list yet
                return reply.get("result", {}).get("result", {}).get("value") or []
    finally:
        ws.close()


def start_run(port, profile) -> subprocess.Popen:
    """`make run`'s script, headless as on a machine with no screen."""
    env = {**os.environ, "TABAGENT_DEVTOOLS_PORT": str(port), "TABAGENT_PROFILE": str(profile)}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.Popen([sys.executable, "scripts/run.py"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def panel_page(port):
    return next((t for t in targets(port) if t["url"].endswith("sidepanel/sidepanel.html")), None)


def panel_closed(port, page):
    """What a reload of the extension does to the panel page: closes it (make run opens another)."""
    now = panel_page(port)
    return None if now is not None and now["id"] == page["id"] else f"the panel page is now {now and now['id']}"


def test_run_opens_the_panel_and_a_saved_tool_is_live_after_the_reload(tmp_path):
    port = free_port()
    runner = start_run(port, tmp_path / "profile")
    output, cdp, problems = "", None, []
    try:
        panel = lambda: panel_page(port)  # noqa: E731
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
    assert output.count("Last extension reload") == 1, "saved once, built once, reloaded once:\n" + output
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


def test_an_idle_run_keeps_its_extension_and_a_saved_file_reloads_it_once():
    """As a new user runs it: the profile where `make run` keeps it, under .cache/ in the
    folder the extension is loaded from. Chromium writes there every few seconds; only a
    saved file of the extension may reload it."""
    port = free_port()
    profile = ROOT / ".cache" / f"e2e-make-run-{uuid.uuid4().hex[:8]}"
    runner = start_run(port, profile)
    try:
        first = wait_for(lambda: panel_page(port), 60, "the side panel page")
        stays_quiet(lambda: panel_closed(port, first), 60, every=1, why="the extension reloaded with nothing saved")
        SAVED_FILE.write_bytes(SAVED_FILE.read_bytes())  # saved as an editor saves, unchanged
        second = wait_for(lambda: (page := panel_page(port)) and page["id"] != first["id"] and page, 30,
                          "the panel opened again after the reload")
        stays_quiet(lambda: panel_closed(port, second), 20, every=1, why="the extension reloaded again after one save")
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n--- make run printed:\n{finish(runner)}") from None
    finally:
        output = finish(runner)
        shutil.rmtree(profile, ignore_errors=True)
    assert "run: reloading the extension (extension/sidepanel/sidepanel.css saved)" in output
    assert output.count("Last extension reload") == 1, output


def in_page(page_target, expression: str, timeout: float = 30):
    ws = websocket.create_connection(page_target["webSocketDebuggerUrl"], timeout=timeout, suppress_origin=True)
    try:
        ws.send(json.dumps({"id": 1, "method": "Runtime.evaluate", "params": {"expression": expression, "awaitPromise": True, "returnByValue": True}}))
        while True:
            reply = json.loads(ws.recv())
            if reply.get("id") == 1:
                if "result" not in reply:  # the page went away mid-call (a reload): ask again
                    raise websocket.WebSocketException(f"the page did not answer: {reply.get('error')}")
                return reply["result"]["result"].get("value")
    finally:
        ws.close()


def stored_device_models(port):
    """The settings once `make run` has handed the on-device model over, asked of whichever panel
    page is open now (the extension may reload, and the panel with it, while the model starts)."""
    panel = panel_page(port)
    if panel is None:
        return None
    stored = in_page(panel, "chrome.storage.local.get(['settings', 'deviceModels'])")
    return stored if stored and stored.get("deviceModels") else None


STREAMED = """chrome.storage.local.get(null).then((all) => Object.values(all).filter((v) => v?.id === ID && v.turns)
  .map((c) => c.turns.at(-1).events.filter((e) => e.kind === "token").map((e) => e.data.text).join(""))[0] ?? "")"""


@pytest.mark.timeout(900)
def test_a_fresh_run_answers_the_first_message_with_no_key_and_no_server(tmp_path):
    """A new profile, nothing configured: the first message is answered by Qwen2.5-Coder-0.5B,
    which `make run` took from its PyPI wheels and serves on 127.0.0.1, run inside the extension.
    The test waits for the answer to stream, then stops the turn (a 0.5B model on two busy cores
    writes slowly: the first words are the proof)."""
    port = free_port()
    runner = start_run(port, tmp_path / "profile")
    try:
        panel = wait_for(lambda: panel_page(port), 120, "the side panel page")
        settings = wait_for(lambda: stored_device_models(port), 60, "the on-device model handed to the extension")
        panel = wait_for(lambda: panel_page(port), 60, "the side panel page")
        assert list(settings["deviceModels"]) == ["qwen2.5-coder-0.5b"]
        assert settings["deviceModels"]["qwen2.5-coder-0.5b"]["url"].startswith("http://127.0.0.1:")
        started = in_page(panel, "chrome.runtime.sendMessage({ target: 'background', type: 'start-turn', text: 'Say hello in one short sentence.' })")
        assert started["ok"], started
        conversation = started["result"]["conversationId"]
        answer = wait_for(lambda: in_page(panel, STREAMED.replace("ID", json.dumps(conversation))).strip(), 600,
                          "the first words of the on-device model's answer")
        assert answer
        in_page(panel, f"chrome.runtime.sendMessage({{ target: 'background', type: 'stop-turn', conversationId: {json.dumps(conversation)} }})")
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n--- make run printed:\n{finish(runner)}") from None
    finally:
        output = finish(runner)
    assert "the on-device model (Qwen2.5-Coder-0.5B-Instruct" in output and "is served from http://127.0.0.1:" in output
