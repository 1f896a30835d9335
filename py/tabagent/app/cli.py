"""The agent in a terminal: `python -m tabagent` runs the side panel's turns in CPython,
against any OpenAI-compatible endpoint, with your own tools (py/user_tools) and no page tools
(there is no browser here). For trying the loop and debugging tools.

It is one more sink of the event stream: a turn goes through `session.Turns` as a request
dict, exactly as the extension's offscreen document sends it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import sys
import uuid

from .. import __version__
from ..executor import LocalExecutor
from ..hosts.cpython import CPythonHost
from ..mcp import MCPError
from ..providers import BUILTIN, CUSTOM
from .cli_sign_in import SignIns, TerminalSignIn, sign_in
from .consent import Actor, Consent
from .turns import AGENT_KINDS, Turns
from .user_tools import load_user_tools
from .wire import NOT_FATAL_ERRORS, SETTINGS, settings_from_wire

USAGE_ERROR, MODEL_ERROR, STOPPED = 2, 1, 130


class UsageError(Exception):
    pass


def parse_args(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tabagent",
        description="Run TabAgent's agent in this terminal against an OpenAI-compatible endpoint, "
                    "with the tools in py/user_tools (no page tools: there is no browser).",
        epilog="Without a task, asks for one task after another in one conversation (Ctrl-C stops "
               "a turn, Ctrl-D quits). Exit status: 0 answered, 1 the model or the agent failed, "
               "2 bad usage, 130 stopped (in a conversation: of its last turn).")
    parser.add_argument("task", nargs="?", help="what to ask; leave out for a conversation")
    parser.add_argument("--base-url", help="the endpoint, e.g. http://localhost:11434/v1")
    parser.add_argument("--model", help="the model name, e.g. llama3.2")
    parser.add_argument("--api-key", default=os.environ.get("TABAGENT_API_KEY"),
                        help="the endpoint's key (default: the TABAGENT_API_KEY environment variable)")
    parser.add_argument("--agent", choices=list(AGENT_KINDS),
                        help="code (the default) runs the Python the model writes IN THIS PROCESS, "
                             "with your permissions and no sandbox (LocalExecutor); tool_calling "
                             "only calls the tools")
    parser.add_argument("--max-steps", type=int, help=f"steps before the agent must answer (default {SETTINGS['max_steps']})")
    parser.add_argument("--settings", metavar="FILE",
                        help="a JSON file of the extension's settings (provider, base_url, model, "
                             "agent, max_steps, code_timeout, team, ...: the names of wire.py, as the "
                             "extension stores them); the options above override it")
    parser.add_argument("--tools", metavar="FOLDER", help="where your tools are (default py/user_tools)")
    parser.add_argument("--list-tools", action="store_true",
                        help="print the tools a turn in the extension gives the agent, yours with them, and what each "
                             "costs a request in tokens; then exit (no browser or model needed; exit status 1 when a "
                             "tool file did not load)")
    parser.add_argument("--mcp", metavar="NAME=URL", action="append", default=[],
                        help="an MCP server whose tools the agent may call (Streamable HTTP or HTTP+SSE); "
                             "repeat for more. Each call is asked here first")
    parser.add_argument("--mcp-header", metavar="NAME=HEADER:VALUE", action="append", default=[],
                        help="a header for that MCP server, e.g. files=Authorization:Bearer ...")
    parser.add_argument("--sign-in", metavar="NAME",
                        help="sign in to the --mcp server NAME through your browser (its address is printed; the "
                             "answer comes back to 127.0.0.1), keep the token in ~/.config/tabagent/mcp-sign-ins.json "
                             "(readable by you only; $XDG_CONFIG_HOME if set), then exit. Later runs with that "
                             "server use it, refreshed when it expires")
    parser.add_argument("--sign-out", metavar="NAME", help="forget the kept sign-in to the --mcp server NAME, then exit")
    parser.add_argument("--client-id", metavar="ID",
                        help="with --sign-in: a client registered beforehand with the server's authorization server; "
                             "its secret, if it has one, in the TABAGENT_MCP_CLIENT_SECRET environment variable")
    parser.add_argument("--no-browser", action="store_true", help="with --sign-in: only print the address")
    parser.add_argument("--allow-mcp", action="store_true",
                        help="call MCP tools without asking (needed when there is no terminal to ask on)")
    parser.add_argument("--events", action="store_true",
                        help="print every event as a line of JSON instead (the stream the panel renders)")
    parser.add_argument("--version", action="version", version=f"tabagent {__version__}")
    return parser.parse_args(argv)


def settings_from(args) -> dict:
    """The settings as turns.py reads them: the file's, then the options'."""
    settings = settings_from_wire(settings_file(args.settings) if args.settings else {})
    for key in ("base_url", "model", "agent", "max_steps"):  # the options win
        if getattr(args, key) is not None:
            settings[key] = getattr(args, key)
    if settings.get("provider") == BUILTIN:
        if not args.base_url:
            raise UsageError("Chrome's built-in model only exists in the browser: give --base-url and --model")
        settings["provider"] = CUSTOM  # the endpoint given here replaces it
    if not settings.get("base_url"):
        raise UsageError("no endpoint: give --base-url (and --model), or --settings FILE")
    if not settings.get("model"):
        raise UsageError("no model name: give --model, or a settings file with \"model\"")
    if settings["agent"] not in AGENT_KINDS:
        raise UsageError(f"unknown agent {settings['agent']!r}: choose {' or '.join(AGENT_KINDS)}")
    return settings


def mcp_from(args) -> tuple[list[dict], dict]:
    """The --mcp servers and their --mcp-header headers, as a turn request holds them."""
    servers, headers = [], {}
    for given in args.mcp:
        name, _, url = given.partition("=")
        if not name or not url.startswith(("http://", "https://")):
            raise UsageError(f"--mcp {given!r}: write it as NAME=http://host:port/path")
        servers.append({"id": name, "name": name, "url": url, "enabled": True, "tools": {}})
    names = {server["name"] for server in servers}
    for given in args.mcp_header:
        name, _, header = given.partition("=")
        field, _, value = header.partition(":")
        if name not in names or not field.strip():
            raise UsageError(f"--mcp-header {given!r}: write it as NAME=Header:value for a server given with --mcp")
        headers.setdefault(name, {})[field.strip()] = value.strip()
    return servers, headers


class AskOnTheTerminal:
    """The person at the terminal, as the consent service's bridge (consent.py) for MCP calls at
    the command line: they say yes, or --allow-mcp said it for every call; with no terminal to
    ask on, a call is refused. What they allow for the turn is kept by the service."""

    def __init__(self, allow_all: bool, signing: TerminalSignIn | None = None):
        self.allow_all, self.signing = allow_all, signing

    async def sign_in(self, server_id, challenge: str, interactive: bool) -> dict:
        """A server asks mid-turn: its kept token refreshed, or (asked first) a sign-in here."""
        if self.signing is None:
            return {"ok": False, "error": "no sign-in at the command line"}
        return await self.signing.sign_in(server_id, challenge, interactive)

    async def confirm(self, id, tool: str, message: str, details: dict) -> str:
        if self.allow_all:
            return "once"
        if details.get("tool"):  # an MCP tool's name, as its server wrote it (shown, bounded)
            message = f"{message}, the tool it names {details['tool']!r}"
        if not (sys.stdin.isatty() and sys.stderr.isatty()):
            print(f"tabagent: {message}: refused (no terminal to ask on; --allow-mcp allows MCP calls)",
                  file=sys.stderr)
            return "deny"
        print(f"{message}, with {details.get('arguments', '{}')}", file=sys.stderr)
        if details.get("changed"):
            print(details["changed"], file=sys.stderr)
        answer = (await asyncio.to_thread(input, "Allow? [y] once, [t] for this turn, [N] no: ")).strip().lower()
        return {"y": "once", "t": "turn"}.get(answer, "deny")


def settings_file(path: str) -> dict:
    """The settings a file holds. A name that is not a setting is refused, not passed over: a
    misspelled one (or an older version's) would otherwise leave its setting at the default."""
    try:
        with open(path, encoding="utf-8") as file:
            stored = json.load(file)
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot read the settings file {path}: {error}") from None
    if not isinstance(stored, dict):
        raise UsageError(f"{path} should hold a JSON object like {{\"base_url\": ...}}")
    if unknown := sorted(set(stored) - set(SETTINGS)):
        raise UsageError(f"{path}: not a setting: {', '.join(unknown)} (the settings are {', '.join(SETTINGS)})")
    return stored


def short(value, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


class Terminal:
    """The default view: the reply streamed to stdout, what the agent does in brief on
    stderr, the final answer last (once: not again when it is the text just streamed).

    A reasoning model's thoughts stream to stderr, dimmed on a terminal and marked
    "thinking:" elsewhere. When a request is retried, what its failed attempt streamed is
    withdrawn: erased on a terminal, marked as withdrawn in a pipe or file. A tool call the
    model wrote in its text is erased on a terminal once it is read.
    """

    DIM, PLAIN, ERASE_BELOW = "\x1b[2m", "\x1b[0m", "\x1b[J"

    def __init__(self, out=None, err=None):
        self.out, self.err = out or sys.stdout, err or sys.stderr
        self.tty = _isatty(self.out) and _isatty(self.err)
        self.streamed, self.thinking = "", False
        self.line, self.open_line = "", None  # the unfinished line on screen, and its stream
        self.attempt = ""  # what this attempt put on the screen, to erase it if it fails
        self.attempt_line, self.attempt_column = "", 0  # the line and column it started at

    def __call__(self, event: dict) -> None:
        kind, data, depth = event["kind"], event["data"], event["depth"]
        if depth == 0 and kind == "reasoning":
            self._think(data["text"])
        elif depth == 0 and kind == "token":
            self._stop_thinking()
            self._write(self.out, data["text"])
            self.streamed += data["text"]
        elif depth == 0 and kind == "step_start":
            self._end_line()
            self.streamed, self.attempt = "", ""
        elif depth == 0 and kind == "text_call":
            self._take_back_call(data["said"])
        elif depth == 0 and kind == "error" and data.get("kind") == "retrying":
            self._withdraw(data.get("withdraw") or {})
            self._say(event, data["message"])
        elif depth == 0 and kind == "final_answer":
            answer = data["answer"]
            answer = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
            self._stop_thinking()
            if answer.strip() != self.streamed.strip():
                self._end_line()
                self._write(self.out, answer)
            self._end_line()
        elif line := self._brief(kind, data, depth):
            self._say(event, line)

    def _say(self, event: dict, line: str) -> None:
        self._stop_thinking()
        self._end_line()
        depth = event["depth"]
        who = f"{event['agent']}: " if depth else ""
        print(f"{'  ' * depth}{who}{line}", file=self.err, flush=True)
        self.attempt = ""

    @staticmethod
    def _brief(kind: str, data: dict, depth: int) -> str | None:
        if kind == "tool_call":
            arguments = data["arguments"]
            shown = (", ".join(f"{k}={short(json.dumps(v, ensure_ascii=False), 60)}" for k, v in arguments.items())
                     if isinstance(arguments, dict) else short(arguments))
            return f"-> {data['name']}({shown})"
        if kind == "tool_result":
            return f"{'!!' if data['is_error'] else '<-'} {data['name']}: {short(data['result'])}"
        if kind == "code_output" and (data["output"] or data["is_error"]):
            return f"{'!! error' if data['is_error'] else '<- output'}: {short(data['output'])}"
        if kind == "error" and data.get("kind") in NOT_FATAL_ERRORS:
            return data["message"]  # errors that end the turn are said once, at the end
        if depth and kind == "step_start":
            return "step"
        if depth and kind == "final_answer":
            return f"answered: {short(data['answer'])}"
        return None  # the code is in the streamed reply; done and model_call are for --events

    def _think(self, text: str) -> None:
        if not self.thinking and not text.strip():
            return  # white space before any thought (or an empty <think> block)
        if not self.thinking:
            self._end_line()
            self.thinking = True
            if self.tty:
                self.err.write(self.DIM)
            else:
                self._write(self.err, "thinking: ")
        self._write(self.err, text)

    def _stop_thinking(self) -> None:
        if self.thinking:
            self.thinking = False
            if self.tty:
                self.err.write(self.PLAIN)
            self._end_line()

    def _withdraw(self, withdraw: dict) -> None:
        """The failed attempt's text goes: the retry streams it again."""
        self._stop_thinking()
        text, reasoning = withdraw.get("text", 0), withdraw.get("reasoning", 0)
        if text:
            self.streamed = self.streamed[:-text]
        if self.tty and self.attempt:
            self._erase_attempt()
        elif not self.tty:
            if reasoning:
                self._end_line()
                self._write(self.err, "[withdrawn: the thinking above came from a failed attempt]\n")
            if text:
                self._end_line()
                self._write(self.out, "[withdrawn: the text above came from a failed attempt]\n")
        self.attempt = ""

    def _take_back_call(self, said: str) -> None:
        """The model wrote its call in the text, which streamed: on a terminal, when that text
        is all this step showed, it is erased and what the model said before the call stays.
        (A pipe cannot take text back: there the call's text stays.)"""
        if self.tty and self.attempt and self.attempt == self.streamed:
            self._erase_attempt()
            self.attempt = ""
            self._write(self.out, said)
        self.streamed = said

    def _erase_attempt(self) -> None:
        width = shutil.get_terminal_size().columns
        rows = _rows_down(self.attempt, self.attempt_column, width)
        up = f"\x1b[{rows}A" if rows else ""
        right = f"\x1b[{self.attempt_column}C" if self.attempt_column else ""
        self.err.write(f"\r{up}{right}{self.ERASE_BELOW}")
        self.err.flush()
        self.line = self.attempt_line
        self.open_line = self.err if self.line else None

    def _write(self, stream, text: str) -> None:
        if not self.attempt:  # where this attempt's text starts on the screen
            self.attempt_line, self.attempt_column = self.line, len(self.line)
        stream.write(text)
        stream.flush()
        self.attempt += text
        self.line = (self.line + text).rsplit("\n", 1)[-1]
        self.open_line = stream if self.line else None

    def _end_line(self) -> None:
        if self.open_line is not None:
            self.open_line.write("\n")
            self.open_line.flush()
            if self.attempt:
                self.attempt += "\n"
        self.open_line, self.line = None, ""


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _rows_down(text: str, column: int, width: int) -> int:
    """How many rows down the cursor went writing `text` from `column` on a terminal
    `width` wide (line breaks and wrapped lines)."""
    rows = 0
    for number, line in enumerate(text.split("\n")):
        start = column if number == 0 else 0
        rows += 1 if number else 0
        if line:
            rows += (start + len(line) - 1) // max(1, width)  # a full last row wraps only later
    return rows


def json_lines(event: dict) -> None:
    print(json.dumps(event, ensure_ascii=False), flush=True)


class Conversation:
    """The turns of one conversation, its memory carried from each turn to the next."""

    def __init__(self, settings: dict, api_key: str | None, sink, tools_folder=None, mcp=None, allow_mcp=False):
        self.settings, self.api_key, self.sink, self.tools_folder = settings, api_key, sink, tools_folder
        self.mcp_servers, self.mcp_headers = mcp or ((), {})  # a dict of its own for each conversation
        self.allow_mcp = allow_mcp
        self.id, self.memory, self.turns, self.host = uuid.uuid4().hex, None, Turns(), CPythonHost()
        self.signing = TerminalSignIn(list(self.mcp_servers), SignIns(), self.host,
                                      sys.stdin.isatty() and sys.stderr.isatty())
        self.shown_problems: list[dict] = []

    def tools(self) -> list:
        # Loaded again every turn: an edited file is imported again, an unchanged one is not.
        tools, problems = load_user_tools(self.tools_folder)
        if problems != self.shown_problems:
            for problem in problems:
                line = f":{problem['line']}" if problem["line"] else ""
                print(f"{problem['file']}{line}: {problem['message']}", file=sys.stderr)
            self.shown_problems = problems
        return tools

    async def turn(self, task: str) -> tuple[str, dict | None]:
        """Runs one turn; returns its status and the error that ended it, if one did."""
        failure = {}

        def emit(event: dict) -> None:
            if event["depth"] == 0 and event["kind"] == "error" and event["data"].get("kind") not in NOT_FATAL_ERRORS:
                failure.update(event["data"])
            self.sink(event)

        request = {"conversation_id": self.id, "task": task, "memory": self.memory,
                   "settings": self.settings, "api_key": self.api_key,
                   "mcp_servers": list(self.mcp_servers), "mcp_headers": await self.signing.headers(self.mcp_headers)}
        asking = Consent(AskOnTheTerminal(self.allow_mcp, self.signing)).asking(Actor("model", "TabAgent"))
        with stop_on_interrupt(self.turns, self.id):
            result = await self.turns.run(request, emit, tools=self.tools(), host=self.host,
                                          executor_factory=lambda _name: LocalExecutor(), consent=asking)
        self.memory = result["memory"]
        return result["status"], failure or None

    async def close(self) -> None:
        await self.host.aclose()


@contextlib.contextmanager
def stop_on_interrupt(turns: Turns, conversation_id: str):
    """Ctrl-C during a turn stops that turn, and a conversation goes on; where asyncio cannot
    take the signal (Windows), Ctrl-C raises KeyboardInterrupt as usual."""
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, turns.stop, conversation_id)
    except (NotImplementedError, RuntimeError, ValueError):
        yield
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGINT)


