"""The wire: every shape that crosses between JavaScript and Python, declared once.

One spelling on the wire, snake_case, and one set of defaults. extension/shared/wire.js is
generated from this module by the build (`make build`) and imported by every context (the
content scripts too, bundled); a test fails when it drifts, and tests/unit/test_contract.py fails when a JavaScript
or Python file spells one of these names or values by hand instead of importing it.
The extension keeps its settings under these names too (chrome.storage, the options page's
fields; extension/shared/settings/settings-migration.js respells what an older version stored); the
settings page takes its list of fields and their bounds from here, so a new setting is one line here, its label in
_locales/*/messages.json and its place in extension/options/options.html (a test says which
is missing).

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

# The framework's own vocabulary and defaults, which the wire carries as they are.
from ..context_window import DEFAULT_WINDOW
from ..secret_words import SECRET_WORDS
from ..unseen import HIDING, LONE_SHOWS, UNSEEN
from ..events import KINDS, STATUSES
from ..providers import PROVIDERS

# The user's settings as a turn receives them, with their defaults. Numbers are bounded so
# that a stored value from an older version, or a typo, cannot make a turn misbehave.
SETTINGS = {
    "provider": "",            # a key of PROVIDERS (tabagent/providers.py); "" with no base_url: the first (settings.js)
    "base_url": "",            # the OpenAI-compatible endpoint
    "model": "",
    "agent": "code",           # "code" | "tool_calling"
    "max_steps": 10,           # steps before the agent must answer
    "code_timeout": 30,        # seconds one step's code may run in the sandbox
    "idle_close_minutes": 10,  # Python (the offscreen document) closes after this long unused
    "team": [],                # managed agents: [{name, description, agent, max_steps, team}]
    "context_window": DEFAULT_WINDOW,  # tokens a request may hold, when neither endpoint nor model name says (for Ollama: at most)
    "system_prompt": "",       # added to the agent's own instructions, never replacing them
    "temperature": None,       # None: the endpoint's default
    "max_output_tokens": None,  # None: the endpoint's default
    "show_steps": False,       # the panel keeps a turn's steps open after it ends
    "custom_prompts": "",      # the user's own prompts, "name: prompt" per line (context menu, /name)
    "site_rules": "",          # actions on pages, per site: "example.org: allow" / "bank.example: never" per line
    # Seconds to wait for the model's answer to start, then for each next piece; None: the
    # provider's default (tabagent/providers.py default_timeout: longer for a model on this machine).
    "request_timeout": None,
    "max_retries": 3,          # times a failed model request (busy, 5xx, no network) is tried again
    # Whether the model is sent the pictures it asks for (screenshots): "auto" learns it from the
    # endpoint or the model's name (tabagent/vision.py), "yes" and "no" decide.
    "model_sees_images": "auto",
    # Which tools each request lists (tabagent/tool_set.py): "auto" the compact set for a small
    # context window, "full" every tool, "compact" the core reading and acting tools.
    "tool_set": "auto",
    # When the ToolCallingAgent's replies are held to a call of its tools, where the endpoint can
    # (tabagent/reply_grammar.py): "every_reply", "after_misreads" (two unreadable calls), "never".
    "hold_replies": "after_misreads",
    "page_tools": True,        # the tools that read and act on the tab; off: a chat about anything else
    # A turn works in a tab of its own (opened in the background, in a tab group named for the
    # task), not in the tab the user is on, which it leaves untouched.
    "own_tab": False,
    # MCP clients (Claude Code, Cursor...) may use the page tools through the native host
    # (mcp-server/): every call shown in the panel, every action asked there. Off unless switched on.
    "mcp_clients": False,
}
# max_steps: up to 300 where the user sets it (a memory game takes more than 100 clicks).
LIMITS = {"max_steps": (1, 300), "code_timeout": (1, 3600), "idle_close_minutes": (0.01, 24 * 60),
          "context_window": (512, 10_000_000), "temperature": (0, 2), "max_output_tokens": (1, 1_000_000),
          "request_timeout": (5, 3600), "max_retries": (0, 10)}
# Numeric settings whose default is None (left to the endpoint, or the provider): the kind of number they take.
NUMBER_OR_NONE = {"temperature": float, "max_output_tokens": int, "request_timeout": int}

# The page tools that act (page_actions.py): a turn that did one may be saved as a workflow.
PAGE_ACTIONS = ("click", "type_text", "select_option", "check", "press_key", "hover", "scroll", "navigate",
                "go_back", "go_forward", "open_tab")

# The page tools an MCP client may call (app/client_calls.py; mcp-server/tabagent_mcp/tools.py offers them).
CLIENT_TOOLS = ("read_page", "list_controls", "find_in_page", "list_tabs", "screenshot", "click", "type_text",
                "select_option", "check", "press_key", "scroll", "navigate")
# One call of an MCP client, the service worker -> the offscreen document -> Python
# (json_entry_points.client_call_json): the session it belongs to, and the call.
CLIENT_SESSION = ("conversation_id", "site_rules", "seq", "client")
CLIENT_CALL = ("name", "args")

# One turn, JavaScript -> Python (json_entry_points.run_turn_json).
# attached_images: the pictures the user pasted or dropped in the composer (attachments.py).
# schedule: a scheduled run's {"name", "sites"}: who acts, and where it may act unasked (consent.py).
TURN_REQUEST = ("conversation_id", "task", "context", "memory", "settings", "api_key", "attached_tabs",
                "attached_selection", "mcp_servers", "mcp_headers", "attached_images", "workflow", "workflows",
                "schedule")
# The user's MCP servers (mcp_servers.py): one entry of the list a turn receives (its headers,
# secrets like the API key, come apart: {server id: {header: value}}), and the per-tool policies.
MCP_SERVER = ("id", "name", "url", "enabled", "tools")
MCP_POLICIES = ("ask", "conversation", "always", "off")
# The user's answers to a `confirmation`: allow once, allow that tool for the turn, allow
# actions on the page's site for the turn (offered for actions on a page), deny, or cancel (a
# form a server asked for, put away without an answer: mcp_requests.py).
CONFIRMATION_DECISIONS = ("once", "turn", "site", "deny", "cancel")
# The answer to a `confirmation` that carries a form (an MCP server's elicitation): the
# decision ("once" sends the form) and the values typed, by field name (the panel -> Python).
FORM_ANSWER = ("decision", "values")
# One page-tool call, Python -> JavaScript (the page bridge) -> the service worker, and its reply.
PAGE_TOOL_REQUEST = ("name", "args", "tab_id", "expect_url")
# downloads, late_downloads: what the turn's actions downloaded (app/downloads.py said_started, said_late).
# from_page: the error is the content script's, which may quote the page (page_bridge.failure marks it);
# no_such_part: a part the page does not have, in numbers (NO_SUCH_PART), beside that error.
PAGE_TOOL_REPLY = ("ok", "result", "error", "tab_id", "url", "title", "downloads", "late_downloads", "from_page",
                   "no_such_part")
# A part out of range (content/tool-arguments.js NoSuchPart, offscreen/pdf/pdf-reader.js): the part asked
# for, how many there are, for text the tokens a part holds, and whether the text is a PDF's. Python
# writes TabAgent's own error from these (app/no_such_part.py), never from the sentence.
NO_SUCH_PART = ("asked", "parts", "part_tokens", "pdf")
# The Python entry points the extension calls (app/json_entry_points.py), each declared once:
# - takes: its arguments, in order; a name ending in _json is JSON text (offscreen/python/worker-link.js writes
#   it from a value), any other is a string;
# - lends: what the caller lends it for as long as the call runs (LENT below), passed to Python
#   by keyword; Python calls back only the methods LENT allows;
# - answers: the keys of the JSON object it answers (offscreen/python/worker-link.js reads it), or None when it
#   answers a plain value;
# - message: the message (extension/shared/protocol/messages.js MessageType) whose handler in the
#   offscreen document calls it, and asked_by: who may send that message to the service worker
#   ("user pages": the side panel and settings; "service worker": the service worker itself).
# offscreen/python/worker-link.js and offscreen/python/worker.js call them by these names and nothing else;
# tests/unit/test_entry_points.py fails when a function, a caller or this table differ.
ENTRY_POINTS = {
    "run_turn_json": {"takes": ("request_json",), "lends": ("emit", "page_bridge", "browser_model", "device_model", "sandbox_for"),
                      "answers": ("status", "memory"), "message": "runTurn", "asked_by": "service worker"},
    "stop_turn": {"takes": ("conversation_id",), "lends": (), "answers": None,
                  "message": "stopTurn", "asked_by": "service worker"},
    "client_call_json": {"takes": ("session_json", "call_json"), "lends": ("emit", "page_bridge"),
                         "answers": ("ok", "result", "images", "error"), "message": "clientCall",
                         "asked_by": "service worker"},
    "end_client_session": {"takes": ("conversation_id",), "lends": (), "answers": None,
                           "message": "stopTurn", "asked_by": "service worker"},
    "list_tools_json": {"takes": (), "lends": ("page_bridge",), "answers": ("tools", "problems"),
                        "message": "listTools", "asked_by": "user pages"},
    "call_tool_json": {"takes": ("name", "args_json"), "lends": ("page_bridge",),
                       "answers": ("ok", "result", "ms", "images", "error"),
                       "message": "callTool", "asked_by": "user pages"},
    "workflow_from_turn_json": {"takes": ("events_json", "task", "name"), "lends": (),
                                "answers": ("ok", "name", "source", "sites", "parameters", "error"),
                                "message": "saveWorkflow", "asked_by": "user pages"},
    # A workflow file read as data before it is kept (Import, an edit in the Tools view): the
    # service worker asks, then stores it (background/workflow-saving.js).
    "read_workflow_json": {"takes": ("source",), "lends": (), "answers": ("ok", "parameters", "sites", "steps", "error"),
                           "message": "readWorkflow", "asked_by": "service worker"},
    # An import holds each turn's memory to the message its agent was given, made again here from
    # what the turn shows (a selection's marking is Python's alone): background/imports.js asks.
    "messages_given_json": {"takes": ("turns_json",), "lends": (), "answers": ("messages",),
                            "message": "messagesGiven", "asked_by": "service worker"},
    "list_mcp_tools_json": {"takes": ("servers_json", "headers_json"), "lends": (), "answers": ("tools", "problems"),
                            "message": "listTools", "asked_by": "user pages"},
    "list_mcp_prompts_json": {"takes": ("servers_json", "headers_json"), "lends": (), "answers": ("prompts",),
                              "message": "listMcpPrompts", "asked_by": "user pages"},
    "get_mcp_prompt_json": {"takes": ("server_json", "headers_json", "name", "arguments_json"), "lends": (),
                            "answers": ("ok", "text", "error"), "message": "getMcpPrompt", "asked_by": "user pages"},
    # MCP Apps (mcp_apps.py): the panel reads an app's page to show it, and passes on the calls
    # the app makes to its server's tools (asked in the panel as a model's call is).
    "read_mcp_app_json": {"takes": ("server_json", "headers_json", "uri"), "lends": (),
                          "answers": ("ok", "html", "csp", "prefers_border", "error"), "message": "readMcpApp",
                          "asked_by": "user pages"},
    "mcp_app_call_json": {"takes": ("server_json", "headers_json", "call_json"), "lends": ("emit", "page_bridge"),
                          "answers": ("ok", "result", "error"), "message": "mcpAppCall", "asked_by": "user pages"},
    "check_mcp_server_json": {"takes": ("server_json", "headers_json"), "lends": (),
                              "answers": ("ok", "server", "version", "protocol", "transport", "tools", "error"),
                              "message": "checkMcpServer", "asked_by": "user pages"},
    # Signing in to an MCP server (mcp_sign_in.py): the service worker asks, around the browser's
    # sign-in window, and keeps the record; settings ask it (signInMcpServer, signOutMcpServer).
    "mcp_sign_in_plan_json": {"takes": ("server_json", "redirect_uri", "client_id", "how_json"), "lends": (),
                              "answers": ("ok", "plan", "error"), "message": "mcpSignInPlan",
                              "asked_by": "service worker"},
    "mcp_sign_in_finish_json": {"takes": ("plan_json", "ended_at"), "lends": (), "answers": ("ok", "record", "error"),
                                "message": "mcpSignInFinish", "asked_by": "service worker"},
    "mcp_refresh_json": {"takes": ("record_json",), "lends": (), "answers": ("ok", "record", "error"),
                         "message": "mcpRefreshSignIn", "asked_by": "service worker"},
    "mcp_sign_out_json": {"takes": ("record_json",), "lends": (), "answers": ("ok",),
                          "message": "mcpSignOut", "asked_by": "service worker"},
}
# What the extension lends Python during a call, and the only methods Python may call on each
# (offscreen/python/worker-link.js refuses any other). emit is a function (the turn's events, as JSON text);
# sandbox_for is a function of an agent's name giving that agent's code sandbox.
LENT = {
    "emit": (),
    "page_bridge": ("runPageTool", "confirm", "ask", "signIn"),              # offscreen/python/page-bridge.js
    "browser_model": ("availability", "seesImages", "stream", "abort"),  # offscreen/python/builtin-model.js
    "device_model": ("complete", "window", "abort"),                  # offscreen/on-device/device-model.js
    "sandbox_for": ("warm", "reset", "stop", "runJson"),              # offscreen/code-sandboxes/code-sandbox.js
}
# The page tools' defaults that Python and the content scripts both apply, so that a user tool
# gets the same answer from page.read_page() and page.run_page_tool("read_page"). read_page's part size
# and page_html's cut are set so that one result, with its header and marking, fits the agent's
# observation budget (20,000 characters): nothing is lost between one part and the next.
# Every number a page tool takes has its default here.
PAGE_TOOL_DEFAULTS = {
    "read_page": {"page": 1, "max_tokens": 4000},
    "page_html": {"max_chars": 15_000},
    "list_controls": {"page": 1, "max_controls": 150},
    "wait_for": {"timeout_ms": 5000, "longest_ms": 20_000},  # a longer timeout is cut to longest_ms
    "get_selection": {"context_chars": 300},
    "find_in_page": {"max_results": 20, "context_chars": 80},
    "query_page": {"max_results": 50, "max_chars": 500},
    "list_links": {"max_results": 100},
    "extract_tables": {"max_tables": 10, "max_rows": 200},
}

# read_download (app/downloads.py, extension/background/downloads.js): a file the page downloaded
# during the turn, fetched again by the extension (the browsers give no extension the file's bytes):
# at most max_mb of it is read. Before an answer is taken, the turn asks once more for the downloads its
# actions started that no result named yet (`unnamed_call`, a call of the page bridge, not a tool),
# waiting until `end_grace_ms` after the latest action that may start one. DOWNLOAD is the download as the service worker describes it (for
# the question) and as the offscreen document reads it (text, or a PDF's text by pdf.js).
DOWNLOADS = {"max_mb": 8, "unnamed_call": "unnamed_downloads", "end_grace_ms": 500,
             "started_by": ["click", "click_at", "double_click", "press_key"]}  # the actions that may start one
DOWNLOAD = ("download_id", "file_name", "mime", "size", "from_site", "site", "tab_id", "url", "text", "kind", "cut")

# The pictures one message takes, from the composer (a paste, a drop, a screenshot of the tab:
# extension/sidepanel/attachments-view.js) to the model (attachments.py): how many, and how
# large each picture's file may be, in MB of 1024 × 1024 bytes. The panel's words about them
# take these numbers as substitutions.
ATTACHED_PICTURES = {"max_pictures": 5, "max_file_mb": 6}

# The event stream (tabagent/events.py, docs/events.md): each kind and its data's keys, and
# how a run ends (the `done` event's status).
EVENT_KINDS = KINDS
# The `error` events after which a turn goes on (every other error ends it), and where a
# surface tells each: "step" in the step it happened in, "turn" beside the turn's answer.
NOT_FATAL_ERRORS = {
    "retrying": "step",    # a model request failed and is tried again (data: reason, attempt, ...)
    "max_steps": "step",   # out of steps: the agent is asked for its best answer
    "truncated": "turn",   # a reply was cut at the model's output limit; what came is kept
    "user_tools": "turn",  # a tool file did not load; the other tools did
    "attachment": "turn",  # an attached tab was not read (it left its site)
    "mcp": "turn",         # an MCP server could not be reached, or its tools crowd the window
    "text_calls": "turn",  # the endpoint refused tool definitions: the tools go in the prompt instead
    "constrained": "step",  # two calls unread, or one repeated once told: the next reply is held
    "workflow": "turn",    # a saved workflow could not do a step: the agent takes over from it
}
# The `error` kinds that end a turn, and what the panel offers for each: "settings" when a setting
# is what is wrong (Open settings, then Retry), "retry" otherwise (Retry). The framework's model
# errors name theirs (tabagent/errors.py, a class's `kind`); the host adds the others.
FATAL_ERRORS = {
    "settings": "settings",     # no model chosen, or a setting the turn cannot use
    "auth": "settings",         # 401/403: the API key
    "not_found": "settings",    # 404: the endpoint's address or the model's name
    "model": "retry",           # any other answer of the model's server that is not a reply
    "bad_request": "retry",
    "tools_refused": "retry",   # the endpoint refused tool definitions even as text calls were due
    "context_too_long": "retry",
    "bad_response": "retry",
    "rate_limited": "retry",
    "server": "retry",
    "unreachable": "retry",
    "timeout": "retry",
    "unavailable": "retry",     # Chrome's built-in model is not ready on this machine
    "on_device": "settings",    # the on-device model: none chosen, or its file would not load or run
    "memory": "retry",          # the conversation's stored memory could not be read
    "agent": "retry",           # Python failed outside the model: a bug, said in its last line
}

# The sandbox: what a run may use unless the caller says otherwise, and the size of a message.
SANDBOX = {
    "timeout_ms": SETTINGS["code_timeout"] * 1000,  # of the sandbox's own time
    "memory_limit_mb": 1024,
    "max_output_chars": 20_000,
    "boot_timeout_ms": 60_000,
    "max_code_chars": 1_000_000,
    "max_text_chars": 16_000_000,  # tool arguments and results, outputs: a page fits, a runaway does not
}
# The messages that cross into and out of the sandbox's Python (in_sandbox/runtime.py), by type,
# with exactly these fields besides `type` (extension/shared/protocol/sandbox-protocol.js checks them).
SANDBOX_MESSAGES = {
    "run": ("run_id", "code", "tools", "max_output_chars", "memory_limit_bytes"),  # parent -> sandbox
    "tool-result": ("run_id", "call_id", "reply"),  # parent -> sandbox: reply is JSON text
    "tool-call": ("run_id", "call_id", "name", "args"),  # sandbox -> parent: args is JSON text
    "result": ("run_id", "output", "is_error", "is_final", "final_value"),  # sandbox -> parent
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


def steps_of(spec: dict) -> int:
    """A team member's max_steps, within the setting's bounds like the user's own."""
    return _number(spec.get("max_steps"), SETTINGS["max_steps"], *LIMITS["max_steps"], whole=True)


