"""The wire: every shape that crosses between JavaScript and Python, declared once.

One spelling on the wire, snake_case, and one set of defaults. extension/shared/wire.js is
generated from this module by the build (`make build`); a test fails when the two drift.
The extension keeps its settings in camelCase (chrome.storage, the options page) and
extension/shared/settings.js derives those names from SETTINGS, so a new setting is one
line here (and `make build`).

Only text crosses into and out of Pyodide, one way in each direction:
- JavaScript -> Python: JavaScript calls the functions of json_entry_points.py (and, in the
  sandbox, SandboxRuntime.start_run / receive) with JSON text, and gets JSON text back;
- Python -> JavaScript: Python calls the JavaScript functions it was handed (emit, the page
  bridge, the sandbox, the built-in model) with JSON text, and gets JSON text back (or, from
  the built-in model, a stream of text pieces).
"""

from __future__ import annotations

import json
import math

# The user's settings as a turn receives them, with their defaults. Numbers are bounded so
# that a stored value from an older version, or a typo, cannot make a turn misbehave.
SETTINGS = {
    "provider": "",            # a key of PROVIDERS in extension/shared/settings.js
    "base_url": "",            # the OpenAI-compatible endpoint
    "model": "",
    "agent": "code",           # "code" | "tool_calling"
    "max_steps": 10,           # steps before the agent must answer
    "code_timeout": 30,        # seconds one step's code may run in the sandbox
    "idle_close_minutes": 10,  # Python (the offscreen document) closes after this long unused
    "team": [],                # managed agents: [{name, description, agent, max_steps, team}]
    "context_window": 8192,    # tokens a request may hold, when neither endpoint nor model name says
    "system_prompt": "",       # added to the agent's own instructions, never replacing them
    "temperature": None,       # None: the endpoint's default
    "max_output_tokens": None,  # None: the endpoint's default
    "show_steps": False,       # the panel keeps a turn's steps open after it ends
    "custom_prompts": "",      # the user's own prompts, "name: prompt" per line (context menu, /name)
    "site_rules": "",          # actions on pages, per site: "example.org: allow" / "bank.example: never" per line
}
# Sight (screenshots, issue 26): whether the model is sent the pictures it asks for: "auto" learns
# it from the endpoint or the model's name (tabagent/sight.py), "yes" and "no" decide.
SETTINGS["model_sees_images"] = "auto"
LIMITS = {"max_steps": (1, 100), "code_timeout": (1, 3600), "idle_close_minutes": (0.01, 24 * 60),
          "context_window": (512, 10_000_000), "temperature": (0, 2), "max_output_tokens": (1, 1_000_000)}
# Numeric settings whose default is None (left to the endpoint): the kind of number they take.
NUMBER_OR_NONE = {"temperature": float, "max_output_tokens": int}

# One turn, JavaScript -> Python (json_entry_points.run_turn_json).
TURN_REQUEST = ("conversation_id", "task", "context", "memory", "settings", "api_key", "attached_tabs",
                "attached_selection", "mcp_servers", "mcp_headers")
# Sight: the pictures the user pasted or dropped in the composer (attachments.users_pictures).
TURN_REQUEST += ("attached_images",)
# The user's MCP servers (mcp_servers.py): one entry of the list a turn receives (its headers,
# secrets like the API key, come apart: {server id: {header: value}}), and the per-tool policies.
MCP_SERVER = ("id", "name", "url", "enabled", "tools")
MCP_POLICIES = ("ask", "conversation", "always", "off")
# The user's answers to a `confirmation`: allow once, allow that tool for the turn, allow
# actions on the page's site for the turn (offered for actions on a page), or deny.
CONFIRMATION_DECISIONS = ("once", "turn", "site", "deny")
# One page-tool call, Python -> JavaScript (the page bridge) -> the service worker, and its reply.
PAGE_TOOL_REQUEST = ("name", "args", "tab_id", "expect_url")
PAGE_TOOL_REPLY = ("ok", "result", "error", "tab_id", "url", "title")
# The sandbox: what a run may use unless the caller says otherwise, and the size of a message.
SANDBOX = {
    "timeout_ms": SETTINGS["code_timeout"] * 1000,  # of the sandbox's own time
    "memory_limit_mb": 1024,
    "max_output_chars": 20_000,
    "boot_timeout_ms": 60_000,
    "max_code_chars": 1_000_000,
    "max_text_chars": 16_000_000,  # tool arguments and results, outputs: a page fits, a runaway does not
}


def settings_from_wire(received: dict | None) -> dict:
    """The settings a turn uses: SETTINGS' defaults for whatever is missing or unusable."""
    received = received if isinstance(received, dict) else {}
    settings = dict(SETTINGS, team=[])
    for name, default in SETTINGS.items():
        value = received.get(name)
        if value is None or value == "" and default != "":
            continue
        if isinstance(default, bool):
            settings[name] = value if isinstance(value, bool) else default
        elif name in NUMBER_OR_NONE or isinstance(default, (int, float)):
            whole = NUMBER_OR_NONE.get(name, type(default)) is int
            settings[name] = _number(value, default, *LIMITS[name], whole=whole)
        elif isinstance(default, list):
            settings[name] = value if isinstance(value, list) else default
        else:
            settings[name] = str(value)
    return settings


def _number(value, default, low, high, whole):
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    if not math.isfinite(number):
        return default
    number = min(max(number, low), high)
    return round(number) if whole else number


def javascript_module() -> str:
    """extension/shared/wire.js: this module's declarations, as JavaScript reads them."""
    def constant(name, value, comment):
        return f"// {comment}\nexport const {name} = Object.freeze({json.dumps(value, indent=2)});\n"
    return "\n".join([
        "// Generated by scripts/build.py from py/tabagent/app/wire.py: do not edit, edit that file.",
        "// Every shape that crosses between JavaScript and Python, snake_case, with one set of defaults.",
        "",
        constant("SETTINGS", SETTINGS, "The settings a turn receives, with their defaults."),
        constant("SETTINGS_LIMITS", LIMITS, "Bounds of the numeric settings: [lowest, highest]."),
        constant("TURN_REQUEST", list(TURN_REQUEST), "One turn, JavaScript -> Python."),
        constant("PAGE_TOOL_REQUEST", list(PAGE_TOOL_REQUEST), "One page-tool call, Python -> JavaScript."),
        constant("PAGE_TOOL_REPLY", list(PAGE_TOOL_REPLY), "Its reply."),
        constant("SANDBOX", SANDBOX, "The sandbox's limits and defaults."),
        constant("MCP_SERVER", list(MCP_SERVER), "One MCP server as a turn receives it."),
        constant("CONFIRMATION_DECISIONS", list(CONFIRMATION_DECISIONS), "The answers to a confirmation."),
        constant("MCP_POLICIES", list(MCP_POLICIES), "What may happen when the model calls an MCP tool; the first is the default."),
    ])