def report(status: str, failure: dict | None) -> int:
    if status == "error":
        failure = failure or {}
        print(f"tabagent: {failure.get('message', 'the turn failed')}", file=sys.stderr)
        if failure.get("kind") == "auth":
            print("tabagent: give the key with --api-key or in the TABAGENT_API_KEY environment variable",
                  file=sys.stderr)
        return MODEL_ERROR
    if status == "cancelled":
        print("tabagent: stopped.", file=sys.stderr, flush=True)
        return STOPPED
    return 0


def ask() -> str | None:
    """The next task typed (None at the end of input)."""
    while True:
        if sys.stdin.isatty():
            try:
                line = input("> ")
            except EOFError:
                return None
        elif not (line := sys.stdin.readline()):
            return None
        if line.strip() in ("exit", "quit"):
            return None
        if line.strip():
            return line.strip()


async def run(args, settings: dict, mcp) -> int:
    conversation = Conversation(settings, args.api_key, json_lines if args.events else Terminal(), args.tools,
                                mcp, args.allow_mcp)
    try:
        if args.task is not None:
            return report(*await conversation.turn(args.task))
        names = ", ".join(t.name for t in conversation.tools()) or "none"
        print(f"TabAgent {__version__}: {settings['model']} at {settings['base_url']}, {settings['agent']} "
              f"agent; your tools: {names}. Ctrl-C stops a turn, Ctrl-D quits.", file=sys.stderr)
        status = 0
        while (task := ask()) is not None:
            status = report(*await conversation.turn(task))
        return status
    finally:
        await conversation.close()