def _number(value, default, low, high, whole):
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    if not math.isfinite(number):
        return default
    number = min(max(number, low), high)
    return round(number) if whole else number


def _constant(name, value, comment):
    return f"// {comment}\nexport const {name} = Object.freeze({json.dumps(value, indent=2)});\n"


def javascript_module() -> str:
    """extension/shared/wire.js: this module's declarations, as JavaScript reads them."""
    return "\n".join([
        "// Generated by scripts/build.py from py/tabagent/app/wire.py: do not edit, edit that file.",
        "// Every shape that crosses between JavaScript and Python, snake_case, with one set of defaults.",
        "",
        _constant("SETTINGS", SETTINGS, "The settings a turn receives, with their defaults."),
        _constant("SETTINGS_LIMITS", LIMITS, "Bounds of the numeric settings: [lowest, highest]."),
        _constant("PROVIDERS", PROVIDERS, "The model providers offered, in order, with their presets (tabagent/providers.py)."),
        _constant("Provider", {id: id for id in PROVIDERS}, "Each provider by its id: Provider.ollama, never \"ollama\"."),
        _constant("TURN_REQUEST", list(TURN_REQUEST), "One turn, JavaScript -> Python."),
        _constant("CLIENT_TOOLS", list(CLIENT_TOOLS), "The page tools an MCP client may call (TabAgent as an MCP server)."),
        _constant("CLIENT_SESSION", list(CLIENT_SESSION), "An MCP client's session, as each of its calls carries it."),
        _constant("PAGE_TOOL_REQUEST", list(PAGE_TOOL_REQUEST), "One page-tool call, Python -> JavaScript."),
        _constant("PAGE_ACTIONS", list(PAGE_ACTIONS), "The page tools that act: a turn that did one may be saved as a workflow."),
        _constant("PAGE_TOOL_REPLY", list(PAGE_TOOL_REPLY), "Its reply."),
        _constant("NO_SUCH_PART", list(NO_SUCH_PART), "A part out of range, in a reply's no_such_part."),
        _constant("PAGE_TOOL_DEFAULTS", PAGE_TOOL_DEFAULTS, "The page tools' defaults both sides apply."),
        _constant("DOWNLOADS", DOWNLOADS, "How much of a downloaded file read_download reads."),
        _constant("DOWNLOAD", list(DOWNLOAD), "A download of the turn, described and read (read_download)."),
        _constant("EVENT_KINDS", {kind: list(keys) for kind, keys in EVENT_KINDS.items()},
                  "The event stream: each kind and the keys of its data (docs/events.md)."),
        _constant("EventKind", {kind: kind for kind in EVENT_KINDS},
                  "Each event kind by its name, for comparisons: EventKind.token, never \"token\"."),
        _constant("STATUSES", list(STATUSES), "How a run ends: the done event's status."),
        _constant("Status", {status: status for status in STATUSES}, "Each of them by its name: Status.ok, never \"ok\"."),
        _constant("NOT_FATAL_ERRORS", NOT_FATAL_ERRORS,
                  "Error kinds after which the turn goes on, and where each is told: step or turn."),
        _constant("NotFatal", {kind: kind for kind in NOT_FATAL_ERRORS},
                  "Each of those kinds by its name: NotFatal.retrying, never \"retrying\"."),
        _constant("FATAL_ERRORS", FATAL_ERRORS,
                  "Error kinds that end the turn, and what fixes each: settings or retry."),
        _constant("Fatal", {kind: kind for kind in FATAL_ERRORS},
                  "Each of those kinds by its name: Fatal.agent, never \"agent\"."),
        _constant("FIXED_IN_SETTINGS", [kind for kind, fix in FATAL_ERRORS.items() if fix == "settings"],
                  "The error kinds a setting fixes: the panel offers Open settings."),
        _constant("SANDBOX", SANDBOX, "The sandbox's limits and defaults."),
        _constant("ATTACHED_PICTURES", ATTACHED_PICTURES, "The pictures one message takes: how many, and how large each file."),
        _constant("SANDBOX_MESSAGES", {kind: list(keys) for kind, keys in SANDBOX_MESSAGES.items()},
                  "The sandbox's Python messages, by type, and their fields besides type."),
        _constant("SandboxMessage", {kind.replace("-", "_"): kind for kind in SANDBOX_MESSAGES},
                  "Each of those types by its name: SandboxMessage.tool_call, never \"tool-call\"."),
        _constant("MCP_SERVER", list(MCP_SERVER), "One MCP server as a turn receives it."),
        _constant("CONFIRMATION_DECISIONS", list(CONFIRMATION_DECISIONS), "The answers to a confirmation."),
        _constant("FORM_ANSWER", list(FORM_ANSWER), "The answer to a confirmation that carries a form."),
        _constant("Decision", {decision: decision for decision in CONFIRMATION_DECISIONS},
                  "Each of them by its name: Decision.deny, never \"deny\"."),
        _constant("MCP_POLICIES", list(MCP_POLICIES), "What may happen when the model calls an MCP tool; the first is the default."),
        _constant("ENTRY_POINTS", {name: {**spec, "takes": list(spec["takes"]), "lends": list(spec["lends"]),
                                          "answers": list(spec["answers"]) if spec["answers"] else None}
                                   for name, spec in ENTRY_POINTS.items()},
                  "Python's entry points: what each takes, is lent, answers, and who asks for it."),
        _constant("EntryPoint", {name: name for name in ENTRY_POINTS},
                  "Each entry point by its name: EntryPoint.stop_turn, never \"stop_turn\"."),
        _constant("LENT", {name: list(methods) for name, methods in LENT.items()},
                  "What is lent to Python during a call, and the methods Python may call on it."),
        _constant("UNSEEN", [list(pair) for pair in UNSEEN],
                  "Code points that draw nothing, [first, last]: written out as ⟨U+…⟩ wherever the user is shown "
                  "what the model reads or what will run (tabagent/unseen.py)."),
        _constant("HIDING", [list(pair) for pair in HIDING],
                  "Of those, the ones that hide words, [first, last]: page text loses them, an imported record holding "
                  "them hides something (tabagent/unseen.py)."),
        _constant("LONE_SHOWS", list(LONE_SHOWS), "Of those, the range one of which alone hides nothing (an emoji's selector)."),
        _constant("SECRET_WORDS", {kind: list(words) for kind, words in SECRET_WORDS.items()},
                  "The words for secrets, by kind, in many languages: a field named so is a password field "
                  "(tabagent/secret_words.py; content/secret-fields.js)."),
    ])
