"""The native messaging host: started by the browser when TabAgent connects to it (only while
the user has "Let MCP clients use TabAgent" on), it listens on the meeting socket and passes
each call of an MCP server (server.py) to the extension, and the extension's answer back.

It decides nothing: the extension checks the setting, shows every call in the panel and asks
the user before any action, as for its own agent. The host refuses connections from any
other user, and the folder it listens in is this user's alone (meeting_place.py).
Over the socket: one JSON object per line, {"tool", "args", "client"} in, {"ok", "result" |
"error", "images"?} out. To the browser: the same call with an "id", answered with that id, and
the "connection" it came on. Each connection gets an id of the host's (never one a caller
sends: any program of this user may reach the socket and write any id): it is one client's
session, in which what the user allows that client lasts, and when it closes the browser is
told ({"connection", "ended": true}), so that a second program, on a connection of its own, is
asked afresh whatever name it gives.
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import sys
import threading
import uuid

from . import meeting_place
from .native_messaging import read_message, write_message

MOST_FROM_CLIENT = 256 * 1024  # a call's line (a tool's arguments), far above any real one


class Host:
    def __init__(self, to_browser, listening: socket.socket):
        self.to_browser, self.listening = to_browser, listening
        self.numbers = itertools.count(1)
        self.waiting: dict[int, socket.socket] = {}
        self.lock = threading.Lock()

    def send_to_browser(self, message: dict) -> None:
        with self.lock:
            write_message(self.to_browser, message)

    def accept_forever(self) -> None:
        while True:
            try:
                connection, _ = self.listening.accept()
            except OSError:
                return  # the socket was closed: the host is ending
            if meeting_place.peer_uid(connection) != os.getuid():
                connection.close()  # another user: never heard
                continue
            threading.Thread(target=self.serve, args=(connection, uuid.uuid4().hex), daemon=True).start()

    def serve(self, connection: socket.socket, session: str = "") -> None:
        # A line is read at most one byte past the longest call: a longer one is refused there,
        # never read whole (a client could send gigabytes without a newline).
        try:
            with connection, connection.makefile("rb") as lines:
                while line := lines.readline(MOST_FROM_CLIENT + 1):
                    if len(line) > MOST_FROM_CLIENT:
                        self.answer(connection, {"ok": False, "error": "That call is too long."})
                        return
                    self.pass_on(connection, line, session)
        finally:
            self.ended(session)

    def ended(self, session: str) -> None:
        """The connection closed: its session ends, and what its client was allowed with it."""
        try:
            self.send_to_browser({"connection": session, "ended": True})
        except (OSError, ValueError):
            pass  # the browser is gone too

    def pass_on(self, connection: socket.socket, line: bytes, session: str = "") -> None:
        try:
            call = json.loads(line)
            message = {"tool": str(call["tool"]), "args": dict(call.get("args") or {}),
                       "client": str(call.get("client") or "an MCP client")[:100]}
        except (ValueError, KeyError, TypeError):
            self.answer(connection, {"ok": False, "error": "A call is a JSON object with a tool and its args."})
            return
        number = next(self.numbers)
        with self.lock:
            self.waiting[number] = connection
        try:
            self.send_to_browser({"id": number, **message, "connection": session})
        except (OSError, ValueError) as error:
            self.waiting.pop(number, None)
            self.answer(connection, {"ok": False, "error": f"TabAgent could not be reached: {error}"})

    def answer(self, connection: socket.socket, reply: dict) -> None:
        try:
            connection.sendall(json.dumps(reply).encode("utf-8") + b"\n")
        except OSError:
            pass  # the MCP server went away: nobody to tell

    def from_browser_forever(self, stream) -> None:
        """Replies from the extension, each to the connection that made the call."""
        while (message := read_message(stream)) is not None:
            with self.lock:
                connection = self.waiting.pop(message.pop("id", None), None)
            if connection is not None:
                self.answer(connection, message)


def listen() -> socket.socket:
    """The socket, put in its place only once it listens and is the user's alone: a client never
    meets one that refuses it, or one open to others (bound under a name of its own, then
    renamed over an earlier host's: the newest browser to connect is the one served)."""
    folder = meeting_place.make_folder()
    private = folder / f".{meeting_place.SOCKET_NAME}.{os.getpid()}"
    if private.exists() or private.is_symlink():
        private.unlink()
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listening.bind(str(private))
    os.chmod(private, 0o600)
    listening.listen()
    os.replace(private, folder / meeting_place.SOCKET_NAME)
    return listening


def forget(inode: int) -> None:
    """Removes the socket, unless a newer host has put its own there."""
    path = meeting_place.socket_path()
    try:
        if os.lstat(path).st_ino == inode:
            path.unlink()
    except OSError:
        pass


def run() -> None:
    """Runs until the browser closes the pipe (the extension disconnected, or the setting went off)."""
    listening = listen()
    mine = os.stat(meeting_place.socket_path()).st_ino
    host = Host(sys.stdout.buffer, listening)
    threading.Thread(target=host.accept_forever, daemon=True).start()
    try:
        host.from_browser_forever(sys.stdin.buffer)
    finally:
        listening.close()
        forget(mine)
