"""Where the MCP server and the native host meet: a unix socket in a folder that only this
user may open (0700, owned by them), which both sides check before using it.

The folder is $TABAGENT_MCP_DIR, else /tmp/tabagent-mcp-<uid>: a fixed name both processes
find without being told (an MCP client passes few environment variables to the servers it
starts). In a shared /tmp another user could make that folder first, so a folder that is a
link, is not a folder, is someone else's or may be opened by others is refused, never used.
The host also refuses any connection whose peer is another user (SO_PEERCRED).
"""

from __future__ import annotations

import os
import socket
import stat
import struct
import tempfile
from pathlib import Path

SOCKET_NAME = "host.sock"


class NotSafe(RuntimeError):
    """The meeting place could be opened by someone other than this user."""


def folder() -> Path:
    given = os.environ.get("TABAGENT_MCP_DIR")
    return Path(given) if given else Path(tempfile.gettempdir()) / f"tabagent-mcp-{os.getuid()}"


def socket_path() -> Path:
    return folder() / SOCKET_NAME


def check_folder(path: Path) -> None:
    """Raises NotSafe unless `path` is a real folder of this user that nobody else may open."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        raise NotSafe(f"{path} does not exist") from None
    if not stat.S_ISDIR(found.st_mode):
        raise NotSafe(f"{path} is not a folder (a link or a file): TabAgent will not use it")
    if found.st_uid != os.getuid():
        raise NotSafe(f"{path} belongs to another user (uid {found.st_uid}): TabAgent will not use it")
    if found.st_mode & 0o077:
        raise NotSafe(f"{path} may be opened by other users (mode {oct(found.st_mode & 0o777)}): TabAgent will not use it")


def make_folder() -> Path:
    """The meeting folder, made 0700 if missing, then checked like any other."""
    path = folder()
    try:
        path.mkdir(mode=0o700, parents=False)
    except FileExistsError:
        pass
    check_folder(path)
    return path


def check_socket(path: Path) -> None:
    check_folder(path.parent)
    found = os.lstat(path)
    if not stat.S_ISSOCK(found.st_mode) or found.st_uid != os.getuid():
        raise NotSafe(f"{path} is not this user's socket: TabAgent will not connect to it")


def peer_uid(connection: socket.socket) -> int:
    """The user id of the process at the other end of a unix socket (Linux's SO_PEERCRED)."""
    credentials = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return uid