def sign_in_or_out(args, sign_ins: SignIns | None = None) -> int:
    """--sign-in NAME or --sign-out NAME, for a server given with --mcp NAME=URL."""
    name = args.sign_in or args.sign_out
    try:
        servers = {server["name"]: server["url"] for server in mcp_from(args)[0]}
        if name not in servers:
            raise UsageError(f"no MCP server {name!r}: give it with --mcp {name}=URL")
    except UsageError as error:
        print(f"tabagent: {error}", file=sys.stderr)
        return USAGE_ERROR
    sign_ins = sign_ins or SignIns()
    if args.sign_out:
        gone = sign_ins.forget(servers[name])
        if gone:
            asyncio.run(oauth_sign_out(gone))
        print(f"tabagent: {'signed out of' if gone else 'there was no sign-in to keep for'} {name}.", file=sys.stderr)
        return 0
    try:
        record = asyncio.run(_signed_in(args, name, servers[name], sign_ins))
    except MCPError as error:
        print(f"tabagent: {error}", file=sys.stderr)
        return MODEL_ERROR
    except KeyboardInterrupt:
        return STOPPED
    who = f" as {record['who']}" if record.get("who") else ""
    print(f"tabagent: signed in to {name}{who}; the token is kept in {sign_ins.path}.", file=sys.stderr)
    return 0


