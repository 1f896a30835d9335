"""One wire contract: the shapes that cross between JavaScript and Python are declared once, in
py/tabagent/app/wire.py, and mirrored by one JavaScript module, extension/shared/wire.js, which
the build makes from it. These tests fail when the two drift or when a side spells a key its own way."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tabagent.app import wire
from tabagent.app.wire import SETTINGS, settings_from_wire
from tabagent.providers import PROVIDERS

ROOT = Path(__file__).resolve().parents[2]
WIRE_JS = ROOT / "extension" / "shared" / "wire.js"


def node(script: str):
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_wire_js_is_what_the_build_makes_from_wire_py():
    assert WIRE_JS.read_text() == wire.javascript_module(), "wire.js drifted from wire.py: run make build"


def test_javascript_reads_the_same_declarations():
    seen = node("""
      import * as wire from "./extension/shared/wire.js";
      import { DEFAULT_SETTINGS, forPython } from "./extension/shared/settings/settings.js";
      console.log(JSON.stringify({ wire, defaults: DEFAULT_SETTINGS, onTheWire: forPython(DEFAULT_SETTINGS),
                                   partial: forPython({ base_url: "http://x/v1", max_steps: 4, stray: 1 }) }));
    """)
    assert seen["wire"]["SETTINGS"] == SETTINGS
    assert seen["wire"]["SANDBOX"] == wire.SANDBOX
    assert seen["wire"]["PAGE_TOOL_REQUEST"] == list(wire.PAGE_TOOL_REQUEST)
    # The extension stores them under the same names; what crosses is every setting, nothing else.
    assert set(seen["defaults"]) == set(SETTINGS)
    # Nothing configured (no provider, no base URL): the extension's provider is the first, the
    # model on this device (settings.js); Python's own default stays "" for the command line.
    assert seen["onTheWire"] == {**SETTINGS, "provider": next(iter(PROVIDERS))}
    assert settings_from_wire(seen["partial"]) == {**SETTINGS, "base_url": "http://x/v1", "max_steps": 4}


def test_the_extension_spells_no_setting_default_of_its_own():
    """The defaults live in wire.py only: no JavaScript file writes `maxSteps: 10` or `|| 30` again."""
    sources = [p for p in (ROOT / "extension").rglob("*.js") if "vendor" not in p.parts and p != WIRE_JS]
    again = re.compile(r"(maxSteps|codeTimeout|idleCloseMinutes|max_steps|code_timeout)\s*[:=]\s*\d|\|\|\s*(10|30)\b")
    assert {str(p.relative_to(ROOT)): again.findall(p.read_text()) for p in sources if again.search(p.read_text())} == {}


@pytest.mark.parametrize("received, expected", [
    (None, SETTINGS),
    ({"max_steps": "7"}, {**SETTINGS, "max_steps": 7}),
    ({"max_steps": "lots", "code_timeout": -5}, {**SETTINGS, "code_timeout": 1}),
    ({"max_steps": 10_000, "idle_close_minutes": float("nan")}, {**SETTINGS, "max_steps": 300}),
    ({"team": "not a list", "agent": "", "unknown": 1}, SETTINGS),
])
def test_python_puts_its_defaults_in_place_of_missing_or_unusable_values(received, expected):
    assert settings_from_wire(received) == expected


def test_the_turn_request_the_offscreen_document_sends_is_the_declared_one():
    """turn-request.js names no field of its own: every TURN_REQUEST field, from the service
    worker's camelCase message, with what an absent one is; nothing else of the message crosses."""
    sent = node("""
      import { turnRequest } from "./extension/offscreen/python/turn-request.js";
      const full = turnRequest({ type: "run-turn", target: "offscreen", turnId: "t1", conversationId: "c1", task: "Hi",
        context: { selection: "s" }, memory: "{}", settings: { max_steps: 3 }, apiKey: "k", attachedTabs: [{ tab_id: 1 }],
        attachedSelection: { text: "x" }, mcpServers: [{ id: "m" }], mcpHeaders: { m: {} }, idle_close_minutes: 5 });
      console.log(JSON.stringify({ full, bare: turnRequest({ conversationId: "c2", task: "Yo" }) }));
    """)
    assert list(sent["full"]) == list(wire.TURN_REQUEST)
    assert sent["full"]["api_key"] == "k" and sent["full"]["attached_tabs"] == [{"tab_id": 1}]
    assert sent["bare"] == {**dict.fromkeys(wire.TURN_REQUEST), "conversation_id": "c2", "task": "Yo",
                            "attached_tabs": [], "mcp_servers": [], "mcp_headers": {}, "attached_images": []}


def test_python_and_the_framework_share_one_default_each():
    from tabagent.context_window import DEFAULT_WINDOW
    from tabagent.events import KINDS
    seen = node("""
      import { IDLE_CLOSE_MINUTES } from "./extension/offscreen/idle-close.js";
      import { TURN_STATUSES } from "./extension/shared/import-checks/conversation-schema.js";
      console.log(JSON.stringify({ idle: IDLE_CLOSE_MINUTES, statuses: TURN_STATUSES }));
    """)
    assert seen["idle"] == SETTINGS["idle_close_minutes"]
    assert seen["statuses"] == ["running", *wire.STATUSES, "interrupted"]
    assert SETTINGS["context_window"] == DEFAULT_WINDOW and wire.EVENT_KINDS is KINDS