async def _signed_in(args, name: str, url: str, sign_ins: SignIns) -> dict:
    host = CPythonHost()
    try:
        return await sign_in(name, url, sign_ins, host, args.client_id or "",
                             os.environ.get("TABAGENT_MCP_CLIENT_SECRET", ""), open_browser=not args.no_browser)
    finally:
        await host.aclose()


async def oauth_sign_out(record: dict) -> None:
    from ..mcp.oauth import sign_out

    host = CPythonHost()
    try:
        await sign_out(record, host)
    finally:
        await host.aclose()


def list_tools(folder) -> int:
    from .tool_costs import costs_table, tool_costs

    rows, problems = tool_costs(folder)
    print(costs_table(rows, problems, folder or "py/user_tools"))
    return MODEL_ERROR if problems else 0


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.list_tools:
        return list_tools(args.tools)
    if args.sign_in or args.sign_out:
        return sign_in_or_out(args)
    try:
        import httpx  # noqa: F401  the CPython host's HTTP client: say so now, not mid-turn
    except ImportError:
        print("tabagent: the command line needs httpx: pip install httpx", file=sys.stderr)
        return USAGE_ERROR
    try:
        settings, mcp = settings_from(args), mcp_from(args)
    except UsageError as error:
        print(f"tabagent: {error}", file=sys.stderr)
        return USAGE_ERROR
    if args.task is None and sys.stdin.isatty():
        try:
            import readline  # noqa: F401  line editing and history for input()
        except ImportError:
            pass
    try:
        return asyncio.run(run(args, settings, mcp))
    except KeyboardInterrupt:
        return STOPPED
